package dev.quiver.operators.join;

import static dev.quiver.operators.join.WindowJoinTesting.BUILD;
import static dev.quiver.operators.join.WindowJoinTesting.END;
import static dev.quiver.operators.join.WindowJoinTesting.PROBE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.WindowJoinTesting.Recorder;
import dev.quiver.operators.join.WindowJoinTesting.Step;
import dev.quiver.operators.kernel.VersionOneSnapshots;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Snapshot mid-stream (open windows with rows of both inputs), close, restore into a new operator,
 * go on: the same rows at the same steps and the same counters as the run never interrupted, which
 * is also the batch join of each window's rows.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowJoinSnapshotTest {
  private static final int TARGET = 50;
  private static final int[] BUILD_KEY = {0};
  private static final int[] PROBE_KEY = {2};

  static List<JoinKind> kinds() {
    return HashJoinOperatorTest.kinds();
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void restoredJoinContinuesExactlyAsTheUninterruptedRun(JoinKind kind, BufferAllocator a) {
    List<Step> steps = WindowJoinTesting.stream(50 + kind.hashCode() % 1000, 10, 90);
    check(a, kind, steps, new int[] {0, 7, 30, 31, 61}, false);
  }

  /**
   * A savepoint of main's code, whose states are version 1 byte arrays (an int32 length before each
   * stream), restores to the same answer.
   */
  @ParameterizedTest
  @MethodSource("kinds")
  void restoresVersionOneStates(JoinKind kind, BufferAllocator a) {
    List<Step> steps = WindowJoinTesting.stream(60 + kind.hashCode() % 1000, 10, 90);
    check(a, kind, steps, new int[] {0, 7, 30, 61}, true);
  }

  /**
   * Runs {@code steps} whole, and again with a snapshot and restore before each of {@code cuts}.
   */
  static void check(
      BufferAllocator a, JoinKind kind, List<Step> steps, int[] cuts, boolean versionOne) {
    OperatorContext context = WindowJoinOperatorTest.context(a, TARGET);
    Map<Integer, List<List<Object>>> expected =
        WindowJoinTesting.expected(
            steps,
            new HashJoinCheck(kind, BUILD, BUILD_KEY, PROBE, PROBE_KEY).withTarget(TARGET),
            a);
    Recorder whole = recorder(kind);
    long late;
    long nulls;
    try (WindowJoinOperator join = operator(context, kind, whole)) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), true, whole, a);
      late = join.lateRows();
      nulls = join.rowsWithoutWindow();
    }
    Recorder pieces = recorder(kind);
    byte[] state = null;
    int from = 0;
    int openAtCuts = 0;
    for (int c = 0; c <= cuts.length; c++) {
      int to = c < cuts.length ? cuts[c] : steps.size();
      try (WindowJoinOperator join = operator(context, kind, pieces)) {
        if (state != null) {
          join.restoreState(state);
        }
        WindowJoinTesting.drive(join, steps, from, to, c == cuts.length, pieces, a);
        if (c < cuts.length) {
          openAtCuts += join.openWindows();
          state = join.snapshotState();
          assertThat(join.snapshotState()).as("a snapshot changes nothing").isEqualTo(state);
          if (versionOne) {
            state = VersionOneSnapshots.fromVersion2(state, a, BUILD, PROBE);
            assertThat(state[0]).isEqualTo((byte) 1);
          }
        } else {
          assertThat(join.lateRows()).isEqualTo(late);
          assertThat(join.rowsWithoutWindow()).isEqualTo(nulls);
        }
      }
      assertThat(context.budget().used()).isZero();
      from = to;
    }
    assertThat(openAtCuts).as("snapshots with open windows").isPositive();
    WindowJoinTesting.assertSameByStep(whole.byStep, expected);
    WindowJoinTesting.assertSameByStep(pieces.byStep, expected);
  }

  /** A snapshot after one input finished: the restored join needs only the other's finish. */
  @Test
  void aSnapshotKeepsWhichInputFinished(BufferAllocator a) {
    JoinKind kind = JoinKind.of(JoinType.FULL);
    List<Step> steps = WindowJoinTesting.stream(70, 6, 40);
    OperatorContext context = WindowJoinOperatorTest.context(a, TARGET);
    Map<Integer, List<List<Object>>> expected =
        WindowJoinTesting.expected(
            steps, new HashJoinCheck(kind, BUILD, BUILD_KEY, PROBE, PROBE_KEY), a);
    Recorder out = recorder(kind);
    byte[] state;
    try (WindowJoinOperator join = operator(context, kind, out)) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), false, out, a);
      out.step = steps.size();
      join.finish(0);
      state = join.snapshotState();
      assertThat(join.openWindows()).isPositive();
    }
    try (WindowJoinOperator restored = operator(context, kind, out)) {
      restored.restoreState(state);
      restored.finish(0); // as a restored task may say again: nothing
      assertThat(out.byStep).doesNotContainKey(steps.size());
      restored.finish(1);
      assertThat(restored.openWindows()).isZero();
    }
    WindowJoinTesting.assertSameByStep(out.byStep, expected);
    assertThat(context.budget().used()).isZero();
  }

  /** After the finish of both inputs the state holds the counters only; restoring it is done. */
  @Test
  void aSnapshotAfterFinish(BufferAllocator a) {
    JoinKind kind = JoinKind.of(JoinType.INNER);
    List<Step> steps = WindowJoinTesting.stream(71, 5, 30);
    OperatorContext context = WindowJoinOperatorTest.context(a, TARGET);
    byte[] state;
    long late;
    try (WindowJoinOperator join = operator(context, kind, recorder(kind))) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), true, recorder(kind), a);
      state = join.snapshotState();
      late = join.lateRows();
    }
    Recorder out = recorder(kind);
    try (WindowJoinOperator restored = operator(context, kind, out)) {
      restored.restoreState(state);
      assertThat(restored.lateRows()).isEqualTo(late);
      assertThat(restored.openWindows()).isZero();
      assertThat(restored.idle()).isTrue();
      restored.finish(1);
      restored.finish(0);
    }
    assertThat(out.byStep).isEmpty();
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void restoreRefusesAnotherJoinsStateAndComesBeforeInput(BufferAllocator a) {
    JoinKind kind = JoinKind.of(JoinType.INNER);
    OperatorContext context = WindowJoinOperatorTest.context(a, TARGET);
    List<Step> steps = WindowJoinTesting.stream(72, 5, 10);
    byte[] state;
    try (WindowJoinOperator join = operator(context, kind, recorder(kind))) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), false, recorder(kind), a);
      state = join.snapshotState();
      assertThat(state[0]).isEqualTo(WindowJoinSnapshot.VERSION);
      assertThatThrownBy(() -> join.restoreState(state))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before any input");
    }
    // Build and probe exchanged: the state's build rows are not of this join's build schema.
    try (WindowJoinOperator swapped =
        new WindowJoinOperator(
            context, kind, PROBE, PROBE_KEY, BUILD, BUILD_KEY, null, END, END, b -> b.close())) {
      assertThatThrownBy(() -> swapped.restoreState(state))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot restore a join of build rows");
    }
    byte[] future = state.clone();
    future[0] = 99;
    byte[] truncated = Arrays.copyOf(state, state.length / 2);
    for (byte[] bad : List.of(future, truncated, new byte[0])) {
      try (WindowJoinOperator join = operator(context, kind, recorder(kind))) {
        assertThatThrownBy(() -> join.restoreState(bad))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("window join state");
      }
    }
    assertThat(context.budget().used()).isZero();
  }

  private static Recorder recorder(JoinKind kind) {
    return new Recorder(TARGET, kind.type().outputSchema(PROBE, BUILD));
  }

  private static WindowJoinOperator operator(OperatorContext context, JoinKind kind, Recorder out) {
    return new WindowJoinOperator(
        context, kind, BUILD, BUILD_KEY, PROBE, PROBE_KEY, null, END, END, out);
  }
}
