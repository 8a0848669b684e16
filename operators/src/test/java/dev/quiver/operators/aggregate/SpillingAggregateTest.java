package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.assertResults;
import static dev.quiver.operators.aggregate.AggregateTesting.call;
import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.rows;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static dev.quiver.operators.aggregate.HashAggregateOperatorTest.CALLS;
import static dev.quiver.operators.aggregate.HashAggregateOperatorTest.batches;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every mode with a tiny budget and a spill space against the same aggregate in memory and the
 * row-at-a-time reference: the same groups and values (float sums to 1e-9: their addition order
 * differs), full output batches, and nothing left behind (budget, files, readers, Arrow memory).
 */
@ExtendWith(ArrowLeakCheck.class)
class SpillingAggregateTest {
  static final long KB = 1024;
  static final int TARGET_ROWS = 700;

  /** Ints, strings, decimals, dates, several keys of mixed types; 10% NULL keys everywhere. */
  static final int[][] KEY_SETS = {{3}, {9}, {7}, {10}, {0, 1}, {7, 9, 10}, {8, 11, 2}};

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (AggregateMode mode : AggregateMode.values()) {
      for (int[] keys : KEY_SETS) {
        cases.add(Arguments.of(mode, keys));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} keys={1}")
  @MethodSource("cases")
  void spilledEqualsInMemoryAndReference(
      AggregateMode mode, int[] keys, BufferAllocator allocator) {
    long seed = 600 + Arrays.hashCode(keys);
    AggregateReference reference = new AggregateReference(keys, CALLS);
    List<VectorSchemaRoot> referenceInput = input(allocator, seed, keys, -1);
    reference.add(rows(referenceInput));
    referenceInput.forEach(VectorSchemaRoot::close);
    Map<List<Object>, List<Object>> expected = reference.results();
    assertThat(expected.keySet()).as("NULL keys").anyMatch(key -> key.contains(null));

    MemoryBudget budget = new MemoryBudget("spilling " + mode, 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = new OperatorContext(allocator, budget, TARGET_ROWS, space);
    Map<List<Object>, List<Object>> spilled;
    Map<List<Object>, List<Object>> inMemory;
    if (mode == AggregateMode.PARTIAL) {
      // Partials that emitted early, then an ordinary FINAL merging their duplicates.
      spilled = finalOf(allocator, keys, partials(allocator, context, seed, keys));
      inMemory = finalOf(allocator, keys, partials(allocator, null, seed, keys));
      assertThat(space.spilledFiles()).as("PARTIAL needs no disk").isZero();
    } else {
      boolean single = mode == AggregateMode.SINGLE;
      Schema input =
          single
              ? SCHEMA
              : HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, keys, CALLS);
      List<VectorSchemaRoot> batches =
          single ? input(allocator, seed, keys, -1) : partials(allocator, null, seed, keys);
      List<VectorSchemaRoot> again =
          single ? input(allocator, seed, keys, -1) : partials(allocator, null, seed, keys);
      spilled = results(runSpilling(context, input, mode, keys, CALLS, batches, true), keys.length);
      inMemory = results(run(allocator, input, mode, keys, CALLS, again, TARGET_ROWS), keys.length);
      assertThat(space.spilledFiles()).isPositive();
      assertThat(space.spilledRows()).isPositive();
      assertThat(space.spilledBytes()).isPositive();
    }
    assertThat(budget.used()).as("everything released").isZero();
    assertThat(space.liveFiles()).as("every spill file deleted").isZero();
    assertThat(space.openReaders()).isZero();
    assertResults(spilled, expected, 1e-9);
    assertResults(spilled, inMemory, 1e-9);
  }

  /** COUNT, SUM and AVG DISTINCT spill their (keys, value) pairs and filter them again. */
  @Test
  void distinctCallsSpillTheirPairs(BufferAllocator allocator) {
    List<AggregateCall> calls =
        List.of(
            call(AggregateFunction.COUNT_DISTINCT, 9),
            call(AggregateFunction.COUNT_DISTINCT, 6),
            new AggregateCall(
                AggregateFunction.SUM, 3, SCHEMA.getFields().get(3).getType(), true, "sd"),
            new AggregateCall(
                AggregateFunction.AVG, 7, SCHEMA.getFields().get(7).getType(), true, "ad"),
            AggregateCall.countStar("n"),
            call(AggregateFunction.MAX, 9),
            // FILTER before DISTINCT: the spilled pairs are the filtered ones.
            call(AggregateFunction.COUNT_DISTINCT, 9).withFilter(0));
    for (int[] keys : new int[][] {{1}, {0, 10}, {9}}) {
      List<VectorSchemaRoot> batches = new ArrayList<>();
      RandomBatches keyValues = new RandomBatches(keys.length + 70).distinctValues(300);
      RandomBatches values = new RandomBatches(keys.length + 80).distinctValues(40);
      for (int b = 0; b < 6; b++) {
        batches.add(
            AggregateTesting.zip(
                keyValues.batch(SCHEMA, 2000, allocator),
                values.batch(SCHEMA, 2000, allocator),
                keys,
                allocator));
      }
      AggregateReference reference = new AggregateReference(keys, calls);
      reference.add(rows(batches));
      // Each DISTINCT call has a pair table of its own (12 KB empty): a larger budget.
      MemoryBudget budget = new MemoryBudget("distinct", 160 * KB);
      MemorySpillSpace space = new MemorySpillSpace();
      OperatorContext context = new OperatorContext(allocator, budget, TARGET_ROWS, space);
      Map<List<Object>, List<Object>> actual =
          results(
              runSpilling(context, SCHEMA, AggregateMode.SINGLE, keys, calls, batches, true),
              keys.length);
      assertResults(actual, reference.results(), 0);
      assertThat(space.spilledFiles()).isGreaterThan(SpillingGroups.PARTITIONS);
      assertThat(budget.used()).isZero();
      assertThat(space.liveFiles()).isZero();
    }
  }

  /** Partitions too large to merge split again on the next bits of the hash. */
  @Test
  void partitionsThatDoNotFitSplitAgain(BufferAllocator allocator) {
    int[] keys = {4};
    List<AggregateCall> calls =
        List.of(
            AggregateCall.countStar("n"),
            call(AggregateFunction.SUM, 7),
            call(AggregateFunction.AVG, 7),
            call(AggregateFunction.MIN, 9));
    List<VectorSchemaRoot> batches = batches(allocator, 91, keys, 8, 10_000, 0.05, 200_000);
    AggregateReference reference = new AggregateReference(keys, calls);
    reference.add(rows(batches));
    MemoryBudget budget = new MemoryBudget("split", 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = new OperatorContext(allocator, budget, 4096, space);
    Map<List<Object>, List<Object>> actual =
        results(runSpilling(context, SCHEMA, AggregateMode.SINGLE, keys, calls, batches, true), 1);
    assertResults(actual, reference.results(), 0);
    assertThat(actual.size()).isGreaterThan(50_000);
    // Level 0 has at most one states file per partition: more files mean deeper levels.
    assertThat(space.spilledFiles()).isGreaterThan(SpillingGroups.PARTITIONS);
    assertThat(budget.used()).isZero();
    assertThat(space.liveFiles()).isZero();
  }

  /** The batches of the test input, or of input split {@code split} (0..2). */
  static List<VectorSchemaRoot> input(BufferAllocator allocator, long seed, int[] keys, int split) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      if (split == -1 || split == s) {
        batches.addAll(batches(allocator, seed + s, keys, 2, 1500, 0.1, 2500));
      }
    }
    return batches;
  }

  /** PARTIAL outputs of the three input splits; spilling in {@code context} unless it is null. */
  private static List<VectorSchemaRoot> partials(
      BufferAllocator allocator, OperatorContext context, long seed, int[] keys) {
    List<VectorSchemaRoot> partials = new ArrayList<>();
    try {
      for (int split = 0; split < 3; split++) {
        List<VectorSchemaRoot> batches = input(allocator, seed, keys, split);
        partials.addAll(
            context == null
                ? run(allocator, SCHEMA, AggregateMode.PARTIAL, keys, CALLS, batches, TARGET_ROWS)
                : runSpilling(context, SCHEMA, AggregateMode.PARTIAL, keys, CALLS, batches, false));
      }
    } catch (RuntimeException | Error e) {
      partials.forEach(VectorSchemaRoot::close);
      throw e;
    }
    return partials;
  }

  private static Map<List<Object>, List<Object>> finalOf(
      BufferAllocator allocator, int[] keys, List<VectorSchemaRoot> partials) {
    Schema schema = HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, keys, CALLS);
    return results(
        run(allocator, schema, AggregateMode.FINAL, keys, CALLS, partials, TARGET_ROWS),
        keys.length);
  }

  /**
   * Runs an aggregate in {@code context} (taking the batches), checks that it spilled and released
   * everything, and returns its output batches; with {@code full}, every output batch but the last
   * holds exactly the target rows.
   */
  static List<VectorSchemaRoot> runSpilling(
      OperatorContext context,
      Schema input,
      AggregateMode mode,
      int[] keys,
      List<AggregateCall> calls,
      List<VectorSchemaRoot> batches,
      boolean full) {
    List<VectorSchemaRoot> outputs = new ArrayList<>();
    try (HashAggregateOperator operator =
        new HashAggregateOperator(context, input, mode, keys, calls, outputs::add)) {
      int fed = 0;
      try {
        for (VectorSchemaRoot batch : batches) {
          fed++;
          operator.add(0, batch);
        }
        assertThat(operator.spills()).as("spills").isPositive();
        operator.finish(0);
      } finally {
        batches.subList(fed, batches.size()).forEach(VectorSchemaRoot::close);
      }
      assertThat(context.budget().used()).isZero();
      int target = context.targetBatchRows();
      for (int i = 0; i < outputs.size(); i++) {
        int rows = outputs.get(i).getRowCount();
        assertThat(rows).isBetween(1, target);
        if (full && i < outputs.size() - 1) {
          assertThat(rows).as("batch %d of %d", i, outputs.size()).isEqualTo(target);
        }
        assertThat(outputs.get(i).getSchema()).isEqualTo(operator.outputSchema());
      }
    } catch (RuntimeException | Error e) {
      outputs.forEach(VectorSchemaRoot::close);
      throw e;
    }
    return outputs;
  }
}
