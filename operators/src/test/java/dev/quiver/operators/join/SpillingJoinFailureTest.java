package dev.quiver.operators.join;

import static dev.quiver.operators.join.HashJoinOperatorTest.BUILD;
import static dev.quiver.operators.join.HashJoinOperatorTest.PROBE;
import static dev.quiver.operators.join.SpillingJoinTest.KB;
import static dev.quiver.operators.join.SpillingJoinTest.TARGET_ROWS;
import static dev.quiver.operators.join.SpillingJoinTest.assertNothingLeft;
import static dev.quiver.operators.join.SpillingJoinTest.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A spilling hash join that cannot finish (one key too large for the budget, a full disk, a failing
 * sink, an early close) leaves no spill file, reservation or Arrow buffer behind; and one whose
 * hash table, not its rows, overflows the budget spills too.
 */
@ExtendWith(ArrowLeakCheck.class)
class SpillingJoinFailureTest {
  private static final int[] BUILD_KEY = {0};
  private static final int[] PROBE_KEY = {2};

  /** One key with 90% of the build rows: no hash split helps, so a clear error. */
  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"INNER", "FULL", "LEFT_ANTI"})
  void oneKeyLargerThanTheBudgetFailsClearly(JoinType type, BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("task-8", 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = random(21);
    List<VectorSchemaRoot> build =
        HashJoinCheck.batches(random, BUILD, new int[] {5000, 5000, 5000, 5000}, a);
    build.forEach(batch -> skew(batch, 0.9));
    List<VectorSchemaRoot> probe = HashJoinCheck.batches(random, PROBE, new int[] {3000}, a);
    HashJoinOperator join = join(a, JoinKind.of(type), budget, space, VectorSchemaRoot::close);
    assertThatThrownBy(() -> JoinHarness.run(join, build, probe, new JoinHarness.Sink()))
        .isInstanceOfSatisfying(
            QuiverException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
        .hasMessageContaining("HashJoin[type=" + type)
        .hasMessageContaining("build rows of one key")
        .hasMessageContaining("65536-byte memory budget");
    assertThat(join.spilled()).isTrue();
    assertNothingLeft(budget, space);
  }

  /**
   * NULL build keys are not one key: joins that emit them unmatched deal them round robin, so their
   * partitions keep splitting (the other joins drop them).
   */
  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"RIGHT", "FULL", "RIGHT_ANTI"})
  void nullKeysStillSplit(JoinType type, BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("task-14", 32 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = random(27);
    List<VectorSchemaRoot> build =
        HashJoinCheck.batches(random, BUILD, new int[] {10_000, 10_000, 10_000, 10_000}, a);
    build.forEach(batch -> nulls(batch, 1.0));
    new HashJoinCheck(JoinKind.of(type), BUILD, BUILD_KEY, PROBE, PROBE_KEY)
        .withTarget(TARGET_ROWS)
        .run(
            new OperatorContext(a, budget, TARGET_ROWS, space),
            build,
            HashJoinCheck.batches(random, PROBE, new int[] {3000}, a));
    assertThat(space.spilledFiles()).isPositive();
    assertNothingLeft(budget, space);
  }

  @Test
  void fullDiskWhileSpillingLeavesNothing(BufferAllocator a) {
    for (long writes : new long[] {3, 40, 200}) {
      MemoryBudget budget = new MemoryBudget("task-9", 32 * KB);
      MemorySpillSpace space = new MemorySpillSpace().failWritesAfter(writes);
      RandomBatches random = random(22);
      HashJoinOperator join =
          join(a, JoinKind.of(JoinType.FULL), budget, space, VectorSchemaRoot::close);
      assertThatThrownBy(
              () ->
                  JoinHarness.run(
                      join,
                      HashJoinCheck.batches(random, BUILD, new int[] {3000, 3000}, a),
                      HashJoinCheck.batches(random, PROBE, new int[] {3000, 3000}, a),
                      new JoinHarness.Sink()))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_WRITE_FAILED));
      assertNothingLeft(budget, space);
    }
  }

  @Test
  void sinkFailingMidPartitionLeavesNothing(BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("task-10", 32 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = random(23);
    int[] accepted = {0};
    BatchSink sink =
        batch -> {
          batch.close();
          if (++accepted[0] == 3) {
            throw new IllegalStateException("sink fails");
          }
        };
    HashJoinOperator join = join(a, JoinKind.of(JoinType.RIGHT), budget, space, sink);
    assertThatThrownBy(
            () ->
                JoinHarness.run(
                    join,
                    HashJoinCheck.batches(random, BUILD, new int[] {3000, 3000}, a),
                    HashJoinCheck.batches(random, PROBE, new int[] {3000, 3000}, a),
                    new JoinHarness.Sink()))
        .hasMessageContaining("sink fails");
    assertNothingLeft(budget, space);
  }

  @Test
  void closeBeforeTheProbeEndsDeletesTheSpillFiles(BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("task-11", 32 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = random(24);
    try (HashJoinOperator join =
        join(a, JoinKind.of(JoinType.LEFT), budget, space, VectorSchemaRoot::close)) {
      for (VectorSchemaRoot batch : HashJoinCheck.batches(random, BUILD, new int[] {3000}, a)) {
        join.add(0, batch);
      }
      join.finish(0);
      join.add(1, random.batch(PROBE, 2000, a));
      assertThat(join.spilled()).isTrue();
      assertThat(space.liveFiles()).isPositive();
    }
    assertNothingLeft(budget, space);
  }

  /** Every build batch fits, the hash table does not: the join spills at the end of the build. */
  @Test
  void aTableTooLargeForTheBudgetSpillsToo(BufferAllocator a) {
    RandomBatches random = random(25);
    List<VectorSchemaRoot> build = HashJoinCheck.batches(random, BUILD, new int[] {2000, 2000}, a);
    long bytes = build.stream().mapToLong(BatchTransfer::heldBytes).sum();
    MemoryBudget budget = new MemoryBudget("task-12", bytes + KB);
    MemorySpillSpace space = new MemorySpillSpace();
    HashJoinCheck check =
        new HashJoinCheck(JoinKind.of(JoinType.FULL), BUILD, BUILD_KEY, PROBE, PROBE_KEY)
            .withTarget(TARGET_ROWS);
    check.run(
        new OperatorContext(a, budget, TARGET_ROWS, space),
        build,
        HashJoinCheck.batches(random, PROBE, new int[] {3000}, a));
    assertThat(space.spilledFiles()).isPositive();
    assertNothingLeft(budget, space);
  }

  /** Without a spill space the budget stays a hard limit. */
  @Test
  void withoutASpillSpaceTheBudgetStillFails(BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("task-13", 32 * KB);
    RandomBatches random = random(26);
    HashJoinOperator join =
        new HashJoinOperator(
            new OperatorContext(a, budget, TARGET_ROWS),
            JoinKind.of(JoinType.INNER),
            BUILD,
            BUILD_KEY,
            PROBE,
            PROBE_KEY,
            null,
            VectorSchemaRoot::close);
    assertThatThrownBy(
            () ->
                JoinHarness.run(
                    join,
                    HashJoinCheck.batches(random, BUILD, new int[] {3000, 3000}, a),
                    HashJoinCheck.batches(random, PROBE, new int[] {300}, a),
                    new JoinHarness.Sink()))
        .isInstanceOfSatisfying(
            QuiverException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED));
    assertThat(budget.used()).isZero();
  }

  private static HashJoinOperator join(
      BufferAllocator a,
      JoinKind kind,
      MemoryBudget budget,
      MemorySpillSpace space,
      BatchSink sink) {
    return new HashJoinOperator(
        new OperatorContext(a, budget, TARGET_ROWS, space),
        kind,
        BUILD,
        BUILD_KEY,
        PROBE,
        PROBE_KEY,
        null,
        sink);
  }

  /** Sets the key of the first {@code fraction} of the rows to NULL. */
  private static void nulls(VectorSchemaRoot batch, double fraction) {
    BigIntVector key = (BigIntVector) batch.getVector(0);
    for (int row = 0; row < batch.getRowCount() * fraction; row++) {
      key.setNull(row);
    }
  }

  /** Sets the key of the first {@code fraction} of the rows to 7. */
  private static void skew(VectorSchemaRoot batch, double fraction) {
    BigIntVector key = (BigIntVector) batch.getVector(0);
    for (int row = 0; row < batch.getRowCount() * fraction; row++) {
      key.set(row, 7);
    }
  }
}
