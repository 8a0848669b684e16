package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.WindowTesting.CALLS;
import static dev.quiver.operators.aggregate.WindowTesting.END;
import static dev.quiver.operators.aggregate.WindowTesting.K;
import static dev.quiver.operators.aggregate.WindowTesting.NAME;
import static dev.quiver.operators.aggregate.WindowTesting.PRICE;
import static dev.quiver.operators.aggregate.WindowTesting.SCHEMA;
import static dev.quiver.operators.aggregate.WindowTesting.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.WindowTesting.Recorder;
import dev.quiver.operators.aggregate.WindowTesting.Shape;
import dev.quiver.operators.aggregate.WindowTesting.Step;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Snapshot, close, restore into a new operator, go on: exactly the output rows (at the same steps)
 * and counters of the run that was never interrupted. Only the order of the groups within one
 * watermark's output may differ: a restore makes the groups anew, and a hash table's vectorized
 * insert numbers the keys of one batch in its own order, not the batch's.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowAggregateSnapshotTest {
  private static final int[] KEYS = {START, END, K, NAME, PRICE};

  @Test
  void restoredSingleContinuesExactlyAsTheUninterruptedRun(BufferAllocator allocator) {
    Shape shape = new Shape(60, 1_000_000, 1_000_000, 30, 120, 400, 0.05, 0.02, 5);
    List<Step> steps = WindowTesting.stream(shape);
    int mid = steps.size() / 2;
    int batch = steps.get(mid).isWatermark() ? mid + 1 : mid; // after a batch: between watermarks
    check(allocator, AggregateMode.SINGLE, KEYS, steps, new int[] {0, 3, batch, batch + 1});
  }

  @Test
  void restoredPartialOfHoppingWindowsContinuesExactly(BufferAllocator allocator) {
    Shape shape = new Shape(61, 2_000_000, 500_000, 20, 100, 600, 0.05, 0.02, 4);
    List<Step> steps = WindowTesting.stream(shape);
    check(
        allocator, AggregateMode.PARTIAL, new int[] {START, END, K}, steps, new int[] {5, 17, 30});
  }

  /** A watermark beyond every window: the snapshot after it holds no window, only the counters. */
  @Test
  void aSnapshotWithoutOpenWindows(BufferAllocator allocator) {
    Shape shape = new Shape(62, 1_000_000, 1_000_000, 20, 100, 300, 0.05, 0.02, 4);
    List<Step> steps = new ArrayList<>(WindowTesting.stream(shape));
    int cut = 15;
    long maxTs = 0;
    for (Step step : steps.subList(0, cut)) {
      for (WindowTesting.Row row :
          step.isWatermark() ? List.<WindowTesting.Row>of() : step.rows()) {
        maxTs = row.end() == null ? maxTs : Math.max(maxTs, row.end());
      }
    }
    steps.add(cut, Step.watermark(maxTs / 1000)); // every window so far complete
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, 8192);
    Recorder out = new Recorder(8192);
    try (WindowAggregateOperator operator = single(context, out)) {
      WindowTesting.drive(operator, steps, 0, cut + 1, false, out, allocator);
      assertThat(operator.openWindows()).isZero();
      assertThat(operator.lateRows()).isPositive();
    }
    check(allocator, AggregateMode.SINGLE, KEYS, steps, new int[] {cut + 1});
  }

  /** After finish the state is empty but for the counters; restoring it takes no more input. */
  @Test
  void aSnapshotAfterFinish(BufferAllocator allocator) {
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, 8192);
    Shape shape = new Shape(63, 1_000_000, 1_000_000, 5, 50, 300, 0.1, 0.1, 4);
    List<Step> steps = WindowTesting.stream(shape);
    byte[] state;
    long late;
    try (WindowAggregateOperator operator = single(context, b -> b.close())) {
      WindowTesting.drive(operator, steps, 0, steps.size(), true, new Recorder(8192), allocator);
      state = operator.snapshotState();
      late = operator.lateRows();
    }
    Recorder out = new Recorder(8192);
    try (WindowAggregateOperator restored = single(context, out)) {
      restored.restoreState(state);
      assertThat(restored.lateRows()).isEqualTo(late);
      assertThat(restored.openWindows()).isZero();
      restored.finish(0);
    }
    assertThat(out.rows()).isEmpty();
  }

  @Test
  void restoreRefusesAnotherAggregatesStateAndComesBeforeInput(BufferAllocator allocator) {
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, 8192);
    byte[] state;
    try (WindowAggregateOperator operator = single(context, b -> b.close())) {
      Shape shape = new Shape(64, 1_000_000, 1_000_000, 3, 50, 300, 0, 0, 4);
      List<Step> steps = WindowTesting.stream(shape);
      WindowTesting.drive(operator, steps, 0, 1, false, new Recorder(8192), allocator);
      state = operator.snapshotState();
      assertThat(state[0]).isEqualTo(WindowSnapshot.VERSION);
      assertThatThrownBy(() -> operator.restoreState(state))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before any input");
    }
    try (WindowAggregateOperator other =
        new WindowAggregateOperator(
            context,
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {START, END},
            CALLS.subList(0, 3),
            END,
            b -> b.close())) {
      assertThatThrownBy(() -> other.restoreState(state))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot restore an aggregate of groups");
    }
    byte[] future = state.clone();
    future[0] = 99;
    try (WindowAggregateOperator operator = single(context, b -> b.close())) {
      assertThatThrownBy(() -> operator.restoreState(future))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("version 99");
    }
    assertThat(context.budget().used()).isZero();
  }

  private static WindowAggregateOperator single(
      OperatorContext context, dev.quiver.operators.BatchSink sink) {
    return new WindowAggregateOperator(
        context, SCHEMA, AggregateMode.SINGLE, KEYS, CALLS, END, sink);
  }

  /**
   * Runs {@code steps} once without interruption and once snapshotting and restoring into a new
   * operator before each step of {@code cuts}; both give the same rows at the same steps.
   */
  static void check(
      BufferAllocator allocator, AggregateMode mode, int[] keys, List<Step> steps, int[] cuts) {
    OperatorContext context = WindowAggregateOperatorTest.context(allocator, 50);
    Function<Recorder, WindowAggregateOperator> factory =
        out -> new WindowAggregateOperator(context, SCHEMA, mode, keys, CALLS, END, out);
    Recorder whole = new Recorder(50);
    long late;
    long nulls;
    try (WindowAggregateOperator operator = factory.apply(whole)) {
      WindowTesting.drive(operator, steps, 0, steps.size(), true, whole, allocator);
      late = operator.lateRows();
      nulls = operator.rowsWithoutWindow();
    }
    Recorder pieces = new Recorder(50);
    byte[] state = null;
    int from = 0;
    for (int c = 0; c <= cuts.length; c++) {
      int to = c < cuts.length ? cuts[c] : steps.size();
      try (WindowAggregateOperator operator = factory.apply(pieces)) {
        if (state != null) {
          operator.restoreState(state);
        }
        WindowTesting.drive(operator, steps, from, to, c == cuts.length, pieces, allocator);
        if (c < cuts.length) {
          state = operator.snapshotState();
          assertThat(operator.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
        } else {
          assertThat(operator.lateRows()).isEqualTo(late);
          assertThat(operator.rowsWithoutWindow()).isEqualTo(nulls);
        }
      }
      assertThat(context.budget().used()).isZero();
      from = to;
    }
    assertThat(whole.rows()).isNotEmpty();
    assertThat(WindowAggregatePartialFinalTest.byStep(pieces))
        .isEqualTo(WindowAggregatePartialFinalTest.byStep(whole));
    assertThat(pieces.rows()).hasSameSizeAs(whole.rows());
  }
}
