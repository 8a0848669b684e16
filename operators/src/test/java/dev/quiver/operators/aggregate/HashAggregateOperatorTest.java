package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.assertResults;
import static dev.quiver.operators.aggregate.AggregateTesting.call;
import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.rows;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static dev.quiver.operators.aggregate.AggregateTesting.zip;
import static dev.quiver.plan.aggregate.AggregateFunction.AVG;
import static dev.quiver.plan.aggregate.AggregateFunction.COUNT;
import static dev.quiver.plan.aggregate.AggregateFunction.COUNT_DISTINCT;
import static dev.quiver.plan.aggregate.AggregateFunction.MAX;
import static dev.quiver.plan.aggregate.AggregateFunction.MIN;
import static dev.quiver.plan.aggregate.AggregateFunction.STDDEV_POP;
import static dev.quiver.plan.aggregate.AggregateFunction.STDDEV_SAMP;
import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateFunction.VAR_POP;
import static dev.quiver.plan.aggregate.AggregateFunction.VAR_SAMP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** SINGLE mode against the row-at-a-time reference on randomized inputs with fixed seeds. */
@ExtendWith(ArrowLeakCheck.class)
class HashAggregateOperatorTest {
  /** Every function over every type it takes, on values that cannot overflow. */
  static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.countStar("n"),
          call(COUNT, 9),
          call(SUM, 1),
          call(SUM, 3),
          call(SUM, 5),
          call(SUM, 6),
          call(SUM, 7),
          call(AVG, 2),
          call(AVG, 3),
          call(AVG, 6),
          call(AVG, 7),
          call(MIN, 0),
          call(MAX, 0),
          call(MIN, 1),
          call(MAX, 4),
          call(MIN, 5),
          call(MAX, 6),
          call(MIN, 7),
          call(MAX, 8),
          call(MIN, 9),
          call(MAX, 9),
          call(MIN, 10),
          call(MAX, 11),
          call(VAR_SAMP, 1),
          call(VAR_POP, 3),
          call(STDDEV_SAMP, 4),
          call(STDDEV_POP, 5),
          call(STDDEV_SAMP, 6),
          call(VAR_SAMP, 7),
          call(STDDEV_POP, 8),
          call(STDDEV_SAMP, 2).withFilter(0),
          call(SUM, 3).withFilter(0),
          call(AVG, 7).withFilter(0),
          call(MIN, 9).withFilter(0),
          call(MAX, 10).withFilter(0),
          call(VAR_POP, 6).withFilter(0));

  static final int[][] KEY_SETS = {{}, {3}, {9}, {0, 1}, {7, 9, 10}, {5, 6}, {8, 11, 2}, {4}};

  @Test
  void matchesReferenceForEveryKeyTypeAndBatchShape(BufferAllocator allocator) {
    int[][] shapes = {{300, 1}, {2, 65_536}, {10, -5000}}; // batches, rows (negative: random)
    long seed = 1;
    for (int[] keys : KEY_SETS) {
      for (int[] shape : shapes) {
        List<VectorSchemaRoot> batches =
            batches(allocator, seed++, keys, shape[0], shape[1], 0.1, 12);
        check(allocator, keys, CALLS, batches, 8192);
      }
    }
  }

  /**
   * Few groups without NULL keys come from the small-key cache once it learned them; rare NULLs
   * send single batches to the table; more than its 256 groups turn it off mid-stream.
   */
  @Test
  void fewGroupsThroughTheSmallKeyCache(BufferAllocator allocator) {
    long seed = 500;
    for (int[] keys : KEY_SETS) {
      for (int distinct : new int[] {1, 4, 200, 1000}) {
        for (double nulls : new double[] {0, 0.0005}) {
          List<VectorSchemaRoot> batches =
              batches(allocator, seed++, keys, 12, -3000, nulls, distinct);
          check(allocator, keys, CALLS, batches, 8192);
        }
      }
    }
  }

  @Test
  void nullKeysFormOneGroupAndAllNullInputsGiveNulls(BufferAllocator allocator) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      VectorSchemaRoot keys = new RandomBatches(i).nullFraction(1).batch(SCHEMA, 1000, allocator);
      VectorSchemaRoot values = new RandomBatches(i + 100).batch(SCHEMA, 1000, allocator);
      batches.add(zip(keys, values, new int[] {3, 9}, allocator));
    }
    Map<List<Object>, List<Object>> result =
        check(allocator, new int[] {3, 9}, CALLS, batches, 8192);
    assertThat(result).hasSize(1).containsKey(Arrays.asList(null, null));
    // Everything NULL: counts 0, the other aggregates NULL.
    List<VectorSchemaRoot> allNull = new ArrayList<>();
    allNull.add(new RandomBatches(7).nullFraction(1).batch(SCHEMA, 500, allocator));
    Map<List<Object>, List<Object>> nulls = check(allocator, new int[] {4}, CALLS, allNull, 8192);
    List<Object> values = nulls.values().iterator().next();
    assertThat(values.get(0)).isEqualTo(500L);
    assertThat(values.get(1)).isEqualTo(0L);
    assertThat(values.subList(2, values.size())).containsOnlyNulls();
  }

  @Test
  void globalAggregateOfEmptyInputIsOneRow(BufferAllocator allocator) {
    List<VectorSchemaRoot> empty = new ArrayList<>();
    empty.add(new RandomBatches(3).batch(SCHEMA, 0, allocator));
    Map<List<Object>, List<Object>> result = check(allocator, new int[0], CALLS, empty, 8192);
    List<Object> values = result.get(List.of());
    assertThat(values.subList(0, 2)).containsExactly(0L, 0L);
    assertThat(values.subList(2, values.size())).containsOnlyNulls();
    // With group keys, an empty input has no groups and no output.
    assertThat(
            run(
                allocator,
                SCHEMA,
                AggregateMode.SINGLE,
                new int[] {3},
                CALLS,
                new ArrayList<>(),
                10))
        .isEmpty();
  }

  @Test
  void skewedKeysWithOneKeyInNinetyPercentOfRows(BufferAllocator allocator) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    Random random = new Random(5);
    for (int b = 0; b < 6; b++) {
      VectorSchemaRoot batch = new RandomBatches(b).batch(SCHEMA, 10_000, allocator);
      IntVector key = (IntVector) batch.getVector(3);
      for (int i = 0; i < 10_000; i++) {
        if (random.nextDouble() < 0.9) {
          key.set(i, 42);
        }
      }
      batches.add(batch);
    }
    Map<List<Object>, List<Object>> result = check(allocator, new int[] {3}, CALLS, batches, 8192);
    assertThat(result.get(List.of(42)).get(0))
        .asInstanceOf(InstanceOfAssertFactories.LONG)
        .isGreaterThan(50_000L);
  }

  @Test
  void hundredThousandGroupsGrowTheTable(BufferAllocator allocator) {
    List<VectorSchemaRoot> batches =
        batches(allocator, 77, new int[] {4}, 8, 30_000, 0.05, 100_000);
    Map<List<Object>, List<Object>> result = check(allocator, new int[] {4}, CALLS, batches, 8192);
    assertThat(result.size()).isGreaterThan(80_000);
  }

  @Test
  void outputBatchesHoldAtMostTargetRows(BufferAllocator allocator) {
    List<VectorSchemaRoot> batches = batches(allocator, 9, new int[] {3}, 3, 4000, 0, 5000);
    List<AggregateCall> calls = List.of(AggregateCall.countStar("n"), call(SUM, 7));
    List<VectorSchemaRoot> outputs =
        run(allocator, SCHEMA, AggregateMode.SINGLE, new int[] {3}, calls, batches, 1000);
    assertThat(outputs)
        .hasSizeGreaterThan(3)
        .allSatisfy(o -> assertThat(o.getRowCount()).isLessThanOrEqualTo(1000));
    assertThat(outputs.stream().mapToInt(VectorSchemaRoot::getRowCount).sum())
        .isEqualTo(results(outputs, 1).size());
  }

  @Test
  void countDistinctAndSumDistinctInSingleMode(BufferAllocator allocator) {
    List<AggregateCall> calls =
        List.of(
            call(COUNT_DISTINCT, 9),
            call(COUNT_DISTINCT, 6),
            new AggregateCall(SUM, 3, SCHEMA.getFields().get(3).getType(), true, "sd"),
            new AggregateCall(AVG, 7, SCHEMA.getFields().get(7).getType(), true, "ad"),
            AggregateCall.countStar("n"),
            // FILTER before DISTINCT: pairs of rows the filter skips are never seen.
            AggregateCall.countStar("nf").withFilter(0),
            call(COUNT_DISTINCT, 9).withFilter(0),
            call(COUNT, 6).withFilter(0));
    for (int[] keys : new int[][] {{}, {1}, {0, 10}}) {
      // Few distinct values everywhere, so that DISTINCT matters.
      RandomBatches random = new RandomBatches(keys.length).distinctValues(8);
      List<VectorSchemaRoot> batches = new ArrayList<>();
      for (int b = 0; b < 5; b++) {
        batches.add(random.batch(SCHEMA, 3000, allocator));
      }
      check(allocator, keys, calls, batches, 8192);
    }
  }

  @Test
  void oneLineDescription(BufferAllocator allocator) {
    List<AggregateCall> calls =
        List.of(call(SUM, 4), AggregateCall.countStar("n"), call(COUNT_DISTINCT, 2));
    try (HashAggregateOperator operator =
        new HashAggregateOperator(
            OperatorContext.of(allocator),
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {0, 1},
            calls,
            VectorSchemaRoot::close)) {
      assertThat(operator)
          .hasToString(
              "HashAggregate[mode=SINGLE, keys=[#0, #1], aggs=[sum(#4), count(*), count(DISTINCT #2)]]");
    }
  }

  /**
   * Random batches with the key columns drawn from {@code distinctKeys} values and the others over
   * their full range. {@code rows < 0}: random sizes up to {@code -rows}.
   */
  static List<VectorSchemaRoot> batches(
      BufferAllocator allocator,
      long seed,
      int[] keys,
      int count,
      int rows,
      double nulls,
      int distinctKeys) {
    RandomBatches keyGenerator =
        new RandomBatches(seed).nullFraction(nulls).distinctValues(distinctKeys);
    RandomBatches valueGenerator = new RandomBatches(seed + 1000).nullFraction(nulls);
    Random sizes = new Random(seed);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = 0; b < count; b++) {
      int n = rows < 0 ? 1 + sizes.nextInt(-rows) : rows;
      batches.add(
          zip(
              keyGenerator.batch(SCHEMA, n, allocator),
              valueGenerator.batch(SCHEMA, n, allocator),
              keys,
              allocator));
    }
    return batches;
  }

  /** SINGLE over {@code batches} equals the reference; returns the results. */
  static Map<List<Object>, List<Object>> check(
      BufferAllocator allocator,
      int[] keys,
      List<AggregateCall> calls,
      List<VectorSchemaRoot> batches,
      int targetRows) {
    AggregateReference reference = new AggregateReference(keys, calls);
    reference.add(rows(batches));
    Map<List<Object>, List<Object>> expected = reference.results();
    Map<List<Object>, List<Object>> actual =
        results(
            run(allocator, SCHEMA, AggregateMode.SINGLE, keys, calls, batches, targetRows),
            keys.length);
    assertResults(actual, expected, 0);
    return actual;
  }
}
