package dev.quiver.operators.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.IntervalJoinTesting.Recorder;
import dev.quiver.operators.join.IntervalJoinTesting.Shape;
import dev.quiver.operators.join.IntervalJoinTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Interval joins whose held rows do not fit in a small budget: with a spill space the build rows
 * that complete last and the probe rows that die first go to spill files, and the output is the
 * in-memory join's: the same matches at the same steps (and, for LEFT and FULL joins, the same
 * padded probe rows, which may come out later when they were on disk), also across a snapshot taken
 * while rows are spilled and restored into the same small budget; nothing is left behind (budget,
 * spill files, readers, Arrow memory).
 */
@ExtendWith(ArrowLeakCheck.class)
class IntervalJoinSpillTest {
  private static final long MS = 1000;
  private static final long LOWER = -2000 * MS;
  private static final long UPPER = 1000 * MS;
  private static final long BUDGET = 64 * 1024;
  private static final int TARGET = 64;

  /**
   * About a row a millisecond, out of order by up to 1 s, 500 keys: about 4 s of both inputs held
   * at a time, several times the budget.
   */
  private static Shape shape(long seed) {
    return new Shape(seed, 800, 100, 500, MS, 2, 1000 * MS, 0.02, 0.01);
  }

  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"INNER", "LEFT", "RIGHT", "FULL"})
  void spillsAndJoinsAsTheUnlimitedJoin(JoinType type, BufferAllocator a) {
    List<Step> steps = IntervalJoinTesting.stream(shape(10 + type.ordinal()));
    boolean extra = type == JoinType.FULL;
    Recorder expected = unlimited(a, type, steps, extra);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    Recorder out = new Recorder(TARGET);
    try (IntervalJoinOperator join = operator(context, type, extra, out)) {
      IntervalJoinTesting.drive(join, steps, 0, steps.size(), out, a);
      assertThat(join.spills()).as("held rows spilled").isPositive();
    }
    assertThat(space.spilledFiles()).isPositive();
    assertThat(context.budget().peak()).isLessThanOrEqualTo(BUDGET);
    space.assertCleanedUp(context);
    assertSame(type, out, expected);
  }

  /**
   * A snapshot taken while rows are spilled holds them: restored into a new operator with the same
   * small budget (which spills again while restoring) it goes on to the output of the uninterrupted
   * unlimited run, the matched bits of spilled probe rows included.
   */
  @ParameterizedTest
  @EnumSource(
      value = JoinType.class,
      names = {"INNER", "LEFT"})
  void aSnapshotOfSpilledRowsRestoresIntoTheSameSmallBudget(JoinType type, BufferAllocator a) {
    List<Step> steps = IntervalJoinTesting.stream(shape(20 + type.ordinal()));
    Recorder expected = unlimited(a, type, steps, false);
    Recorder out = new Recorder(TARGET);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    byte[] state;
    int cut = steps.size() / 2;
    try (IntervalJoinOperator join = operator(context, type, false, out)) {
      IntervalJoinTesting.drive(join, steps, 0, cut, out, a);
      while (join.spilledFiles() == 0 || join.spilledRows()[1] == 0) {
        assertThat(cut).as("a cut before the end").isLessThan(steps.size() - 10);
        IntervalJoinTesting.drive(join, steps, cut, cut + 1, out, a);
        cut++;
      }
      int files = join.spilledFiles();
      state = join.snapshotState();
      assertThat(join.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
      assertThat(join.spilledFiles()).as("still spilled after the snapshot").isEqualTo(files);
    }
    space.assertCleanedUp(context);
    MemorySpillSpace again = new MemorySpillSpace();
    OperatorContext restoredContext = small(a, again);
    try (IntervalJoinOperator restored = operator(restoredContext, type, false, out)) {
      restored.restoreState(state);
      assertThat(restored.spilledFiles()).as("spilled again while restoring").isPositive();
      IntervalJoinTesting.drive(restored, steps, cut, steps.size(), out, a);
    }
    again.assertCleanedUp(restoredContext);
    assertSame(type, out, expected);
  }

  /** The join fails while rows are spilled: close leaves no spill file, reader or memory. */
  @Test
  void aFailureWhileRowsAreSpilledLeavesNothingBehind(BufferAllocator a) {
    List<Step> steps = IntervalJoinTesting.stream(shape(30));
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    IntervalJoinOperator[] join = new IntervalJoinOperator[1];
    BatchSink sink =
        batch -> {
          batch.close();
          if (join[0].spilledFiles() > 0) {
            throw new IllegalStateException("sink fails");
          }
        };
    join[0] = operator(context, JoinType.FULL, false, sink);
    try (IntervalJoinOperator failing = join[0]) {
      assertThatThrownBy(
              () ->
                  IntervalJoinTesting.drive(
                      failing, steps, 0, steps.size(), new Recorder(TARGET), a))
          .hasMessageContaining("sink fails");
      assertThat(space.liveFiles()).as("files held at the failure").isPositive();
    }
    space.assertCleanedUp(context);
  }

  @Test
  void withoutASpillSpaceTheBudgetIsStillAnError(BufferAllocator a) {
    List<Step> steps = IntervalJoinTesting.stream(shape(10));
    OperatorContext context = small(a, SpillSpace.NONE);
    Recorder out = new Recorder(TARGET);
    try (IntervalJoinOperator join = operator(context, JoinType.INNER, false, out)) {
      assertThatThrownBy(() -> IntervalJoinTesting.drive(join, steps, 0, steps.size(), out, a))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("holds the rows of both inputs")
          .hasMessageContaining("cannot spill")
          .hasMessageContaining("small task");
      assertThat(join.spills()).isZero();
    }
    assertThat(context.budget().used()).isZero();
  }

  /** The run of {@code steps} with an unlimited budget; it holds more than the small budget. */
  private static Recorder unlimited(
      BufferAllocator a, JoinType type, List<Step> steps, boolean extra) {
    OperatorContext context = IntervalJoinTesting.context(a, TARGET);
    Recorder out = new Recorder(TARGET);
    try (IntervalJoinOperator join = operator(context, type, extra, out)) {
      IntervalJoinTesting.drive(join, steps, 0, steps.size(), out, a);
    }
    assertThat(context.budget().peak()).as("held without spilling").isGreaterThan(3 * BUDGET);
    assertThat(out.rows).isPositive();
    return out;
  }

  /**
   * The same matches at the same steps; the padded rows of INNER and RIGHT joins at the same steps
   * too; those of LEFT and FULL joins the same rows, each at the same step or later.
   */
  private static void assertSame(JoinType type, Recorder actual, Recorder expected) {
    if (!type.padsLeft()) {
      assertThat(actual.byStep).isEqualTo(expected.byStep);
      return;
    }
    assertThat(split(actual.byStep, true))
        .as("matches by step")
        .isEqualTo(split(expected.byStep, true));
    Map<List<Object>, Integer> paddedActual = new HashMap<>();
    Map<List<Object>, Integer> paddedExpected = new HashMap<>();
    Map<List<Object>, Integer> due = new HashMap<>(); // the first step of a padded row in memory
    split(expected.byStep, false)
        .forEach(
            (step, rows) ->
                rows.forEach(
                    (row, count) -> {
                      paddedExpected.merge(row, count, Integer::sum);
                      due.putIfAbsent(row, step);
                    }));
    split(actual.byStep, false)
        .forEach(
            (step, rows) ->
                rows.forEach(
                    (row, count) -> {
                      paddedActual.merge(row, count, Integer::sum);
                      assertThat(step)
                          .as("padded %s no earlier than in memory", row)
                          .isGreaterThanOrEqualTo(due.getOrDefault(row, Integer.MAX_VALUE));
                    }));
    assertThat(paddedActual).as("padded rows").isEqualTo(paddedExpected).isNotEmpty();
  }

  /** The rows by step that are matches ({@code pairs}: both ids set) or padded (one id NULL). */
  private static Map<Integer, Map<List<Object>, Integer>> split(
      Map<Integer, Map<List<Object>, Integer>> byStep, boolean pairs) {
    Map<Integer, Map<List<Object>, Integer>> kept = new TreeMap<>();
    byStep.forEach(
        (step, rows) ->
            rows.forEach(
                (row, count) -> {
                  boolean pair = row.get(3) != null && row.get(6) != null;
                  if (pair == pairs) {
                    kept.computeIfAbsent(step, k -> new HashMap<>()).put(row, count);
                  }
                }));
    return kept;
  }

  private static IntervalJoinOperator operator(
      OperatorContext context, JoinType type, boolean extra, BatchSink sink) {
    return IntervalJoinTesting.operator(
        context, type, LOWER, UPPER, IntervalJoinTesting.filter(LOWER, UPPER, extra), sink);
  }

  private static OperatorContext small(BufferAllocator a, SpillSpace space) {
    return new OperatorContext(a, new MemoryBudget("small task", BUDGET), TARGET, space);
  }
}
