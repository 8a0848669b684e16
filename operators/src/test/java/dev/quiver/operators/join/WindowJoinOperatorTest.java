package dev.quiver.operators.join;

import static dev.quiver.operators.join.WindowJoinTesting.BUILD;
import static dev.quiver.operators.join.WindowJoinTesting.END;
import static dev.quiver.operators.join.WindowJoinTesting.PROBE;
import static dev.quiver.operators.join.WindowJoinTesting.windowEnd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.JoinHarness.RowFilter;
import dev.quiver.operators.join.WindowJoinTesting.Recorder;
import dev.quiver.operators.join.WindowJoinTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The window join against the batch hash join of each window's on-time rows (the oracle), emitted
 * at the first watermark that completes the window (or at the finish of both inputs), every join
 * kind; then the edges: the completion boundary, late rows, finish, idleness, the budget.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowJoinOperatorTest {
  static final int[] BUILD_KEY = {0};
  static final int[] PROBE_KEY = {2};

  static List<JoinKind> kinds() {
    return HashJoinOperatorTest.kinds();
  }

  static Stream<JoinKind> plainKinds() {
    return HashJoinOperatorTest.plainKinds();
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void everyKindJoinsEachWindowAsTheBatchJoinOfItsRows(JoinKind kind, BufferAllocator a) {
    List<Step> steps = WindowJoinTesting.stream(10 + kind.hashCode() % 1000, 10, 80);
    check(a, kind, BUILD_KEY, PROBE_KEY, null, steps, 16);
    check(a, kind, BUILD_KEY, PROBE_KEY, null, steps, 8192);
  }

  @ParameterizedTest
  @MethodSource("plainKinds")
  void aResidualFilterOnTwoKeyColumns(JoinKind kind, BufferAllocator a) {
    List<Step> steps = WindowJoinTesting.stream(20 + kind.hashCode() % 1000, 8, 70);
    check(a, kind, new int[] {0, 1}, new int[] {2, 0}, HashJoinOperatorTest.SOME, steps, 32);
    check(a, kind, BUILD_KEY, PROBE_KEY, HashJoinOperatorTest.SOME, steps, 32);
  }

  /**
   * Runs {@code steps} through a window join and checks, step by step, its output against the batch
   * join of each window's rows, the counters, the budget, and that it holds nothing after.
   */
  static void check(
      BufferAllocator a,
      JoinKind kind,
      int[] buildKeys,
      int[] probeKeys,
      RowFilter filter,
      List<Step> steps,
      int target) {
    HashJoinCheck batchJoin =
        new HashJoinCheck(kind, BUILD, buildKeys, PROBE, probeKeys).withTarget(target);
    Map<Integer, List<List<Object>>> expected =
        WindowJoinTesting.expected(
            steps, filter == null ? batchJoin : batchJoin.withFilter(filter), a);
    OperatorContext context = context(a, target);
    long[] counts = WindowJoinTesting.counts(steps);
    Recorder out = new Recorder(target, kind.type().outputSchema(PROBE, BUILD));
    try (WindowJoinOperator operator = operator(context, kind, buildKeys, probeKeys, filter, out)) {
      assertThat(operator.outputSchema()).isEqualTo(kind.type().outputSchema(PROBE, BUILD));
      WindowJoinTesting.drive(operator, steps, 0, steps.size(), true, out, a);
      assertThat(operator.lateRows()).isEqualTo(counts[1]);
      assertThat(operator.rowsWithoutWindow()).isEqualTo(counts[2]);
      assertThat(operator.openWindows()).isZero();
      assertThat(operator.idle()).isTrue();
    }
    WindowJoinTesting.assertSameByStep(out.byStep, expected);
    assertThat(counts[1]).as("the stream has late rows").isPositive();
    assertThat(counts[2]).as("the stream has rows without a window").isPositive();
    assertThat(expected.keySet().stream().filter(s -> s < steps.size()))
        .as("watermarks complete windows")
        .isNotEmpty();
    assertThat(context.budget().used()).isZero();
  }

  static WindowJoinOperator operator(
      OperatorContext context,
      JoinKind kind,
      int[] buildKeys,
      int[] probeKeys,
      RowFilter filter,
      Recorder out) {
    return new WindowJoinOperator(
        context, kind, BUILD, buildKeys, PROBE, probeKeys, filter, END, END, out);
  }

  static OperatorContext context(BufferAllocator a, int target) {
    return new OperatorContext(a, new MemoryBudget("window join test", Long.MAX_VALUE), target);
  }

  private static Step batch(int input, long seed, long... ends) {
    Long[] boxed = new Long[ends.length];
    for (int i = 0; i < ends.length; i++) {
      boxed[i] = ends[i];
    }
    return new Step(input, seed, boxed, 0);
  }

  /**
   * Window 2 ends on a whole millisecond, window 3 a microsecond after one: each is complete once
   * the watermark reaches the millisecond of its last microsecond, not before.
   */
  @Test
  void aWindowIsJoinedOnceTheWatermarkReachesItsLastMillisecond(BufferAllocator a) {
    long onGrid = windowEnd(2); // 2 s after T0, on the grid
    long offGrid = windowEnd(3); // 3 s after T0 and 1 µs
    assertThat(onGrid % 1000).isZero();
    assertThat(offGrid % 1000).isOne();
    Recorder out = new Recorder(8192, JoinType.FULL.outputSchema(PROBE, BUILD));
    OperatorContext context = context(a, 8192);
    try (WindowJoinOperator join =
        operator(context, JoinKind.of(JoinType.FULL), BUILD_KEY, PROBE_KEY, null, out)) {
      join.add(0, batch(0, 1, onGrid, offGrid, onGrid).batch(a));
      join.add(1, batch(1, 2, offGrid, onGrid).batch(a));
      join.watermark(onGrid / 1000 - 2);
      assertThat(out.rows()).as("a millisecond before the boundary").isEmpty();
      assertThat(join.openWindows()).isEqualTo(2);
      join.watermark(onGrid / 1000 - 1); // (w + 1) · 1000 = end: complete
      assertThat(out.rows()).isNotEmpty();
      assertThat(out.rows()).allSatisfy(row -> assertThat(windowOf(row)).isEqualTo(onGrid));
      int first = out.rows().size();
      join.watermark(offGrid / 1000 - 1); // (w + 1) · 1000 = end - 1 µs: not complete
      assertThat(out.rows()).hasSize(first);
      assertThat(join.openWindows()).isOne();
      join.watermark(offGrid / 1000); // its last microsecond's millisecond
      assertThat(out.rows().size()).isGreaterThan(first);
      assertThat(join.openWindows()).isZero();
      // A row of a joined window now is late, even within the last millisecond.
      join.add(1, batch(1, 3, onGrid, offGrid).batch(a));
      assertThat(join.lateRows()).isEqualTo(2);
      assertThat(join.openWindows()).isZero();
    }
    assertThat(context.budget().used()).isZero();
  }

  /** FULL: every row shows up, so the window of each output row is that of one of its sides. */
  private static long windowOf(List<Object> row) {
    Object probeEnd = row.get(END);
    return WindowJoinTesting.micros(
        probeEnd != null ? probeEnd : row.get(PROBE.getFields().size() + END));
  }

  @Test
  void lateRowsAndRowsWithoutAWindowEndAreDroppedAndCounted(BufferAllocator a) {
    Recorder out = new Recorder(8192, JoinType.INNER.outputSchema(PROBE, BUILD));
    OperatorContext context = context(a, 8192);
    try (WindowJoinOperator join =
        operator(context, JoinKind.of(JoinType.INNER), BUILD_KEY, PROBE_KEY, null, out)) {
      Step nulls = new Step(0, 4, new Long[] {null, windowEnd(5), null}, 0);
      join.add(0, nulls.batch(a));
      assertThat(join.rowsWithoutWindow()).isEqualTo(2);
      join.watermark(windowEnd(4) / 1000 - 1);
      join.add(0, batch(0, 5, windowEnd(1), windowEnd(4), windowEnd(5)).batch(a));
      join.add(1, batch(1, 6, windowEnd(4), windowEnd(4), windowEnd(6)).batch(a));
      assertThat(join.lateRows()).isEqualTo(4);
      assertThat(join.openWindows()).isEqualTo(2); // 5 and 6
      assertThat(join.idle()).isFalse();
      join.watermark(windowEnd(4) / 1000); // does not complete 5
      join.watermark(windowEnd(3) / 1000); // goes back: nothing
      assertThat(join.currentWatermark()).isEqualTo(windowEnd(4) / 1000);
      assertThat(join.openWindows()).isEqualTo(2);
    }
    assertThat(out.rows()).isEmpty();
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void finishingOneInputEmitsNothingBothEmitEveryWindowLeft(BufferAllocator a) {
    List<Step> steps = WindowJoinTesting.stream(30, 6, 40);
    JoinKind kind = JoinKind.of(JoinType.FULL);
    Map<Integer, List<List<Object>>> expected =
        WindowJoinTesting.expected(
            steps, new HashJoinCheck(kind, BUILD, BUILD_KEY, PROBE, PROBE_KEY), a);
    OperatorContext context = context(a, 64);
    Recorder out = new Recorder(64, kind.type().outputSchema(PROBE, BUILD));
    try (WindowJoinOperator join = operator(context, kind, BUILD_KEY, PROBE_KEY, null, out)) {
      WindowJoinTesting.drive(join, steps, 0, steps.size(), false, out, a);
      assertThat(join.openWindows()).isPositive();
      assertThat(join.idle()).as("open windows wait for a watermark").isFalse();
      assertThat(context.budget().used()).isPositive();
      out.step = steps.size();
      join.finish(1);
      join.finish(1); // again: nothing
      assertThat(out.byStep).doesNotContainKey(steps.size());
      join.add(0, batch(0, 7).batch(a)); // the build input goes on
      assertThatThrownBy(() -> join.add(1, batch(1, 8).batch(a)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("after its finish");
      join.finish(0);
      assertThat(join.idle()).isTrue();
      assertThat(context.budget().used()).isZero();
      join.watermark(Long.MAX_VALUE); // finished: nothing
      assertThatThrownBy(() -> join.add(0, batch(0, 9).batch(a)))
          .isInstanceOf(IllegalStateException.class);
      assertThat(join.snapshotState()).isNotEmpty(); // the counters, after finish
    }
    WindowJoinTesting.assertSameByStep(out.byStep, expected);
  }

  /** A hundred windows of two matching rows, all completed by one watermark, in full batches. */
  @Test
  void manySmallWindowsCompletedAtOnceComeInFullBatches(BufferAllocator a) {
    long[] ends = new long[200];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = windowEnd(1 + i / 2);
    }
    JoinKind kind = JoinKind.of(JoinType.LEFT);
    Recorder out = new Recorder(64, kind.type().outputSchema(PROBE, BUILD));
    try (WindowJoinOperator join =
        operator(context(a, 64), kind, BUILD_KEY, PROBE_KEY, null, out)) {
      join.add(1, batch(1, 11, ends).batch(a));
      join.add(0, batch(0, 12, ends).batch(a));
      assertThat(join.openWindows()).isEqualTo(100);
      join.watermark(windowEnd(101) / 1000);
    }
    assertThat(out.rows().size()).isGreaterThanOrEqualTo(200);
    assertThat(out.batches).isEqualTo((out.rows().size() + 63) / 64);
  }

  @Test
  void aBudgetTooSmallForTheOpenWindowsFailsNamingTheOperator(BufferAllocator a) {
    List<Step> steps = WindowJoinTesting.stream(40, 4, 200);
    MemoryBudget budget = new MemoryBudget("tiny task", 16 * 1024);
    OperatorContext context = new OperatorContext(a, budget, 8192);
    Recorder out = new Recorder(8192, JoinType.INNER.outputSchema(PROBE, BUILD));
    try (WindowJoinOperator join =
        operator(context, JoinKind.of(JoinType.INNER), BUILD_KEY, PROBE_KEY, null, out)) {
      assertThatThrownBy(() -> WindowJoinTesting.drive(join, steps, 0, steps.size(), true, out, a))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("WindowJoin[INNER, build=[#0], probe=[#2]")
          .hasMessageContaining("cannot spill")
          .hasMessageContaining("tiny task");
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void describesItselfAndRejectsBadWindowEndsAndInputs(BufferAllocator a) {
    OperatorContext context = context(a, 8192);
    JoinKind inner = JoinKind.of(JoinType.INNER);
    try (WindowJoinOperator join =
        new WindowJoinOperator(
            context,
            inner,
            BUILD,
            new int[] {0, 3},
            PROBE,
            new int[] {2, 3},
            HashJoinOperatorTest.SOME,
            3,
            3,
            b -> b.close())) {
      assertThat(join)
          .hasToString(
              "WindowJoin[INNER, build=[#0, #3], probe=[#2, #3], window end build=#3 probe=#3,"
                  + " filter=(bv + px) % 3 <> 0]");
      assertThat(join.isStateful()).isTrue();
      assertThat(join.inputs()).isEqualTo(2);
      assertThatThrownBy(() -> join.add(2, batch(0, 1).batch(a)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not 2");
      assertThatThrownBy(() -> join.add(0, batch(1, 1).batch(a)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("column 0 of input 0");
    }
    assertThatThrownBy(
            () ->
                new WindowJoinOperator(
                    context, inner, BUILD, BUILD_KEY, PROBE, PROBE_KEY, null, 2, END, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the build window end #2 must be a TIMESTAMP");
    assertThatThrownBy(
            () ->
                new WindowJoinOperator(
                    context, inner, BUILD, BUILD_KEY, PROBE, PROBE_KEY, null, END, 4, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the probe window end #4");
    assertThatThrownBy(
            () ->
                new WindowJoinOperator(
                    context,
                    JoinKind.nullAware(JoinType.LEFT_ANTI),
                    BUILD,
                    new int[] {0, 1},
                    PROBE,
                    new int[] {2, 0},
                    null,
                    END,
                    END,
                    b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exactly one key column");
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void closeIsIdempotentAndReleasesTheOpenWindows(BufferAllocator a) {
    OperatorContext context = context(a, 8192);
    WindowJoinOperator join =
        new WindowJoinOperator(
            context,
            JoinKind.of(JoinType.INNER),
            BUILD,
            BUILD_KEY,
            PROBE,
            PROBE_KEY,
            null,
            END,
            END,
            VectorSchemaRoot::close);
    join.add(0, batch(0, 1, windowEnd(1), windowEnd(2), windowEnd(1)).batch(a));
    join.add(1, batch(1, 2, windowEnd(2)).batch(a));
    assertThat(context.budget().used()).isPositive();
    join.close();
    join.close();
    assertThat(context.budget().used()).isZero();
    assertThatThrownBy(join::snapshotState).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> join.finish(0)).isInstanceOf(IllegalStateException.class);
  }
}
