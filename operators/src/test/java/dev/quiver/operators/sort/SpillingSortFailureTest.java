package dev.quiver.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.FailingSink;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A spilling sort that fails or is closed early leaves no spill file, budget or Arrow memory. */
@ExtendWith(ArrowLeakCheck.class)
class SpillingSortFailureTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  private static final List<SortKey> KEYS = List.of(SortKey.asc(9), SortKey.desc(4));

  @Test
  void sinkFailingMidMergeLeavesNothing(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("sink fails", 64 * 1024);
    MemorySpillSpace space = new MemorySpillSpace();
    FailingSink sink = new FailingSink(3);
    RandomBatches random = new RandomBatches(21);
    try (SortOperator sort =
        new SortOperator(new OperatorContext(allocator, budget, 50, space), SCHEMA, KEYS, sink)) {
      for (int b = 0; b < 20; b++) {
        sort.add(0, random.batch(SCHEMA, 100, allocator));
      }
      assertThat(space.liveFiles()).isPositive();
      assertThatThrownBy(() -> sort.finish(0)).hasMessageContaining("sink fails");
      assertThat(sink.accepted()).isEqualTo(3);
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(space.openReaders()).isZero();
    assertThat(budget.used()).isZero();
  }

  @Test
  void fullDiskWhileSpillingLeavesNothing(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("disk full", 64 * 1024);
    MemorySpillSpace space = new MemorySpillSpace().failWritesAfter(5);
    RandomBatches random = new RandomBatches(22);
    try (SortOperator sort =
        new SortOperator(
            new OperatorContext(allocator, budget, 50, space),
            SCHEMA,
            KEYS,
            VectorSchemaRoot::close)) {
      assertThatThrownBy(
              () -> {
                for (int b = 0; b < 20; b++) {
                  sort.add(0, random.batch(SCHEMA, 100, allocator));
                }
              })
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_WRITE_FAILED));
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(budget.used()).isZero();
  }

  @Test
  void closeBeforeFinishDeletesTheRuns(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("closed early", 64 * 1024);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = new RandomBatches(23);
    try (SortOperator sort =
        new SortOperator(
            new OperatorContext(allocator, budget, 50, space),
            SCHEMA,
            KEYS,
            VectorSchemaRoot::close)) {
      for (int b = 0; b < 5; b++) {
        sort.add(0, random.batch(SCHEMA, 100, allocator));
      }
      assertThat(space.liveFiles()).isPositive();
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(budget.used()).isZero();
  }

  @Test
  void budgetTooSmallToMergeFailsClearly(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("tiny", 100);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = new RandomBatches(24);
    try (SortOperator sort =
        new SortOperator(
            new OperatorContext(allocator, budget, 50, space),
            SCHEMA,
            KEYS,
            VectorSchemaRoot::close)) {
      for (int b = 0; b < 3; b++) {
        sort.add(0, random.batch(SCHEMA, 10, allocator)); // each spilled on its own
      }
      assertThat(space.spilledFiles()).isEqualTo(3);
      assertThatThrownBy(() -> sort.finish(0))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("cannot merge its 3 spilled runs")
          .hasMessageContaining("100-byte memory budget");
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(budget.used()).isZero();
  }

  @Test
  void withoutSpillSpaceAFullBudgetStillFails(BufferAllocator allocator) {
    assertThat(SpillSpace.NONE.canSpill()).isFalse();
    assertThatThrownBy(() -> SpillSpace.NONE.create(SCHEMA, "test"))
        .isInstanceOf(IllegalStateException.class);
    MemoryBudget budget = new MemoryBudget("no space", 64 * 1024);
    OperatorContext context =
        new OperatorContext(allocator, budget, 50, new MemorySpillSpace())
            .withSpillSpace(SpillSpace.NONE);
    RandomBatches random = new RandomBatches(25);
    try (SortOperator sort = new SortOperator(context, SCHEMA, KEYS, VectorSchemaRoot::close)) {
      assertThatThrownBy(() -> sort.add(0, random.batch(SCHEMA, 100, allocator)))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED));
    }
    assertThat(budget.used()).isZero();
  }
}
