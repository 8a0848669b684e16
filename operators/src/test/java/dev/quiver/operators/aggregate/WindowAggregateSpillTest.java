package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.WindowTesting.CALLS;
import static dev.quiver.operators.aggregate.WindowTesting.END;
import static dev.quiver.operators.aggregate.WindowTesting.K;
import static dev.quiver.operators.aggregate.WindowTesting.NAME;
import static dev.quiver.operators.aggregate.WindowTesting.SCHEMA;
import static dev.quiver.operators.aggregate.WindowTesting.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.WindowTesting.Recorder;
import dev.quiver.operators.aggregate.WindowTesting.Shape;
import dev.quiver.operators.aggregate.WindowTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Window aggregates whose open windows do not fit in a small budget: with a spill space they give
 * the rows of the same aggregate with an unlimited budget, at the same watermarks (PARTIAL by
 * emitting its windows early, FINAL and SINGLE by spilling windows to disk and merging them back
 * when the watermark completes them), also across a snapshot taken while windows are spilled; and
 * nothing is left behind (budget, spill files, readers, Arrow memory).
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowAggregateSpillTest {
  private static final int[] KEYS = {START, END, K, NAME};
  private static final long SECOND = 1_000_000;
  private static final long BUDGET = 192 * 1024;
  private static final int TARGET = 500;

  /** HOP(10 s, 2 s): five windows per row, about 1,400 mostly distinct groups per window. */
  private static List<Step> steps(long seed) {
    return WindowTesting.stream(
        new Shape(seed, 10 * SECOND, 2 * SECOND, 40, 300, 2000, 0.02, 0.01, 5000));
  }

  @Test
  void singleSpillsWindowsAndEmitsTheUnlimitedResultAtTheSameWatermarks(BufferAllocator allocator) {
    List<Step> steps = steps(70);
    Recorder expected = unlimited(allocator, steps);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(allocator, space);
    Recorder out = new Recorder(TARGET);
    try (WindowAggregateOperator operator = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      WindowTesting.drive(operator, steps, 0, steps.size(), true, out, allocator);
      assertThat(operator.spills()).isPositive();
    }
    assertThat(space.spilledFiles()).as("windows spilled").isPositive();
    assertThat(space.spilledRows()).isPositive();
    space.assertCleanedUp(context);
    assertSameOutput(out, expected);
  }

  @Test
  void partialsEmitEarlyAndTheFinalSpillsAndBothEqualTheUnlimitedSingle(BufferAllocator allocator) {
    List<Step> steps = steps(71);
    Recorder expected = unlimited(allocator, steps);
    Schema states = HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.PARTIAL, KEYS, CALLS);
    MemorySpillSpace finalSpace = new MemorySpillSpace();
    MemorySpillSpace partialSpace = new MemorySpillSpace();
    OperatorContext finalContext = small(allocator, finalSpace);
    List<OperatorContext> partialContexts = new ArrayList<>(); // one task each
    Recorder out = new Recorder(TARGET);
    List<WindowAggregateOperator> partials = new ArrayList<>();
    try (WindowAggregateOperator fin = operator(finalContext, states, AggregateMode.FINAL, out)) {
      for (int p = 0; p < 2; p++) {
        partialContexts.add(small(allocator, partialSpace));
        partials.add(
            operator(partialContexts.get(p), SCHEMA, AggregateMode.PARTIAL, b -> fin.add(0, b)));
      }
      for (int s = 0; s < steps.size(); s++) {
        out.step = s;
        Step step = steps.get(s);
        if (step.isWatermark()) {
          partials.forEach(p -> p.watermark(step.watermark())); // their states reach the final
          fin.watermark(step.watermark()); // then the watermark does
        } else {
          for (int p = 0; p < 2; p++) {
            partials.get(p).add(0, WindowTesting.batch(half(step.rows(), p), allocator));
          }
        }
      }
      out.step = steps.size();
      partials.forEach(p -> p.finish(0));
      fin.finish(0);
      assertThat(fin.lateRows()).as("early states are never late").isZero();
      assertThat(partials.stream().mapToLong(WindowAggregateOperator::spills).sum())
          .as("partials emitted early")
          .isPositive();
      assertThat(fin.spills()).as("the final spilled").isPositive();
    } finally {
      partials.forEach(WindowAggregateOperator::close);
    }
    assertThat(partialSpace.spilledFiles()).as("PARTIAL needs no disk").isZero();
    assertThat(finalSpace.spilledFiles()).isPositive();
    finalSpace.assertCleanedUp(finalContext);
    partialContexts.forEach(partialSpace::assertCleanedUp);
    assertSameOutput(out, expected);
  }

  /**
   * A snapshot taken while windows are spilled holds their groups: restored into a new operator
   * with the same small budget (which spills again while restoring) it goes on to the output of the
   * uninterrupted unlimited run.
   */
  @Test
  void aSnapshotOfSpilledWindowsRestoresIntoTheSameSmallBudget(BufferAllocator allocator) {
    List<Step> steps = steps(72);
    Recorder expected = unlimited(allocator, steps);
    Recorder out = new Recorder(TARGET);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(allocator, space);
    byte[] state;
    int cut = steps.size() / 2;
    try (WindowAggregateOperator operator = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      WindowTesting.drive(operator, steps, 0, cut, false, out, allocator);
      while (operator.spilledRuns() == 0 || steps.get(cut - 1).isWatermark()) {
        WindowTesting.drive(operator, steps, cut, cut + 1, false, out, allocator);
        cut++;
      }
      long files = space.spilledFiles();
      long bytes = space.spilledBytes();
      state = operator.snapshotState();
      assertThat(state[0]).isEqualTo(WindowSnapshot.VERSION);
      assertThat(operator.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
      assertThat(space.spilledFiles()).as("the runs are reread, not copied").isEqualTo(files);
      assertThat(space.spilledBytes()).isEqualTo(bytes);
      assertThat(operator.spilledRuns()).as("still spilled after the snapshot").isPositive();
    }
    space.assertCleanedUp(context);
    MemorySpillSpace again = new MemorySpillSpace();
    OperatorContext restoredContext = small(allocator, again);
    try (WindowAggregateOperator restored =
        operator(restoredContext, SCHEMA, AggregateMode.SINGLE, out)) {
      restored.restoreState(state);
      assertThat(restored.spilledRuns()).as("spilled again while restoring").isPositive();
      WindowTesting.drive(restored, steps, cut, steps.size(), true, out, allocator);
    }
    again.assertCleanedUp(restoredContext);
    assertSameOutput(out, expected);
  }

  /**
   * The checkpoint stream fails while a spilled window's run is being written to it: the snapshot
   * fails, the operator keeps its windows (the runs are reread, never used up), and a later
   * snapshot restores into a new operator that goes on to the output of the uninterrupted run.
   */
  @Test
  void aSnapshotStreamThatFailsLeavesTheSpilledWindowsIntact(BufferAllocator allocator)
      throws IOException {
    List<Step> steps = steps(72);
    Recorder expected = unlimited(allocator, steps);
    Recorder out = new Recorder(TARGET);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = small(allocator, space);
    byte[] state;
    int cut = steps.size() / 2;
    try (WindowAggregateOperator operator = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      WindowTesting.drive(operator, steps, 0, cut, false, out, allocator);
      while (operator.spilledRuns() == 0 || steps.get(cut - 1).isWatermark()) {
        WindowTesting.drive(operator, steps, cut, cut + 1, false, out, allocator);
        cut++;
      }
      int size = operator.snapshotState().length;
      OutputStream failing =
          new OutputStream() {
            @Override
            public void write(int b) throws IOException {
              write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              if (space.openReaders() > 0) { // a run is being read
                throw new IOException("checkpoint storage is full");
              }
            }
          };
      assertThatThrownBy(() -> operator.snapshotState(failing))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("full");
      assertThat(operator.spilledRuns()).as("the runs are still there").isPositive();
      state = operator.snapshotState();
      assertThat(state).hasSize(size);
    }
    space.assertCleanedUp(context);
    MemorySpillSpace again = new MemorySpillSpace();
    OperatorContext restoredContext = small(allocator, again);
    try (WindowAggregateOperator restored =
        operator(restoredContext, SCHEMA, AggregateMode.SINGLE, out)) {
      restored.restoreState(state);
      WindowTesting.drive(restored, steps, cut, steps.size(), true, out, allocator);
    }
    again.assertCleanedUp(restoredContext);
    assertSameOutput(out, expected);
  }

  /** A version 1 snapshot (no spilled windows, each group once) is read as before. */
  @Test
  void aVersionOneSnapshotStillRestores(BufferAllocator allocator) {
    List<Step> steps = steps(73);
    Recorder expected = unlimited(allocator, steps);
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, TARGET);
    Recorder out = new Recorder(TARGET);
    int cut = steps.get(20).isWatermark() ? 21 : 20;
    byte[] state;
    try (WindowAggregateOperator operator = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      WindowTesting.drive(operator, steps, 0, cut, false, out, allocator);
      state = operator.snapshotState();
    }
    state[0] = 1; // the same layout: without spilled windows no group repeats
    try (WindowAggregateOperator restored = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      restored.restoreState(state);
      WindowTesting.drive(restored, steps, cut, steps.size(), true, out, allocator);
    }
    assertSameOutput(out, expected);
  }

  /**
   * The sink fails at the k-th batch emitted while windows are spilled (the window being merged or
   * later ones hold runs): close leaves no spill file, reader or memory behind.
   */
  @Test
  void aFailureWhileWindowsAreSpilledLeavesNothingBehind(BufferAllocator allocator) {
    List<Step> steps = steps(74);
    for (int k : new int[] {0, 3, 40}) {
      MemorySpillSpace space = new MemorySpillSpace();
      OperatorContext context = small(allocator, space);
      WindowAggregateOperator[] operator = new WindowAggregateOperator[1];
      int[] seen = new int[1];
      dev.quiver.operators.BatchSink sink =
          batch -> {
            batch.close();
            if (operator[0].spilledRuns() > 0 && seen[0]++ == k) {
              throw new IllegalStateException("sink fails");
            }
          };
      operator[0] = operator(context, SCHEMA, AggregateMode.SINGLE, sink);
      try (WindowAggregateOperator failing = operator[0]) {
        assertThatThrownBy(
                () ->
                    WindowTesting.drive(
                        failing, steps, 0, steps.size(), true, new Recorder(TARGET), allocator))
            .hasMessageContaining("sink fails");
        assertThat(space.liveFiles()).as("runs held at the failure").isPositive();
      }
      space.assertCleanedUp(context);
    }
  }

  @Test
  void withoutASpillSpaceTheBudgetIsStillAnError(BufferAllocator allocator) {
    List<Step> steps = steps(70);
    OperatorContext context = small(allocator, SpillSpace.NONE);
    try (WindowAggregateOperator operator =
        operator(context, SCHEMA, AggregateMode.SINGLE, b -> b.close())) {
      Recorder ignored = new Recorder(TARGET);
      assertThatThrownBy(
              () ->
                  WindowTesting.drive(operator, steps, 0, steps.size(), false, ignored, allocator))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("keeps the groups of every open window in memory and cannot spill")
          .hasMessageContaining("small task");
      assertThat(operator.spills()).isZero();
    }
    assertThat(context.budget().used()).isZero();
  }

  private static List<WindowTesting.Row> half(List<WindowTesting.Row> rows, int p) {
    List<WindowTesting.Row> part = new ArrayList<>();
    for (int i = p; i < rows.size(); i += 2) {
      part.add(rows.get(i));
    }
    return part;
  }

  private static void assertSameOutput(Recorder out, Recorder expected) {
    assertThat(expected.rows()).isNotEmpty();
    AggregateTesting.assertResults(out.results(KEYS.length), expected.results(KEYS.length), 0);
    assertThat(WindowAggregatePartialFinalTest.byStep(out))
        .isEqualTo(WindowAggregatePartialFinalTest.byStep(expected));
  }

  private static Recorder unlimited(BufferAllocator allocator, List<Step> steps) {
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, TARGET);
    Recorder out = new Recorder(TARGET);
    try (WindowAggregateOperator operator = operator(context, SCHEMA, AggregateMode.SINGLE, out)) {
      WindowTesting.drive(operator, steps, 0, steps.size(), true, out, allocator);
    }
    return out;
  }

  private static OperatorContext small(BufferAllocator allocator, SpillSpace space) {
    return new OperatorContext(allocator, new MemoryBudget("small task", BUDGET), TARGET, space);
  }

  private static WindowAggregateOperator operator(
      OperatorContext context,
      Schema input,
      AggregateMode mode,
      dev.quiver.operators.BatchSink out) {
    return new WindowAggregateOperator(context, input, mode, KEYS, CALLS, END, out);
  }
}
