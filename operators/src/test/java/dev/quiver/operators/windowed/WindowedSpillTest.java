package dev.quiver.operators.windowed;

import static dev.quiver.operators.windowed.WindowedTesting.END;
import static dev.quiver.operators.windowed.WindowedTesting.PARTITION;
import static dev.quiver.operators.windowed.WindowedTesting.SCHEMA;
import static dev.quiver.operators.windowed.WindowedTesting.windowEnd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.sort.PartitionTopN;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.operators.windowed.WindowedTesting.Recorder;
import dev.quiver.operators.windowed.WindowedTesting.Step;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.plan.window.WindowTopN;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-window ROW_NUMBER and window top-N whose open windows do not fit in a small budget: with a
 * spill space the buffered rows go to spill files and come back, in the order they came, when the
 * window runs, so the rows and their numbers are those of an unlimited budget at the same steps.
 * The order key (v DESC) ties often, so ROW_NUMBER numbers peers by arrival: rows read back out of
 * order would number differently. Also across a snapshot taken while rows are spilled, restored
 * into the same small budget; nothing is left behind (budget, spill files, readers, Arrow memory).
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowedSpillTest {
  private static final long BUDGET = 128 * 1024;
  private static final int TARGET = 256;
  private static final List<SortKey> ORDER = List.of(SortKey.desc(1)); // ties: arrival order
  private static final List<WindowCall> CALLS =
      List.of(WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"));
  private static final int RN = SCHEMA.getFields().size();

  /** About {@code lag} windows open at once, rows mostly in the open ones; a few late or none. */
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
      Long[] ends = new Long[1 + random.nextInt(40)];
      for (int i = 0; i < ends.length; i++) {
        double draw = random.nextDouble();
        int w =
            draw < 0.02
                ? Math.max(1, current - 1 - random.nextInt(2))
                : current
                    + random.nextInt(
                        lag); // uncapped: a last window would get the rows of all later ones
        ends[i] = draw > 0.99 ? null : windowEnd(w);
      }
      stream.add(Step.batch(seed * 10_000 + s, ends));
      if (random.nextDouble() < advance) {
        current = Math.min(windows, current + 1);
      }
    }
    return stream;
  }

  /** n = 0: every row numbered, no pruning; else the top n, pruned while the window is open. */
  @ParameterizedTest(name = "top {0}")
  @ValueSource(longs = {0, 3})
  void spillsAndNumbersEachWindowAsTheUnlimitedRun(long n, BufferAllocator a) {
    List<Step> steps = stream(30 + n, 60, 12, 700);
    Map<Integer, List<List<Object>>> expected = unlimited(a, steps, n);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    Recorder out = new Recorder(TARGET, outputSchema(context));
    try (WindowedOperator operator = operator(context, n, out)) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), true, out, a);
      assertThat(operator.spills()).as("buffered rows spilled").isPositive();
    }
    assertThat(space.spilledFiles()).isPositive();
    assertThat(space.spilledRows()).isPositive();
    space.assertCleanedUp(context);
    WindowedTesting.assertSameByStep(ranked(out.byStep, n), expected);
  }

  /**
   * A snapshot taken while rows are spilled holds them: restored into a new operator with the same
   * small budget (which spills again while restoring) it goes on to the rows of the uninterrupted
   * unlimited run.
   */
  @ParameterizedTest(name = "top {0}")
  @ValueSource(longs = {0, 3})
  void aSnapshotOfSpilledRowsRestoresIntoTheSameSmallBudget(long n, BufferAllocator a) {
    List<Step> steps = stream(40 + n, 80, 40, 900);
    Map<Integer, List<List<Object>>> expected = unlimited(a, steps, n);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(a, space);
    Recorder out = new Recorder(TARGET, outputSchema(context));
    byte[] state;
    int cut = steps.size() / 3;
    try (WindowedOperator operator = operator(context, n, out)) {
      WindowedTesting.drive(operator, steps, 0, cut, false, out, a);
      // Cut where rows are spilled and, unpruned, the state is more than the budget holds once
      // restored (a pruned state is the top rows only: it fits).
      while (operator.spilledFiles() == 0
          || n == 0 && restoredBytes(a, n, operator.snapshotState()) <= BUDGET) {
        int to = Math.min(cut + 5, steps.size() - 1);
        assertThat(to).as("a cut before the end").isGreaterThan(cut);
        WindowedTesting.drive(operator, steps, cut, to, false, out, a);
        cut = to;
      }
      int files = operator.spilledFiles();
      state = operator.snapshotState();
      assertThat(operator.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
      assertThat(operator.spilledFiles()).as("still spilled after the snapshot").isEqualTo(files);
    }
    space.assertCleanedUp(context);
    MemorySpillSpace again = new MemorySpillSpace();
    OperatorContext restoredContext = small(a, again);
    try (WindowedOperator restored = operator(restoredContext, n, out)) {
      restored.restoreState(state);
      if (n == 0) {
        assertThat(restored.spilledFiles()).as("spilled again while restoring").isPositive();
      }
      WindowedTesting.drive(restored, steps, cut, steps.size(), true, out, a);
    }
    again.assertCleanedUp(restoredContext);
    WindowedTesting.assertSameByStep(ranked(out.byStep, n), expected);
  }

  @Test
  void withoutASpillSpaceTheBudgetIsStillAnError(BufferAllocator a) {
    List<Step> steps = stream(30, 60, 12, 700);
    OperatorContext context = small(a, SpillSpace.NONE);
    Recorder out = new Recorder(TARGET, outputSchema(context));
    try (WindowedOperator operator = operator(context, 0, out)) {
      assertThatThrownBy(
              () -> WindowedTesting.drive(operator, steps, 0, steps.size(), true, out, a))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("small task");
      assertThat(operator.spills()).isZero();
    }
    assertThat(context.budget().used()).isZero();
  }

  /** What the operator gives with an unlimited budget, ranked at most n (n = 0: every row). */
  private static Map<Integer, List<List<Object>>> unlimited(
      BufferAllocator a, List<Step> steps, long n) {
    OperatorContext context = new OperatorContext(a, MemoryBudget.unlimited("unlimited"), TARGET);
    Recorder out = new Recorder(TARGET, outputSchema(context));
    try (WindowedOperator operator = operator(context, n, out)) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), true, out, a);
    }
    if (n == 0) {
      assertThat(context.budget().peak()).as("the unlimited run's peak").isGreaterThan(BUDGET);
    }
    Map<Integer, List<List<Object>>> expected = ranked(out.byStep, n);
    assertThat(expected).isNotEmpty();
    return expected;
  }

  private static long restoredBytes(BufferAllocator a, long n, byte[] state) {
    OperatorContext context = new OperatorContext(a, MemoryBudget.unlimited("unlimited"), TARGET);
    try (WindowedOperator operator = operator(context, n, b -> b.close())) {
      operator.restoreState(state);
      return context.budget().used();
    }
  }

  /** The rows numbered at most {@code n} (all for 0), by step. */
  private static Map<Integer, List<List<Object>>> ranked(
      Map<Integer, List<List<Object>>> byStep, long n) {
    Map<Integer, List<List<Object>>> kept = new TreeMap<>();
    byStep.forEach(
        (step, rows) -> {
          List<List<Object>> top =
              rows.stream().filter(row -> n == 0 || (Long) row.get(RN) <= n).toList();
          if (!top.isEmpty()) {
            kept.put(step, top);
          }
        });
    return kept;
  }

  private static OperatorContext small(BufferAllocator a, SpillSpace space) {
    return new OperatorContext(a, new MemoryBudget("small task", BUDGET), TARGET, space);
  }

  private static dev.quiver.operators.windowed.WindowedOperator operator(
      OperatorContext context, long n, dev.quiver.operators.BatchSink out) {
    PartitionTopN topN =
        n == 0
            ? null
            : new PartitionTopN(
                SCHEMA, PARTITION, ORDER, new WindowTopN(WindowFunction.ROW_NUMBER, n));
    return new WindowedOperator(
        context, SCHEMA, END, WindowedTesting.topN(context, ORDER, CALLS), topN, out);
  }

  private static org.apache.arrow.vector.types.pojo.Schema outputSchema(OperatorContext context) {
    return WindowedTesting.outputSchema(context, ORDER, CALLS);
  }
}
