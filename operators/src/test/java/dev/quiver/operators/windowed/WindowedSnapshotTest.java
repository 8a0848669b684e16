package dev.quiver.operators.windowed;

import static dev.quiver.operators.windowed.WindowedTesting.SCHEMA;
import static dev.quiver.operators.windowed.WindowedTesting.windowEnd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.VersionOneSnapshots;
import dev.quiver.operators.windowed.WindowedTesting.Recorder;
import dev.quiver.operators.windowed.WindowedTesting.Step;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Snapshot mid-stream (open windows), close, restore into a new operator, go on: the same rows at
 * the same steps and the same counters as the run never interrupted, which is also the batch answer
 * over each window's rows.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowedSnapshotTest {
  private static final int TARGET = 50;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {50, 51, 52})
  void restoredOperatorContinuesExactlyAsTheUninterruptedRun(long seed, BufferAllocator a) {
    check(seed, a, false);
  }

  /**
   * A savepoint of main's code, whose states are version 1 byte arrays (an int32 length before the
   * stream), restores to the same answer.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {53, 54})
  void restoresVersionOneStates(long seed, BufferAllocator a) {
    check(seed, a, true);
  }

  private static void check(long seed, BufferAllocator a, boolean versionOne) {
    List<Step> steps = WindowedTesting.stream(seed, 10, 90);
    int[] cuts = {0, 7, 30, 31, 61};
    OperatorContext context = WindowedOperatorTest.context(a, TARGET);
    Map<Integer, List<List<Object>>> expected = WindowedTesting.expected(steps, context, a);
    Recorder whole = recorder(context);
    long late;
    long nulls;
    try (WindowedOperator operator = WindowedOperatorTest.operator(context, whole)) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), true, whole, a);
      late = operator.lateRows();
      nulls = operator.rowsWithoutWindow();
    }
    Recorder pieces = recorder(context);
    byte[] state = null;
    int from = 0;
    int openAtCuts = 0;
    for (int c = 0; c <= cuts.length; c++) {
      int to = c < cuts.length ? cuts[c] : steps.size();
      try (WindowedOperator operator = WindowedOperatorTest.operator(context, pieces)) {
        if (state != null) {
          operator.restoreState(state);
        }
        WindowedTesting.drive(operator, steps, from, to, c == cuts.length, pieces, a);
        if (c < cuts.length) {
          openAtCuts += operator.openWindows();
          state = operator.snapshotState();
          assertThat(operator.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
          if (versionOne) {
            state = VersionOneSnapshots.fromVersion2(state, a, SCHEMA);
            assertThat(state[0]).isEqualTo((byte) 1);
          }
        } else {
          assertThat(operator.lateRows()).isEqualTo(late);
          assertThat(operator.rowsWithoutWindow()).isEqualTo(nulls);
        }
      }
      assertThat(context.budget().used()).isZero();
      from = to;
    }
    assertThat(openAtCuts).as("snapshots with open windows").isPositive();
    WindowedTesting.assertSameByStep(whole.byStep, expected);
    WindowedTesting.assertSameByStep(pieces.byStep, expected);
  }

  /** After the finish the state holds the counters only; restoring it is done. */
  @Test
  void aSnapshotAfterFinish(BufferAllocator a) {
    List<Step> steps = WindowedTesting.stream(71, 5, 30);
    OperatorContext context = WindowedOperatorTest.context(a, TARGET);
    byte[] state;
    long late;
    try (WindowedOperator operator = WindowedOperatorTest.operator(context, recorder(context))) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), true, recorder(context), a);
      state = operator.snapshotState();
      late = operator.lateRows();
    }
    Recorder out = recorder(context);
    try (WindowedOperator restored = WindowedOperatorTest.operator(context, out)) {
      restored.restoreState(state);
      assertThat(restored.lateRows()).isEqualTo(late);
      assertThat(restored.openWindows()).isZero();
      assertThat(restored.idle()).isTrue();
      restored.finish(0);
    }
    assertThat(out.byStep).isEmpty();
    assertThat(context.budget().used()).isZero();
  }

  /** The watermark survives: a row of a window it completed is late after the restore too. */
  @Test
  void theWatermarkSurvivesARestore(BufferAllocator a) {
    OperatorContext context = WindowedOperatorTest.context(a, TARGET);
    byte[] state;
    try (WindowedOperator operator = WindowedOperatorTest.operator(context, recorder(context))) {
      operator.add(0, Step.batch(1, windowEnd(2), windowEnd(4)).batch(a));
      operator.watermark(windowEnd(2) / 1000);
      state = operator.snapshotState();
    }
    Recorder out = recorder(context);
    try (WindowedOperator restored = WindowedOperatorTest.operator(context, out)) {
      restored.restoreState(state);
      assertThat(restored.currentWatermark()).isEqualTo(windowEnd(2) / 1000);
      assertThat(restored.openWindows()).isOne();
      restored.add(0, Step.batch(2, windowEnd(2), windowEnd(4)).batch(a));
      assertThat(restored.lateRows()).isOne();
      restored.watermark(windowEnd(4) / 1000);
    }
    assertThat(out.byStep.get(0)).hasSize(2);
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void restoreRefusesAnotherOperatorsStateAndComesBeforeInput(BufferAllocator a) {
    OperatorContext context = WindowedOperatorTest.context(a, TARGET);
    List<Step> steps = WindowedTesting.stream(72, 5, 10);
    byte[] state;
    try (WindowedOperator operator = WindowedOperatorTest.operator(context, recorder(context))) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), false, recorder(context), a);
      state = operator.snapshotState();
      assertThat(state[0]).isEqualTo(WindowedSnapshot.VERSION);
      assertThatThrownBy(() -> operator.restoreState(state))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before any input");
    }
    // Another input schema (the window end where the id was): the rows are not of its types.
    List<Field> fields = new ArrayList<>(SCHEMA.getFields());
    fields.add(fields.remove(3));
    Schema other = new Schema(fields);
    try (WindowedOperator swapped =
        new WindowedOperator(context, other, 3, WindowedTesting.topN(context), b -> b.close())) {
      assertThatThrownBy(() -> swapped.restoreState(state))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot restore an operator of rows");
    }
    byte[] future = state.clone();
    future[0] = 99;
    byte[] truncated = Arrays.copyOf(state, state.length / 2);
    for (byte[] bad : List.of(future, truncated, new byte[0])) {
      try (WindowedOperator operator = WindowedOperatorTest.operator(context, recorder(context))) {
        assertThatThrownBy(() -> operator.restoreState(bad))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("per-window state");
      }
    }
    assertThat(context.budget().used()).isZero();
  }

  private static Recorder recorder(OperatorContext context) {
    return new Recorder(TARGET, WindowedTesting.outputSchema(context));
  }
}
