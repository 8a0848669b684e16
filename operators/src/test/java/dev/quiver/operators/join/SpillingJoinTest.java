package dev.quiver.operators.join;

import static dev.quiver.operators.join.HashJoinOperatorTest.BUILD;
import static dev.quiver.operators.join.HashJoinOperatorTest.PROBE;
import static dev.quiver.operators.join.HashJoinOperatorTest.SOME;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every join kind with a tiny budget and a spill space (a grace hash join) against the reference
 * and against the same join in memory: the same rows, full batches, and nothing left behind
 * (budget, files, readers, Arrow memory).
 */
@ExtendWith(ArrowLeakCheck.class)
class SpillingJoinTest {
  static final long KB = 1024;
  static final int TARGET_ROWS = 256;

  /** Single and two-column keys, with and without the residual filter (not for null-aware). */
  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (JoinKind kind : HashJoinOperatorTest.kinds()) {
      cases.add(Arguments.of(kind, new int[] {0}, new int[] {2}, false));
      if (!kind.nullAware()) {
        cases.add(Arguments.of(kind, new int[] {0, 1}, new int[] {2, 0}, false));
        cases.add(Arguments.of(kind, new int[] {0}, new int[] {2}, true));
      }
    }
    return cases.stream();
  }

  static HashJoinCheck check(JoinKind kind, int[] buildKeys, int[] probeKeys, boolean filter) {
    HashJoinCheck check =
        new HashJoinCheck(kind, BUILD, buildKeys, PROBE, probeKeys).withTarget(TARGET_ROWS);
    return filter ? check.withFilter(SOME) : check;
  }

  @ParameterizedTest(name = "{0} build={1} probe={2} filter={3}")
  @MethodSource("cases")
  void spilledEqualsReferenceAndInMemory(
      JoinKind kind, int[] buildKeys, int[] probeKeys, boolean filter, BufferAllocator a) {
    HashJoinCheck check = check(kind, buildKeys, probeKeys, filter);
    long seed = 900 + kind.hashCode() + Arrays.hashCode(buildKeys) + (filter ? 7 : 0);
    int[] buildSizes = {700, 0, 1300, 900, 1100};
    int[] probeSizes = {1000, 1500, 0, 1200};
    List<List<Object>> inMemory =
        check.runRandom(a, random(seed), buildSizes, probeSizes).rows(); // also vs the reference
    MemoryBudget budget = new MemoryBudget("task-3", 64 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches again = random(seed);
    List<List<Object>> spilled =
        check
            .run(
                new OperatorContext(a, budget, TARGET_ROWS, space),
                HashJoinCheck.batches(again, BUILD, buildSizes, a),
                HashJoinCheck.batches(again, PROBE, probeSizes, a))
            .rows();
    JoinHarness.assertSameRows(spilled, inMemory);
    assertThat(space.spilledFiles()).as("spilled").isPositive();
    assertThat(space.spilledBytes()).isPositive();
    assertNothingLeft(budget, space);
  }

  /** Partitions too large for the budget split again, with other hash bits, and still join. */
  @ParameterizedTest
  @MethodSource("dev.quiver.operators.join.HashJoinOperatorTest#kinds")
  void partitionsThatDoNotFitSplitAgain(JoinKind kind, BufferAllocator a) {
    HashJoinCheck check = check(kind, new int[] {0}, new int[] {2}, false);
    int[] buildSizes = {16_000, 16_000, 16_000, 16_000, 16_000};
    int[] probeSizes = {5000, 5000};
    MemoryBudget budget = new MemoryBudget("task-4", 48 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = new RandomBatches(77).distinctValues(40_000).nullFraction(0.05);
    check.run(
        new OperatorContext(a, budget, TARGET_ROWS, space),
        HashJoinCheck.batches(random, BUILD, buildSizes, a),
        HashJoinCheck.batches(random, PROBE, probeSizes, a));
    // Level 0 writes at most 32 build files and 32 probe files; each split writes more. NOT IN
    // against a build side with a NULL is empty: it never reads its partitions back.
    if (!kind.equals(JoinKind.nullAware(JoinType.LEFT_ANTI))) {
      assertThat(space.spilledFiles()).as("split").isGreaterThan(2 * JoinPartitions.COUNT);
    }
    assertNothingLeft(budget, space);
  }

  /**
   * From a budget that holds a few rows (and the hash table's fixed 20 KB) up to one that holds
   * everything: always the answer.
   */
  @Test
  void everyBudgetGivesTheSameRows(BufferAllocator a) {
    for (JoinType type : new JoinType[] {JoinType.FULL, JoinType.RIGHT_ANTI, JoinType.LEFT_MARK}) {
      for (long limit = 32 * KB; limit <= 1024 * KB; limit *= 2) {
        HashJoinCheck check = check(JoinKind.of(type), new int[] {0, 1}, new int[] {2, 0}, false);
        MemoryBudget budget = new MemoryBudget("task-5", limit);
        MemorySpillSpace space = new MemorySpillSpace();
        RandomBatches random = random(limit);
        check.run(
            new OperatorContext(a, budget, TARGET_ROWS, space),
            HashJoinCheck.batches(random, BUILD, new int[] {2000, 3000}, a),
            HashJoinCheck.batches(random, PROBE, new int[] {2500, 2500}, a));
        assertNothingLeft(budget, space);
      }
    }
  }

  /** An empty probe side still emits every build row of a RIGHT join from the spill files. */
  @ParameterizedTest
  @MethodSource("dev.quiver.operators.join.HashJoinOperatorTest#kinds")
  void emptyProbeSide(JoinKind kind, BufferAllocator a) {
    MemoryBudget budget = new MemoryBudget("task-6", 32 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    RandomBatches random = random(11);
    check(kind, new int[] {0}, new int[] {2}, false)
        .run(
            new OperatorContext(a, budget, TARGET_ROWS, space),
            HashJoinCheck.batches(random, BUILD, new int[] {3000, 3000}, a),
            HashJoinCheck.batches(random, PROBE, new int[] {0}, a));
    assertThat(space.spilledFiles()).isPositive();
    assertNothingLeft(budget, space);
  }

  static RandomBatches random(long seed) {
    return new RandomBatches(seed).distinctValues(1500).nullFraction(0.1);
  }

  static void assertNothingLeft(MemoryBudget budget, MemorySpillSpace space) {
    assertThat(budget.used()).as("everything released").isZero();
    assertThat(space.liveFiles()).as("every spill file deleted").isZero();
    assertThat(space.openReaders()).isZero();
  }
}
