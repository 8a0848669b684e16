package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.call;
import static dev.quiver.plan.aggregate.AggregateFunction.APPROX_COUNT_DISTINCT;
import static dev.quiver.plan.aggregate.AggregateFunction.AVG;
import static dev.quiver.plan.aggregate.AggregateFunction.COUNT;
import static dev.quiver.plan.aggregate.AggregateFunction.MAX;
import static dev.quiver.plan.aggregate.AggregateFunction.MEDIAN;
import static dev.quiver.plan.aggregate.AggregateFunction.MIN;
import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateFunction.VAR_POP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.changelog.RowKind;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The changelog of an updating aggregate: hand-made cases for its rows and their order, and
 * randomized runs whose changelog, applied in order, is the hash aggregate of all the input.
 */
@ExtendWith(ArrowLeakCheck.class)
class UpdatingAggregateOperatorTest {
  static final ArrowType BIGINT = new ArrowType.Int(64, true);
  static final Schema KX =
      new Schema(List.of(Field.nullable("k", BIGINT), Field.nullable("x", BIGINT)));
  static final AggregateCall COUNT_STAR = AggregateCall.countStar("n");
  static final AggregateCall SUM_X = AggregateCall.of(SUM, 1, BIGINT, "s");
  static final AggregateCall MAX_X = AggregateCall.of(MAX, 1, BIGINT, "m");

  /** Several kinds over long, double, decimal, string, bool and date, a FILTER, a sketch. */
  static final List<AggregateCall> CALLS =
      List.of(
          COUNT_STAR,
          call(COUNT, 9),
          call(SUM, 3),
          call(AVG, 2),
          call(SUM, 6),
          call(AVG, 6),
          call(SUM, 7),
          call(AVG, 7),
          call(MIN, 4),
          call(MAX, 4),
          call(MIN, 6),
          call(MAX, 8),
          call(MIN, 9),
          call(MAX, 9),
          call(MAX, 0),
          call(MIN, 10),
          call(VAR_POP, 3),
          call(SUM, 3).withFilter(0),
          call(APPROX_COUNT_DISTINCT, 9),
          AggregateCall.of(
              AggregateFunction.ARG_MAX,
              9,
              SCHEMA.getFields().get(9).getType(),
              4,
              BIGINT,
              "arg_max_9_4"));

  /** Calls whose values a batch often leaves equal: changed and unchanged groups mix. */
  static final List<AggregateCall> EXTREMES =
      List.of(call(MAX, 4), call(MIN, 9), call(MAX, 8), call(MAX, 0), call(MIN, 6));

  static final int[][] KEY_SETS = {{3, 9}, {9}, {}, {7}, {0}, {11, 1}};

  @Test
  void aKeyedSingleInsertsNewGroupsAndUpdatesChangedOnes(BufferAllocator allocator) {
    Changelog out = new Changelog(8192);
    try (UpdatingAggregateOperator operator =
        single(allocator, new int[] {0}, List.of(COUNT_STAR, SUM_X, MAX_X), out)) {
      assertThat(operator.outputSchema().getFields())
          .extracting(Field::getName)
          .containsExactly("k", "n", "s", "m", "op");
      assertThat(operator.outputSchema().getFields().get(4)).isEqualTo(RowKind.FIELD);
      operator.add(0, kx(allocator, 1, 10, 2, 5, 1, 3));
      assertThat(out.step(operator)).containsExactly("+I[1, 2, 13, 10]", "+I[2, 1, 5, 5]");
      // Group 2 first, then 1, then the new group 3: old rows, new rows, inserts.
      operator.add(0, kx(allocator, 2, 1, 3, 7, 1, 4, 2, null));
      assertThat(out.step(operator))
          .containsExactly(
              "-U[2, 1, 5, 5]",
              "-U[1, 2, 13, 10]",
              "+U[2, 3, 6, 5]",
              "+U[1, 3, 17, 10]",
              "+I[3, 1, 7, 7]");
      operator.add(0, kx(allocator)); // no rows: no change
      operator.finish(0);
      assertThat(out.step(operator)).isEmpty();
    }
  }

  @Test
  void aGroupWhoseValuesStayEqualEmitsNothing(BufferAllocator allocator) {
    Changelog out = new Changelog(8192);
    try (UpdatingAggregateOperator operator =
        single(allocator, new int[] {0}, List.of(MAX_X), out)) {
      operator.add(0, kx(allocator, 1, 10, 2, 5));
      assertThat(out.step(operator)).containsExactly("+I[1, 10]", "+I[2, 5]");
      operator.add(0, kx(allocator, 1, 2, 2, 9, 1, null, 1, 10));
      assertThat(out.step(operator)).containsExactly("-U[2, 5]", "+U[2, 9]");
      operator.add(0, kx(allocator, 1, 3, 2, 1));
      assertThat(out.step(operator)).isEmpty();
    }
  }

  @Test
  void aGlobalAggregateInsertsItsRowWithTheFirstRowThenUpdatesIt(BufferAllocator allocator) {
    Changelog out = new Changelog(8192);
    try (UpdatingAggregateOperator operator =
        single(allocator, new int[0], List.of(COUNT_STAR, SUM_X, MAX_X), out)) {
      assertThat(operator.outputSchema().getFields())
          .extracting(Field::getName)
          .containsExactly("n", "s", "m", "op");
      operator.add(0, kx(allocator));
      assertThat(operator.idle()).isTrue();
      assertThat(out.step(operator)).as("no rows, no row").isEmpty();
      operator.add(0, kx(allocator, 1, 10, 2, null));
      assertThat(out.step(operator)).containsExactly("+I[2, 10, 10]");
      operator.add(0, kx(allocator, 7, 4));
      assertThat(out.step(operator)).containsExactly("-U[2, 10, 10]", "+U[3, 14, 10]");
      operator.finish(0);
      assertThat(out.step(operator)).isEmpty();
    }
    Changelog max = new Changelog(8192);
    try (UpdatingAggregateOperator operator = single(allocator, new int[0], List.of(MAX_X), max)) {
      operator.add(0, kx(allocator, 1, null));
      assertThat(max.step(operator)).containsExactly("+I[null]");
      operator.add(0, kx(allocator, 1, null));
      assertThat(max.step(operator)).isEmpty();
      operator.add(0, kx(allocator, 1, 3));
      assertThat(max.step(operator)).containsExactly("-U[null]", "+U[3]");
    }
  }

  /** The changelog applied in order is the hash aggregate of all input, for every key set. */
  @Test
  void theAppliedChangelogIsTheHashAggregateOfAllInput(BufferAllocator allocator) {
    long seed = 10;
    for (int[] keys : KEY_SETS) {
      for (int target : new int[] {7, 8192}) {
        List<AggregateCall> calls = seed % 3 == 0 ? EXTREMES : CALLS;
        Changelog out = new Changelog(target);
        int[] kinds = new int[4];
        try (UpdatingAggregateOperator operator =
            new UpdatingAggregateOperator(
                context(allocator, target), SCHEMA, AggregateMode.SINGLE, keys, calls, out)) {
          assertThat(operator.outputSchema())
              .isEqualTo(
                  UpdatingAggregateOperator.outputSchema(
                      SCHEMA, AggregateMode.SINGLE, keys, calls));
          out.schema = operator.outputSchema();
          for (VectorSchemaRoot batch : input(allocator, seed, keys)) {
            operator.add(0, batch);
            if (seed % 2 == 0) {
              operator.flush();
            }
          }
          operator.finish(0);
        }
        for (List<Object> row : out.rows) {
          kinds[(Byte) row.get(row.size() - 1)]++;
        }
        assertThat(kinds[RowKind.INSERT.code()]).isPositive();
        assertThat(kinds[RowKind.UPDATE_BEFORE.code()])
            .isPositive()
            .isEqualTo(kinds[RowKind.UPDATE_AFTER.code()]);
        assertThat(kinds[RowKind.DELETE.code()]).isZero();
        Map<List<Object>, List<Object>> expected =
            hashAggregate(allocator, keys, calls, input(allocator, seed, keys));
        AggregateTesting.assertResults(apply(out.rows, keys.length), expected, 0);
        seed++;
      }
    }
  }

  /** FINAL over the partial states a PARTIAL emits ends with SINGLE's result. */
  @Test
  void finalOfPartialStatesEndsWithSinglesResult(BufferAllocator allocator) {
    long seed = 40;
    for (int[] keys : KEY_SETS) {
      Schema states =
          HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, keys, CALLS);
      Changelog fin = new Changelog(100);
      int[] partialBatches = new int[1];
      try (UpdatingAggregateOperator last =
              new UpdatingAggregateOperator(
                  context(allocator, 100), states, AggregateMode.FINAL, keys, CALLS, fin);
          UpdatingAggregateOperator first =
              new UpdatingAggregateOperator(
                  context(allocator, 16),
                  SCHEMA,
                  AggregateMode.PARTIAL,
                  keys,
                  CALLS,
                  batch -> {
                    partialBatches[0]++;
                    assertThat(batch.getSchema()).isEqualTo(states);
                    assertThat(batch.getRowCount()).isBetween(1, 16);
                    last.add(0, batch);
                  })) {
        assertThat(first.outputSchema()).isEqualTo(states);
        assertThat(first.isStateful()).isFalse();
        assertThat(last.isStateful()).isTrue();
        List<VectorSchemaRoot> batches = input(allocator, seed, keys);
        for (int b = 0; b < batches.size(); b++) {
          first.add(0, batches.get(b));
          if (b % 3 == 0) {
            assertThat(first.idle()).isTrue();
          } else if (b % 3 == 1) {
            first.watermark(b);
          }
        }
        first.finish(0);
        last.finish(0);
      }
      assertThat(partialBatches[0]).isGreaterThan(5);
      Changelog single = new Changelog(8192);
      try (UpdatingAggregateOperator operator = single(allocator, keys, CALLS, single)) {
        input(allocator, seed, keys).forEach(batch -> operator.add(0, batch));
        operator.finish(0);
      }
      AggregateTesting.assertResults(
          apply(fin.rows, keys.length), apply(single.rows, keys.length), 1e-9);
      seed++;
    }
  }

  /**
   * PARTIAL emits at flush only what it folded since its last emission, at once when it holds the
   * target of groups, and when the budget refuses a batch (then FINAL still gets every row).
   */
  @Test
  void aPartialEmitsWhatItHoldsAndMakesRoomByEmitting(BufferAllocator allocator) {
    List<VectorSchemaRoot> got = new ArrayList<>();
    try (UpdatingAggregateOperator partial =
        new UpdatingAggregateOperator(
            context(allocator, 4),
            KX,
            AggregateMode.PARTIAL,
            new int[] {0},
            List.of(COUNT_STAR),
            got::add)) {
      partial.flush();
      partial.add(0, kx(allocator, 1, 1, 2, 2, 1, 3));
      assertThat(got).isEmpty();
      partial.watermark(5);
      partial.flush();
      assertThat(rows(got)).containsExactlyInAnyOrder("[1, 2]", "[2, 1]");
      partial.add(0, kx(allocator, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5));
      assertThat(rows(got)).as("5 groups, target 4").hasSize(5);
      assertThatThrownBy(partial::snapshotState).isInstanceOf(UnsupportedOperationException.class);
    }
    MemoryBudget budget = new MemoryBudget("small task", 200 * 1024);
    OperatorContext context = new OperatorContext(allocator, budget, 1 << 20);
    long[] rows = new long[2];
    try (UpdatingAggregateOperator partial =
        new UpdatingAggregateOperator(
            context,
            SCHEMA,
            AggregateMode.PARTIAL,
            new int[] {9},
            List.of(COUNT_STAR),
            b -> {
              try (b) {
                rows[0]++;
                BigIntVector counts = (BigIntVector) b.getVector(1);
                for (int i = 0; i < b.getRowCount(); i++) {
                  rows[1] += counts.get(i);
                }
              }
            })) {
      for (VectorSchemaRoot batch :
          HashAggregateOperatorTest.batches(allocator, 3, new int[] {9}, 10, 2000, 0, 1 << 30)) {
        partial.add(0, batch);
      }
      assertThat(rows[0]).as("early emissions").isGreaterThan(1);
      partial.finish(0);
    }
    assertThat(rows[1]).isEqualTo(20_000);
    assertThat(budget.used()).isZero();
  }

  @Test
  void aBudgetTooSmallForTheGroupsFailsNamingTheOperator(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("tiny task", 256 * 1024);
    OperatorContext context = new OperatorContext(allocator, budget, 8192);
    try (UpdatingAggregateOperator operator =
        new UpdatingAggregateOperator(
            context, SCHEMA, AggregateMode.SINGLE, new int[] {9, 4}, CALLS, b -> b.close())) {
      assertThatThrownBy(
              () -> {
                for (int b = 0; b < 20; b++) {
                  operator.add(
                      0,
                      HashAggregateOperatorTest.batches(
                              allocator, 4 + b, new int[] {9, 4}, 1, 2000, 0, 1 << 30)
                          .get(0));
                }
              })
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("UpdatingAggregate[mode=SINGLE, keys=[#9, #4]")
          .hasMessageContaining("keeps every group in memory and cannot spill")
          .hasMessageContaining("tiny task");
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void refusesCallsWithoutPartialStateAndDescribesItself(BufferAllocator allocator) {
    AggregateCall distinct =
        new AggregateCall(AggregateFunction.COUNT_DISTINCT, 1, BIGINT, true, "d");
    AggregateCall median = AggregateCall.of(MEDIAN, 1, BIGINT, "med");
    for (AggregateCall call : List.of(distinct, median)) {
      for (AggregateMode mode : AggregateMode.values()) {
        assertThatThrownBy(
                () ->
                    new UpdatingAggregateOperator(
                        context(allocator, 8192),
                        KX,
                        mode,
                        new int[] {0},
                        List.of(COUNT_STAR, call),
                        b -> b.close()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(call.toString())
            .hasMessageContaining("no partial state");
      }
    }
    try (UpdatingAggregateOperator operator =
        single(allocator, new int[] {0}, List.of(COUNT_STAR, SUM_X), b -> b.close())) {
      assertThat(operator)
          .hasToString("UpdatingAggregate[mode=SINGLE, keys=[#0], aggs=[count(*), sum(#1)]]");
      operator.close();
      operator.close();
      assertThatThrownBy(() -> operator.add(0, kx(allocator, 1, 1)))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  static UpdatingAggregateOperator single(
      BufferAllocator allocator, int[] keys, List<AggregateCall> calls, BatchSink sink) {
    Schema input = calls.stream().anyMatch(c -> c.argument() > 1) ? SCHEMA : KX;
    return new UpdatingAggregateOperator(
        context(allocator, 8192), input, AggregateMode.SINGLE, keys, calls, sink);
  }

  /** The result of a SINGLE hash aggregate over {@code batches} (closed): group key → values. */
  static Map<List<Object>, List<Object>> hashAggregate(
      BufferAllocator allocator,
      int[] keys,
      List<AggregateCall> calls,
      List<VectorSchemaRoot> batches) {
    return AggregateTesting.results(
        AggregateTesting.run(allocator, SCHEMA, AggregateMode.SINGLE, keys, calls, batches, 8192),
        keys.length);
  }

  static OperatorContext context(BufferAllocator allocator, int target) {
    return new OperatorContext(allocator, MemoryBudget.unlimited("updating test"), target);
  }

  /** Twelve random batches with NULL keys and values, keys repeating across batches. */
  static List<VectorSchemaRoot> input(BufferAllocator allocator, long seed, int[] keys) {
    return HashAggregateOperatorTest.batches(allocator, seed, keys, 12, -400, 0.1, 25);
  }

  /** A batch of {@link #KX} from (k, x) pairs. */
  static VectorSchemaRoot kx(BufferAllocator allocator, Integer... pairs) {
    VectorSchemaRoot batch = VectorSchemaRoot.create(KX, allocator);
    int rows = pairs.length / 2;
    for (int c = 0; c < 2; c++) {
      BigIntVector vector = (BigIntVector) batch.getVector(c);
      vector.allocateNew(rows);
      for (int r = 0; r < rows; r++) {
        if (pairs[2 * r + c] != null) {
          vector.set(r, pairs[2 * r + c]);
        }
      }
      vector.setValueCount(rows);
    }
    batch.setRowCount(rows);
    return batch;
  }

  /** The rows of {@code batches} (closed) as strings. */
  static List<String> rows(List<VectorSchemaRoot> batches) {
    List<String> rows = new ArrayList<>();
    for (VectorSchemaRoot batch : batches) {
      try (batch) {
        BatchRows.rows(batch).forEach(row -> rows.add(row.toString()));
      }
    }
    batches.clear();
    return rows;
  }

  /**
   * Applies a changelog in order as a multiset of rows (+I, +U add theirs, -U, -D remove theirs,
   * which must be there) and returns the result, group key → values, each group once.
   */
  static Map<List<Object>, List<Object>> apply(List<List<Object>> changelog, int keyCount) {
    Map<List<Object>, Integer> present = new HashMap<>();
    for (List<Object> row : changelog) {
      RowKind kind = RowKind.ofCode((Byte) row.get(row.size() - 1));
      List<Object> values = row.subList(0, row.size() - 1);
      if (kind.adds()) {
        present.merge(values, 1, Integer::sum);
      } else {
        assertThat(present).as("%s retracts a row the result has", row).containsKey(values);
        present.computeIfPresent(values, (r, n) -> n == 1 ? null : n - 1);
      }
    }
    Map<List<Object>, List<Object>> result = new HashMap<>();
    present.forEach(
        (row, n) -> {
          assertThat(n).as("%s is in the result once", row).isOne();
          List<Object> key = row.subList(0, keyCount);
          assertThat(result.put(key, row.subList(keyCount, row.size())))
              .as("group %s has one row", key)
              .isNull();
        });
    return result;
  }

  /**
   * An updating aggregate's output, op last: every row, and the rows of each step as strings like
   * {@code +U[1, 2]}. Checks the batch sizes and, once set, the schema.
   */
  static final class Changelog implements BatchSink {
    final int target;
    final List<List<Object>> rows = new ArrayList<>();
    Schema schema;
    private int stepStart;

    Changelog(int target) {
      this.target = target;
    }

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        assertThat(batch.getRowCount()).isBetween(1, target);
        if (schema != null) {
          assertThat(batch.getSchema()).isEqualTo(schema);
        }
        rows.addAll(BatchRows.rows(batch));
      }
    }

    /** Flushes {@code operator} and returns the rows since the last step. */
    List<String> step(UpdatingAggregateOperator operator) {
      operator.flush();
      List<String> step = new ArrayList<>();
      for (List<Object> row : rows.subList(stepStart, rows.size())) {
        step.add(
            RowKind.ofCode((Byte) row.get(row.size() - 1)).symbol()
                + row.subList(0, row.size() - 1));
      }
      stepStart = rows.size();
      return step;
    }
  }
}
