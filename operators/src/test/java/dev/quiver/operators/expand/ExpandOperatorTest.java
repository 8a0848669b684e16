package dev.quiver.operators.expand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.values.ValuesOperator;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The expand operator alone and under a hash aggregate, without Flink. */
@ExtendWith(ArrowLeakCheck.class)
class ExpandOperatorTest {
  private static final ArrowType BIGINT = new ArrowType.Int(64, true);
  // (k VARCHAR, n BIGINT NOT NULL, v BIGINT): keys k and n, ROLLUP(k, n).
  private static final Schema INPUT =
      new Schema(
          List.of(
              RandomBatches.field("k", ArrowType.Utf8.INSTANCE),
              new Field("n", FieldType.notNullable(BIGINT), null),
              RandomBatches.field("v", BIGINT)));
  private static final List<Integer> KEYS = List.of(0, 1);
  private static final List<List<Integer>> ROLLUP = List.of(List.of(0, 1), List.of(0), List.of());

  private static List<List<Object>> rows() {
    return List.of(
        Arrays.asList("a", 1L, 10L), Arrays.asList(null, 2L, 20L), Arrays.asList("b", 3L, null));
  }

  private static OperatorContext context(BufferAllocator allocator, int targetRows) {
    return new OperatorContext(allocator, MemoryBudget.unlimited("test"), targetRows);
  }

  private static void feed(OperatorContext context, List<List<Object>> rows, ExpandOperator op) {
    new ValuesOperator(context, INPUT, rows, batch -> op.add(0, batch)).start();
  }

  @Test
  void eachSetNullsTheKeysItLacksAndCarriesItsGroupingId(BufferAllocator allocator) {
    OperatorContext context = context(allocator, 64);
    List<List<Object>> out = new ArrayList<>();
    try (ExpandOperator expand =
        new ExpandOperator(
            context,
            INPUT,
            KEYS,
            ROLLUP,
            batch -> {
              try (batch) {
                ValueVectorUtility.validate(batch);
                assertThat(batch.getSchema()).isEqualTo(expandSchema());
                out.addAll(BatchRows.rows(batch));
              }
            })) {
      feed(context, rows(), expand);
      expand.finish(0);
      assertThat(context.budget().used()).isZero();
    }
    assertThat(out)
        .containsExactly(
            Arrays.asList("a", 1L, 10L, 0L),
            Arrays.asList(null, 2L, 20L, 0L), // a NULL key of the input: its bit is 0
            Arrays.asList("b", 3L, null, 0L),
            Arrays.asList("a", null, 10L, 1L),
            Arrays.asList(null, null, 20L, 1L),
            Arrays.asList("b", null, null, 1L),
            Arrays.asList(null, null, 10L, 3L), // NULLs of the grand total: both bits 1
            Arrays.asList(null, null, 20L, 3L),
            Arrays.asList(null, null, null, 3L));
  }

  private static Schema expandSchema() {
    return new Schema(
        List.of(
            RandomBatches.field("k", ArrowType.Utf8.INSTANCE),
            RandomBatches.field("n", BIGINT), // a key: nullable now
            RandomBatches.field("v", BIGINT),
            new Field("grouping_id", FieldType.notNullable(BIGINT), null)));
  }

  @Test
  void keptColumnsShareTheInputBuffersAndConstantsAreMadeOnce(BufferAllocator allocator) {
    OperatorContext context = context(allocator, 2); // 3 rows: slices of 2 and 1
    List<VectorSchemaRoot> outputs = new ArrayList<>();
    List<Long> inputAddresses = new ArrayList<>();
    try (ExpandOperator expand = new ExpandOperator(context, INPUT, KEYS, ROLLUP, outputs::add)) {
      for (int i = 0; i < 2; i++) {
        new ValuesOperator(
                context(allocator, 64), // one batch of 3 rows
                INPUT,
                rows(),
                batch -> {
                  inputAddresses.add(batch.getVector(2).getDataBuffer().memoryAddress());
                  expand.add(0, batch);
                })
            .start();
      }
      assertThat(context.budget().used()).isPositive(); // the constants of 2-row slices
      expand.finish(0);
      assertThat(context.budget().used()).isZero();
    }
    try {
      // 2 input batches x 2 slices x 3 sets.
      assertThat(outputs)
          .extracting(VectorSchemaRoot::getRowCount)
          .containsExactly(2, 2, 2, 1, 1, 1, 2, 2, 2, 1, 1, 1);
      // v of the first slice of each input batch is the input's own buffer, in every set.
      for (int batch = 0; batch < 2; batch++) {
        for (int set = 0; set < 3; set++) {
          assertThat(outputs.get(batch * 6 + set).getVector(2).getDataBuffer().memoryAddress())
              .isEqualTo(inputAddresses.get(batch));
        }
      }
      // The grand total's NULL k and the grouping ids: one vector for every slice of any size.
      for (int i = 0; i < outputs.size(); i += 3) {
        assertThat(outputs.get(i + 2).getVector(0).getValidityBuffer().memoryAddress())
            .isEqualTo(outputs.get(2).getVector(0).getValidityBuffer().memoryAddress());
        assertThat(outputs.get(i).getVector(3).getDataBuffer().memoryAddress())
            .isEqualTo(outputs.get(0).getVector(3).getDataBuffer().memoryAddress());
      }
    } finally {
      outputs.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void constantsAreReservedInTheBudget(BufferAllocator allocator) {
    OperatorContext context = new OperatorContext(allocator, new MemoryBudget("task", 16), 64);
    try (ExpandOperator expand =
        new ExpandOperator(context, INPUT, KEYS, ROLLUP, VectorSchemaRoot::close)) {
      assertThatThrownBy(() -> feed(context, rows(), expand))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("MEMORY_BUDGET_EXCEEDED")
          .hasMessageContaining("constant columns");
    }
    assertThat(context.budget().used()).isZero();
  }

  /**
   * ROLLUP(k, n) as SQL plans it: expand, PARTIAL seeding the grand total (id 3), FINAL. A NULL k
   * of the input and the NULL of the rollup stay apart by their grouping id.
   */
  @Test
  void rollupThroughTwoPhaseAggregate(BufferAllocator allocator) {
    List<List<Object>> rows = new ArrayList<>(rows());
    rows.add(Arrays.asList(null, 2L, 5L));
    assertThat(rollup(allocator, rows))
        .containsExactlyInAnyOrder(
            Arrays.asList("a", 1L, 0L, 10L, 1L),
            Arrays.asList(null, 2L, 0L, 25L, 2L),
            Arrays.asList("b", 3L, 0L, null, 1L),
            Arrays.asList("a", null, 1L, 10L, 1L),
            Arrays.asList(null, null, 1L, 25L, 2L), // k IS NULL in the input, per k
            Arrays.asList("b", null, 1L, null, 1L),
            Arrays.asList(null, null, 3L, 35L, 4L)); // the grand total
  }

  @Test
  void theGrandTotalOfAnEmptyInputIsOneRow(BufferAllocator allocator) {
    assertThat(rollup(allocator, List.of()))
        .containsExactly(Arrays.asList(null, null, 3L, null, 0L));
  }

  private static List<List<Object>> rollup(BufferAllocator allocator, List<List<Object>> rows) {
    OperatorContext context = context(allocator, 64);
    List<AggregateCall> calls =
        List.of(
            AggregateCall.of(AggregateFunction.SUM, 2, BIGINT, "sum_v"),
            AggregateCall.countStar("n"));
    int[] keys = {0, 1, 3};
    List<List<Object>> out = new ArrayList<>();
    List<VectorSchemaRoot> partials = new ArrayList<>();
    Schema expanded = expandSchema();
    // Two PARTIALs, as two tasks would run them, each seeding the grand total; one FINAL.
    for (int task = 0; task < 2; task++) {
      try (HashAggregateOperator partial =
              new HashAggregateOperator(
                  context,
                  expanded,
                  AggregateMode.PARTIAL,
                  keys,
                  calls,
                  new long[] {3},
                  partials::add);
          ExpandOperator expand =
              new ExpandOperator(context, INPUT, KEYS, ROLLUP, b -> partial.add(0, b))) {
        feed(context, task == 0 ? rows : List.of(), expand);
        expand.finish(0);
        partial.finish(0);
      }
    }
    Schema partialSchema =
        HashAggregateOperator.outputSchema(expanded, AggregateMode.PARTIAL, keys, calls);
    try (HashAggregateOperator fin =
        new HashAggregateOperator(
            context,
            partialSchema,
            AggregateMode.FINAL,
            keys,
            calls,
            batch -> {
              try (batch) {
                out.addAll(BatchRows.rows(batch));
              }
            })) {
      partials.forEach(b -> fin.add(0, b));
      fin.finish(0);
    }
    return out;
  }
}
