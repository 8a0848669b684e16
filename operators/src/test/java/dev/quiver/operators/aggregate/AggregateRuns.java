package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static dev.quiver.operators.aggregate.SpillingAggregateTest.TARGET_ROWS;
import static dev.quiver.operators.aggregate.SpillingAggregateTest.input;
import static dev.quiver.operators.aggregate.SpillingAggregateTest.runSpilling;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The same aggregate over the same input ({@link SpillingAggregateTest#input}: three splits of
 * random rows of every type) run every way a plan can run it: SINGLE in memory, PARTIAL per split
 * then FINAL, and SINGLE and FINAL spilling under a tiny budget.
 */
final class AggregateRuns {
  private AggregateRuns() {}

  static Map<List<Object>, List<Object>> single(
      BufferAllocator allocator, long seed, int[] keys, List<AggregateCall> calls) {
    return results(
        run(
            allocator,
            SCHEMA,
            AggregateMode.SINGLE,
            keys,
            calls,
            input(allocator, seed, keys, -1),
            TARGET_ROWS),
        keys.length);
  }

  /** SINGLE spilling within {@code budgetBytes}. */
  static Map<List<Object>, List<Object>> spilledSingle(
      BufferAllocator allocator,
      long seed,
      int[] keys,
      List<AggregateCall> calls,
      long budgetBytes) {
    MemorySpillSpace space = new MemorySpillSpace();
    MemoryBudget budget = new MemoryBudget("spilling single", budgetBytes);
    OperatorContext context = new OperatorContext(allocator, budget, TARGET_ROWS, space);
    Map<List<Object>, List<Object>> result =
        results(
            runSpilling(
                context,
                SCHEMA,
                AggregateMode.SINGLE,
                keys,
                calls,
                input(allocator, seed, keys, -1),
                true),
            keys.length);
    assertThat(space.spilledFiles()).isPositive();
    assertThat(space.liveFiles()).isZero();
    assertThat(budget.used()).isZero();
    return result;
  }

  /** PARTIAL over each split, then FINAL over their states; spilling within the budget if > 0. */
  static Map<List<Object>, List<Object>> partialFinal(
      BufferAllocator allocator,
      long seed,
      int[] keys,
      List<AggregateCall> calls,
      long budgetBytes) {
    List<VectorSchemaRoot> partials = new ArrayList<>();
    try {
      for (int split = 0; split < 3; split++) {
        partials.addAll(
            run(
                allocator,
                SCHEMA,
                AggregateMode.PARTIAL,
                keys,
                calls,
                input(allocator, seed, keys, split),
                TARGET_ROWS));
      }
    } catch (RuntimeException | Error e) {
      partials.forEach(VectorSchemaRoot::close);
      throw e;
    }
    Schema states = HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, keys, calls);
    if (budgetBytes <= 0) {
      return results(
          run(allocator, states, AggregateMode.FINAL, keys, calls, partials, TARGET_ROWS),
          keys.length);
    }
    MemorySpillSpace space = new MemorySpillSpace();
    MemoryBudget budget = new MemoryBudget("spilling final", budgetBytes);
    OperatorContext context = new OperatorContext(allocator, budget, TARGET_ROWS, space);
    Map<List<Object>, List<Object>> result =
        results(
            runSpilling(context, states, AggregateMode.FINAL, keys, calls, partials, true),
            keys.length);
    assertThat(space.spilledFiles()).isPositive();
    assertThat(space.liveFiles()).isZero();
    assertThat(budget.used()).isZero();
    return result;
  }

  /** The rows of the whole input, read before they are closed. */
  static List<List<Object>> inputRows(BufferAllocator allocator, long seed, int[] keys) {
    List<VectorSchemaRoot> batches = input(allocator, seed, keys, -1);
    try {
      return AggregateTesting.rows(batches);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }
}
