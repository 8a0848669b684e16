package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** SINGLE_VALUE: one row's value, NULL for none, an error a user can act on for more. */
@ExtendWith(ArrowLeakCheck.class)
class SingleValueAccumulatorTest {
  private static final ArrowType INT64 = new ArrowType.Int(64, true);
  private static final Schema INPUT =
      new Schema(
          List.of(
              Field.nullable("k", INT64),
              Field.nullable("v", ArrowType.Utf8.INSTANCE),
              Field.nullable("n", INT64)));
  private static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.of(AggregateFunction.SINGLE_VALUE, 1, ArrowType.Utf8.INSTANCE, "sv"),
          AggregateCall.of(AggregateFunction.SINGLE_VALUE, 2, INT64, "sn"));

  @Test
  void oneRowGivesItsValueNullValuesStayNull(BufferAllocator allocator) {
    Map<List<Object>, List<Object>> result =
        results(
            run(
                allocator,
                INPUT,
                AggregateMode.SINGLE,
                new int[] {0},
                CALLS,
                batches(allocator, new long[] {1, 2, 3}, new String[] {"a", null, "c"}, 2),
                100),
            1);
    assertThat(result.get(List.of(1L))).containsExactly("a", 1L);
    assertThat(result.get(List.of(2L))).containsExactly(null, null);
    assertThat(result.get(List.of(3L))).containsExactly("c", 3L);
  }

  @Test
  void globalOfNoRowsIsNull(BufferAllocator allocator) {
    List<VectorSchemaRoot> none = batches(allocator, new long[0], new String[0], 1);
    none.add(VectorSchemaRoot.create(INPUT, allocator));
    Map<List<Object>, List<Object>> result =
        results(run(allocator, INPUT, AggregateMode.SINGLE, new int[0], CALLS, none, 100), 0);
    assertThat(result.get(List.of())).containsExactly(null, null);
  }

  @Test
  void twoRowsInAGroupFailEvenWhenNull(BufferAllocator allocator) {
    for (String[] values : new String[][] {{"a", "b"}, {null, null}}) {
      assertThatThrownBy(
              () ->
                  run(
                      allocator,
                      INPUT,
                      AggregateMode.SINGLE,
                      new int[] {0},
                      CALLS.subList(0, 1),
                      batches(allocator, new long[] {7, 7}, values, 1),
                      100))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.SCALAR_SUBQUERY_ROWS))
          .hasMessageContaining("more than one row returned by a subquery used as an expression");
    }
  }

  @Test
  void partialsMergeAndFailWhenTwoTasksSawARowOfOneGroup(BufferAllocator allocator) {
    int[] keys = {0};
    Schema partial = HashAggregateOperator.outputSchema(INPUT, AggregateMode.PARTIAL, keys, CALLS);
    // Task 0 has groups 1, 2; task 1 has group 3 and no row of the others: merges to one row each.
    List<VectorSchemaRoot> states = new ArrayList<>();
    states.addAll(partial(allocator, new long[] {1, 2}, new String[] {"x", null}));
    states.addAll(partial(allocator, new long[] {3}, new String[] {"z"}));
    Map<List<Object>, List<Object>> result =
        results(run(allocator, partial, AggregateMode.FINAL, keys, CALLS, states, 100), 1);
    assertThat(result.get(List.of(1L))).containsExactly("x", 1L);
    assertThat(result.get(List.of(2L))).containsExactly(null, null);
    assertThat(result.get(List.of(3L))).containsExactly("z", 3L);
    // Each task saw one row of group 5: fine per task, an error once merged.
    List<VectorSchemaRoot> twice = new ArrayList<>();
    twice.addAll(partial(allocator, new long[] {5}, new String[] {"p"}));
    twice.addAll(partial(allocator, new long[] {5}, new String[] {"q"}));
    assertThatThrownBy(() -> run(allocator, partial, AggregateMode.FINAL, keys, CALLS, twice, 100))
        .isInstanceOfSatisfying(
            QuiverException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.SCALAR_SUBQUERY_ROWS));
  }

  @Test
  void spilledStatesOfManyGroupsMergeBack(BufferAllocator allocator) {
    int rows = 30_000;
    long[] keys = new long[rows];
    String[] values = new String[rows];
    for (int i = 0; i < rows; i++) {
      keys[i] = (i * 7919L) % rows; // every key once, in scrambled order
      values[i] = i % 11 == 0 ? null : "v" + keys[i];
    }
    MemoryBudget budget = new MemoryBudget("single value", 96 * SpillingAggregateTest.KB);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = new OperatorContext(allocator, budget, 700, space);
    Map<List<Object>, List<Object>> result =
        results(
            SpillingAggregateTest.runSpilling(
                context,
                INPUT,
                AggregateMode.SINGLE,
                new int[] {0},
                CALLS,
                batches(allocator, keys, values, 1000),
                true),
            1);
    assertThat(space.spilledFiles()).isPositive();
    assertThat(result).hasSize(rows);
    for (int i = 0; i < rows; i++) {
      assertThat(result.get(List.of(keys[i])))
          .containsExactly(values[i], values[i] == null ? null : keys[i]);
    }
    assertThat(budget.used()).isZero();
  }

  private static List<VectorSchemaRoot> partial(
      BufferAllocator allocator, long[] keys, String[] values) {
    return run(
        allocator,
        INPUT,
        AggregateMode.PARTIAL,
        new int[] {0},
        CALLS,
        batches(allocator, keys, values, 1),
        100);
  }

  /** Rows (k, v, n = k unless v is NULL) in batches of {@code batchRows}. */
  private static List<VectorSchemaRoot> batches(
      BufferAllocator allocator, long[] keys, String[] values, int batchRows) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int from = 0; from < keys.length; from += batchRows) {
      int count = Math.min(batchRows, keys.length - from);
      VectorSchemaRoot root = VectorSchemaRoot.create(INPUT, allocator);
      BigIntVector k = (BigIntVector) root.getVector(0);
      VarCharVector v = (VarCharVector) root.getVector(1);
      BigIntVector n = (BigIntVector) root.getVector(2);
      k.allocateNew(count);
      v.allocateNew(count);
      n.allocateNew(count);
      for (int i = 0; i < count; i++) {
        k.set(i, keys[from + i]);
        String value = values[from + i];
        if (value != null) {
          v.setSafe(i, value.getBytes(StandardCharsets.UTF_8));
          n.set(i, keys[from + i]);
        }
      }
      root.setRowCount(count);
      batches.add(root);
    }
    return batches;
  }
}
