package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.call;
import static dev.quiver.operators.aggregate.HashAggregateOperatorTest.CALLS;
import static dev.quiver.operators.aggregate.HashAggregateOperatorTest.batches;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.FailingSink;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A spilling aggregate that fails or is closed early leaves no spill file, open reader, budget or
 * Arrow memory; what cannot spill fails with a clear MEMORY_BUDGET_EXCEEDED.
 */
@ExtendWith(ArrowLeakCheck.class)
class SpillingAggregateFailureTest {
  private static final long KB = 1024;
  private static final int[] KEYS = {9, 3};

  @Test
  void sinkFailingMidMergeLeavesNothing(BufferAllocator allocator) {
    for (AggregateMode mode : new AggregateMode[] {AggregateMode.SINGLE, AggregateMode.PARTIAL}) {
      MemoryBudget budget = new MemoryBudget("sink fails", 64 * KB);
      MemorySpillSpace space = new MemorySpillSpace();
      FailingSink sink = new FailingSink(2);
      try (HashAggregateOperator operator =
          new HashAggregateOperator(
              new OperatorContext(allocator, budget, 200, space),
              SCHEMA,
              mode,
              KEYS,
              CALLS,
              sink)) {
        List<VectorSchemaRoot> batches = batches(allocator, 31, KEYS, 6, 1000, 0.1, 3000);
        assertThatThrownBy(
                () -> {
                  feed(operator, batches); // PARTIAL emits (and fails) here already
                  assertThat(space.liveFiles()).isPositive();
                  operator.finish(0);
                })
            .hasMessageContaining("sink fails");
        assertThat(sink.accepted()).isEqualTo(2);
      }
      assertThat(space.liveFiles()).as("%s", mode).isZero();
      assertThat(space.openReaders()).isZero();
      assertThat(budget.used()).isZero();
    }
  }

  @Test
  void fullDiskWhileSpillingLeavesNothing(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("disk full", 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace().failWritesAfter(40);
    try (HashAggregateOperator operator =
        new HashAggregateOperator(
            new OperatorContext(allocator, budget, 200, space),
            SCHEMA,
            AggregateMode.SINGLE,
            KEYS,
            CALLS,
            VectorSchemaRoot::close)) {
      List<VectorSchemaRoot> batches = batches(allocator, 32, KEYS, 6, 1000, 0.1, 3000);
      assertThatThrownBy(
              () -> {
                feed(operator, batches);
                operator.finish(0);
              })
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_WRITE_FAILED));
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(budget.used()).isZero();
  }

  @Test
  void closeBeforeFinishDeletesTheSpillFiles(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("closed early", 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    try (HashAggregateOperator operator =
        new HashAggregateOperator(
            new OperatorContext(allocator, budget, 200, space),
            SCHEMA,
            AggregateMode.SINGLE,
            KEYS,
            CALLS,
            VectorSchemaRoot::close)) {
      feed(operator, batches(allocator, 33, KEYS, 4, 1000, 0.1, 3000));
      assertThat(operator.spills()).isPositive();
      assertThat(space.liveFiles()).isPositive();
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(budget.used()).isZero();
  }

  /** One group with more DISTINCT values than the budget holds: every split keeps it whole. */
  @Test
  void aGroupTooLargeForTheBudgetFailsAfterSplittingEveryLevel(BufferAllocator allocator) {
    List<AggregateCall> calls = List.of(call(AggregateFunction.COUNT_DISTINCT, 4));
    MemoryBudget budget = new MemoryBudget("one huge group", 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    try (HashAggregateOperator operator =
        new HashAggregateOperator(
            new OperatorContext(allocator, budget, 1000, space),
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {3},
            calls,
            VectorSchemaRoot::close)) {
      RandomBatches random = new RandomBatches(34).nullFraction(0);
      assertThatThrownBy(
              () -> {
                for (int b = 0; b < 4; b++) {
                  VectorSchemaRoot batch = random.batch(SCHEMA, 5000, allocator);
                  IntVector key = (IntVector) batch.getVector(3);
                  for (int i = 0; i < 5000; i++) {
                    key.set(i, 7);
                  }
                  operator.add(0, batch);
                }
                operator.finish(0);
              })
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("cannot merge one of its spilled partitions")
          .hasMessageContaining("1048576 ways");
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(space.openReaders()).isZero();
    assertThat(budget.used()).isZero();
  }

  @Test
  void distinctWithoutGroupKeysCannotSpill(BufferAllocator allocator) {
    List<AggregateCall> calls = List.of(call(AggregateFunction.COUNT_DISTINCT, 4));
    MemoryBudget budget = new MemoryBudget("global distinct", 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    try (HashAggregateOperator operator =
        new HashAggregateOperator(
            new OperatorContext(allocator, budget, 1000, space),
            SCHEMA,
            AggregateMode.SINGLE,
            new int[0],
            calls,
            VectorSchemaRoot::close)) {
      RandomBatches random = new RandomBatches(35);
      assertThatThrownBy(
              () -> {
                for (int b = 0; b < 4; b++) {
                  operator.add(0, random.batch(SCHEMA, 5000, allocator));
                }
              })
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("cannot spill: without group keys every DISTINCT value");
    }
    assertThat(space.spilledFiles()).isZero();
    assertThat(budget.used()).isZero();
  }

  /** Adds the batches; those not added when it fails are closed. */
  private static void feed(HashAggregateOperator operator, List<VectorSchemaRoot> batches) {
    int fed = 0;
    try {
      for (VectorSchemaRoot batch : batches) {
        fed++;
        operator.add(0, batch);
      }
    } finally {
      batches.subList(fed, batches.size()).forEach(VectorSchemaRoot::close);
    }
  }
}
