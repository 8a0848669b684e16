package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.assertResults;
import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static dev.quiver.operators.aggregate.HashAggregateOperatorTest.CALLS;
import static dev.quiver.operators.aggregate.HashAggregateOperatorTest.batches;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PARTIAL over independent input splits, then FINAL over the concatenated partial outputs, equals
 * SINGLE over all the input: exactly, float sums aside (their addition order differs).
 */
@ExtendWith(ArrowLeakCheck.class)
class HashAggregatePartialFinalTest {
  @Test
  void finalOfPartialsEqualsSingle(BufferAllocator allocator) {
    for (int[] keys : HashAggregateOperatorTest.KEY_SETS) {
      Map<List<Object>, List<Object>> single =
          results(
              run(
                  allocator,
                  SCHEMA,
                  AggregateMode.SINGLE,
                  keys,
                  CALLS,
                  splits(allocator, keys, -1),
                  8192),
              keys.length);
      Map<List<Object>, List<Object>> twoPhase = twoPhase(allocator, keys, CALLS, 4);
      assertResults(twoPhase, single, 1e-9);
    }
  }

  @Test
  void partialStatesHaveTheDocumentedSchema(BufferAllocator allocator) {
    List<AggregateCall> calls = CALLS.subList(0, 11);
    Schema partial =
        HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, new int[] {9, 3}, calls);
    List<String> names = new ArrayList<>();
    partial.getFields().forEach(f -> names.add(f.getName()));
    assertThat(names)
        .startsWith("utf8", "i32", "n$count", "count_9$count", "sum_1$sum")
        .contains("avg_7$sum", "avg_7$count");
    Schema fin =
        HashAggregateOperator.outputSchema(partial, AggregateMode.FINAL, new int[] {9, 3}, calls);
    assertThat(fin)
        .isEqualTo(
            HashAggregateOperator.outputSchema(
                SCHEMA, AggregateMode.SINGLE, new int[] {9, 3}, calls));
  }

  /** Runs PARTIAL over each split and FINAL over all partial outputs. */
  static Map<List<Object>, List<Object>> twoPhase(
      BufferAllocator allocator, int[] keys, List<AggregateCall> calls, int splitCount) {
    Schema partialSchema =
        HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, keys, calls);
    List<VectorSchemaRoot> partials = new ArrayList<>();
    try {
      for (int split = 0; split < splitCount; split++) {
        partials.addAll(
            run(
                allocator,
                SCHEMA,
                AggregateMode.PARTIAL,
                keys,
                calls,
                splits(allocator, keys, split),
                100));
      }
    } catch (RuntimeException | Error e) {
      partials.forEach(VectorSchemaRoot::close);
      throw e;
    }
    return results(
        run(allocator, partialSchema, AggregateMode.FINAL, keys, calls, partials, 8192),
        keys.length);
  }

  /** The batches of split {@code split} (0..3; split 3 is empty), or of all splits for -1. */
  static List<VectorSchemaRoot> splits(BufferAllocator allocator, int[] keys, int split) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      if (split == -1 || split == s) {
        batches.addAll(batches(allocator, 40 + s, keys, 3 + s, -3000, 0.1, 30));
      }
    }
    return batches;
  }
}
