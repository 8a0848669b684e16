package dev.quiver.operators.join;

import static dev.quiver.operators.join.WindowJoinTesting.BUILD;
import static dev.quiver.operators.join.WindowJoinTesting.PROBE;
import static dev.quiver.operators.join.WindowJoinTesting.windowEnd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.WindowJoinTesting.Recorder;
import dev.quiver.operators.join.WindowJoinTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Window joins whose open windows do not fit in a small budget: with a spill space their buffered
 * rows go to spill files and come back when the window is joined, and the output is the batch join
 * of each window's rows at the same steps as with an unlimited budget, also across a snapshot taken
 * while rows are spilled and restored into the same small budget; nothing is left behind (budget,
 * spill files, readers, Arrow memory).
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowJoinSpillTest {
  private static final long BUDGET = 160 * 1024;
  private static final int TARGET = 256;

  /**
   * About 8 windows open at once, each taking rows for {@code lag} windows' time: far more than the
   * budget holds. A few rows are late or have no window.
   */
  static List<Step> stream(long seed, int windows, int lag, int steps) {
    Random random = new Random(seed);
    List<Step> stream = new ArrayList<>();
    int current = 1;
    double advance = (double) windows / steps;
    for (int s = 0; s < steps; s++) {
      if (s > 0 && random.nextInt(6) == 0) {
        int complete = Math.max(1, current - 1);
        long exact = Math.floorDiv(windowEnd(complete) + 999, 1000) - 1; // the boundary
        stream.add(Step.watermark(exact - random.nextInt(2)));
        continue;
      }
      Long[] ends = new Long[1 + random.nextInt(60)];
      for (int i = 0; i < ends.length; i++) {
        double draw = random.nextDouble();
        int w =
            draw < 0.02
                ? Math.max(1, current - 1 - random.nextInt(2)) // older: often late
                : Math.min(windows, current + random.nextInt(lag));
        ends[i] = draw > 0.99 ? null : windowEnd(w);
      }
      stream.add(new Step(random.nextInt(2), seed * 10_000 + s, ends, 0));
      if (random.nextDouble() < advance) {
        current = Math.min(windows, current + 1);
      }
    }
    return stream;
  }

  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"INNER", "FULL", "LEFT_ANTI"})
  void spillsAndJoinsEachWindowAsTheUnlimitedJoin(JoinType type, BufferAllocator a) {
    JoinKind kind = JoinKind.of(type);
    List<Step> steps = stream(80 + type.ordinal(), 30, 8, 900);
    Map<Integer, List<List<Object>>> expected = expected(kind, steps, a);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    Recorder out = new Recorder(TARGET, kind.type().outputSchema(PROBE, BUILD));
    try (WindowJoinOperator join = WindowJoinTesting.keyJoin(context, kind, out)) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), true, out, a);
      assertThat(join.spills()).as("buffered rows spilled").isPositive();
    }
    assertThat(space.spilledFiles()).isPositive();
    assertThat(space.spilledRows()).isPositive();
    assertThat(space.maxOpenReaders()).as("one file read back at a time").isEqualTo(1);
    space.assertCleanedUp(context);
    WindowJoinTesting.assertSameByStep(out.byStep, expected);
  }

  /**
   * A snapshot taken while rows are spilled holds them: restored into a new operator with the same
   * small budget (which spills again while restoring) it goes on to the output of the uninterrupted
   * unlimited run.
   */
  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"INNER", "LEFT"})
  void aSnapshotOfSpilledRowsRestoresIntoTheSameSmallBudget(JoinType type, BufferAllocator a) {
    JoinKind kind = JoinKind.of(type);
    List<Step> steps = stream(90 + type.ordinal(), 30, 16, 900); // more windows open
    Map<Integer, List<List<Object>>> expected = expected(kind, steps, a);
    Recorder out = new Recorder(TARGET, kind.type().outputSchema(PROBE, BUILD));
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    byte[] state;
    int cut = steps.size() / 2;
    try (WindowJoinOperator join = WindowJoinTesting.keyJoin(context, kind, out)) {
      WindowJoinTesting.drive(join, steps, 0, cut, false, out, a);
      // Cut where rows are spilled and the state is more than the budget holds once restored
      // (whole batches restore into much less memory than the slices they were).
      while (join.spilledFiles() == 0 || restoredBytes(a, kind, join.snapshotState()) <= BUDGET) {
        int to = Math.min(cut + 5, steps.size() - 1);
        assertThat(to).as("a cut before the end").isGreaterThan(cut);
        WindowJoinTesting.drive(join, steps, cut, to, false, out, a);
        cut = to;
      }
      int files = join.spilledFiles();
      state = join.snapshotState();
      assertThat(join.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
      assertThat(join.spilledFiles()).as("still spilled after the snapshot").isEqualTo(files);
    }
    space.assertCleanedUp(context);
    MemorySpillSpace again = new MemorySpillSpace();
    OperatorContext restoredContext = small(a, again);
    try (WindowJoinOperator restored = WindowJoinTesting.keyJoin(restoredContext, kind, out)) {
      restored.restoreState(state);
      assertThat(restored.spilledFiles()).as("spilled again while restoring").isPositive();
      WindowJoinTesting.drive(restored, steps, cut, steps.size(), true, out, a);
    }
    again.assertCleanedUp(restoredContext);
    WindowJoinTesting.assertSameByStep(out.byStep, expected);
  }

  /** The join fails while windows are spilled: close leaves no spill file, reader or memory. */
  @Test
  void aFailureWhileRowsAreSpilledLeavesNothingBehind(BufferAllocator a) {
    List<Step> steps = stream(95, 30, 8, 900);
    for (int k : new int[] {0, 5}) {
      MemorySpillSpace space = new MemorySpillSpace();
      OperatorContext context = small(a, space);
      WindowJoinOperator[] join = new WindowJoinOperator[1];
      int[] seen = new int[1];
      dev.quiver.operators.BatchSink sink =
          batch -> {
            batch.close();
            if (join[0].spilledFiles() > 0 && seen[0]++ == k) {
              throw new IllegalStateException("sink fails");
            }
          };
      join[0] = WindowJoinTesting.keyJoin(context, JoinKind.of(JoinType.INNER), sink);
      try (WindowJoinOperator failing = join[0]) {
        Recorder ignored = new Recorder(TARGET, JoinType.INNER.outputSchema(PROBE, BUILD));
        assertThatThrownBy(
                () -> WindowJoinTesting.drive(failing, steps, 0, steps.size(), true, ignored, a))
            .hasMessageContaining("sink fails");
        assertThat(space.liveFiles()).as("files held at the failure").isPositive();
      }
      space.assertCleanedUp(context);
    }
  }

  @Test
  void withoutASpillSpaceTheBudgetIsStillAnError(BufferAllocator a) {
    List<Step> steps = stream(80, 30, 8, 900);
    OperatorContext context = small(a, SpillSpace.NONE);
    Recorder out = new Recorder(TARGET, JoinType.INNER.outputSchema(PROBE, BUILD));
    try (WindowJoinOperator join =
        WindowJoinTesting.keyJoin(context, JoinKind.of(JoinType.INNER), out)) {
      assertThatThrownBy(() -> WindowJoinTesting.drive(join, steps, 0, steps.size(), true, out, a))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("keeps the rows of every open window of both inputs in memory")
          .hasMessageContaining("cannot spill")
          .hasMessageContaining("small task");
      assertThat(join.spills()).isZero();
    }
    assertThat(context.budget().used()).isZero();
  }

  /** The memory {@code state} takes restored into an unlimited budget. */
  private static long restoredBytes(BufferAllocator a, JoinKind kind, byte[] state) {
    OperatorContext unlimited = WindowJoinOperatorTest.context(a, TARGET);
    try (WindowJoinOperator join = WindowJoinTesting.keyJoin(unlimited, kind, b -> b.close())) {
      join.restoreState(state);
      return unlimited.budget().used();
    }
  }

  /** The batch join of each window's on-time rows; also what the unlimited window join gives. */
  private static Map<Integer, List<List<Object>>> expected(
      JoinKind kind, List<Step> steps, BufferAllocator a) {
    Map<Integer, List<List<Object>>> expected =
        WindowJoinTesting.expected(
            steps,
            new HashJoinCheck(kind, BUILD, new int[] {0}, PROBE, new int[] {2}).withTarget(TARGET),
            a);
    OperatorContext unlimited = WindowJoinOperatorTest.context(a, TARGET);
    Recorder out = new Recorder(TARGET, kind.type().outputSchema(PROBE, BUILD));
    try (WindowJoinOperator join = WindowJoinTesting.keyJoin(unlimited, kind, out)) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), true, out, a);
    }
    WindowJoinTesting.assertSameByStep(out.byStep, expected);
    assertThat(unlimited.budget().peak()).as("the unlimited run's peak").isGreaterThan(2 * BUDGET);
    return expected;
  }

  private static OperatorContext small(BufferAllocator a, SpillSpace space) {
    return new OperatorContext(a, new MemoryBudget("small task", BUDGET), TARGET, space);
  }
}
