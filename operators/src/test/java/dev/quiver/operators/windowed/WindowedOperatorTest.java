package dev.quiver.operators.windowed;

import static dev.quiver.operators.windowed.WindowedTesting.END;
import static dev.quiver.operators.windowed.WindowedTesting.SCHEMA;
import static dev.quiver.operators.windowed.WindowedTesting.windowEnd;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.windowed.WindowedTesting.Recorder;
import dev.quiver.operators.windowed.WindowedTesting.Step;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A window top-N (sort and window functions) run per event-time window against the same batch
 * operators over each complete window's on-time rows: random streams with interleaved watermarks,
 * window boundaries on and off the millisecond grid, late rows and rows without a window end.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowedOperatorTest {
  static OperatorContext context(BufferAllocator a, int target) {
    return new OperatorContext(a, new MemoryBudget("per-window test", Long.MAX_VALUE), target);
  }

  static WindowedOperator operator(OperatorContext context, Recorder out) {
    return new WindowedOperator(context, SCHEMA, END, WindowedTesting.topN(context), out);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void eachCompleteWindowGetsTheBatchAnswerOverItsOnTimeRows(long seed, BufferAllocator a) {
    int target = seed % 2 == 0 ? 16 : 8192;
    OperatorContext context = context(a, target);
    List<Step> steps = WindowedTesting.stream(seed, 12, 120);
    Map<Integer, List<List<Object>>> expected = WindowedTesting.expected(steps, context, a);
    long[] counts = WindowedTesting.counts(steps);
    Recorder out = new Recorder(target, WindowedTesting.outputSchema(context));
    try (WindowedOperator operator = operator(context, out)) {
      WindowedTesting.drive(operator, steps, 0, steps.size(), true, out, a);
      assertThat(operator.lateRows()).isEqualTo(counts[1]);
      assertThat(operator.rowsWithoutWindow()).isEqualTo(counts[2]);
    }
    WindowedTesting.assertSameByStep(out.byStep, expected);
    assertThat(counts[1]).as("late rows in the stream").isPositive();
    assertThat(expected.keySet().stream().filter(s -> s < steps.size()))
        .as("watermarks complete windows")
        .isNotEmpty();
    assertThat(context.budget().used()).isZero();
  }

  /**
   * Window 2 ends on a whole millisecond, window 3 a microsecond after one: each is complete once
   * the watermark reaches the millisecond of its last microsecond, not before; a row of a complete
   * window is late.
   */
  @Test
  void aWindowRunsOnceTheWatermarkReachesItsLastMillisecond(BufferAllocator a) {
    long onGrid = windowEnd(2);
    long offGrid = windowEnd(3);
    assertThat(onGrid % 1000).isZero();
    assertThat(offGrid % 1000).isOne();
    OperatorContext context = context(a, 8192);
    Recorder out = new Recorder(8192, WindowedTesting.outputSchema(context));
    try (WindowedOperator operator = operator(context, out)) {
      operator.add(0, Step.batch(1, onGrid, offGrid, onGrid).batch(a));
      operator.watermark(onGrid / 1000 - 2);
      assertThat(out.byStep).isEmpty();
      assertThat(operator.idle()).isFalse();
      out.step = 1;
      operator.watermark(onGrid / 1000 - 1); // (w + 1) ms = the end: complete
      assertThat(out.byStep.get(1)).hasSize(2);
      out.step = 2;
      operator.watermark(offGrid / 1000 - 1); // a millisecond short of its last µs
      operator.watermark(offGrid / 1000 - 5); // back: nothing
      assertThat(out.byStep).doesNotContainKey(2);
      operator.add(0, Step.batch(2, onGrid, offGrid).batch(a)); // the first one late
      assertThat(operator.lateRows()).isOne();
      out.step = 3;
      operator.watermark(offGrid / 1000);
      assertThat(out.byStep.get(3)).hasSize(2);
      assertThat(operator.openWindows()).isZero();
      assertThat(operator.idle()).isTrue();
      operator.finish(0);
    }
    assertThat(out.byStep).containsOnlyKeys(1, 3);
  }

  /**
   * Flink SQL's window top-N numbers each window's rows per partition: ROW_NUMBER (and RANK, the
   * order being total) follows (v DESC NULLS FIRST, id) within each (window end, p), checked row by
   * row in Java.
   */
  @Test
  void rowNumbersFollowTheOrderWithinEachWindowAndPartition(BufferAllocator a) {
    OperatorContext context = context(a, 8192);
    Recorder out = new Recorder(8192, WindowedTesting.outputSchema(context));
    try (WindowedOperator operator = operator(context, out)) {
      for (int b = 0; b < 4; b++) {
        Long[] ends = new Long[40];
        for (int i = 0; i < ends.length; i++) {
          ends[i] = windowEnd(1 + (i + b) % 3);
        }
        operator.add(0, Step.batch(20 + b, ends).batch(a));
      }
      out.step = 1;
      operator.watermark(windowEnd(2) / 1000); // windows 1 and 2
      out.step = 2;
      operator.finish(0); // window 3
    }
    assertThat(out.byStep).containsOnlyKeys(1, 2);
    Map<List<Object>, List<List<Object>>> partitions = new HashMap<>();
    out.byStep.forEach(
        (step, rows) ->
            rows.forEach(
                row ->
                    partitions
                        .computeIfAbsent(
                            Arrays.asList(step, row.get(END), row.get(0)), k -> new ArrayList<>())
                        .add(row)));
    assertThat(partitions).hasSizeGreaterThan(6);
    Comparator<List<Object>> order =
        Comparator.<List<Object>, Integer>comparing(
                row -> (Integer) row.get(1), Comparator.nullsFirst(Comparator.reverseOrder()))
            .thenComparing(row -> (Long) row.get(3));
    for (List<List<Object>> rows : partitions.values()) {
      List<List<Object>> sorted = new ArrayList<>(rows);
      sorted.sort(order);
      for (int i = 0; i < sorted.size(); i++) {
        assertThat(sorted.get(i).get(5)).as("row_number").isEqualTo((long) i + 1);
        assertThat(sorted.get(i).get(6)).as("rank").isEqualTo((long) i + 1);
        assertThat(sorted.get(i).get(8)).as("count").isEqualTo((long) sorted.size());
      }
    }
    assertThat(context.budget().used()).isZero();
  }

  /** A hundred small windows completed by one watermark come coalesced into full batches. */
  @Test
  void manySmallWindowsCompletedAtOnceComeInFullBatches(BufferAllocator a) {
    Long[] ends = new Long[300];
    for (int i = 0; i < ends.length; i++) {
      ends[i] = windowEnd(1 + i / 3);
    }
    OperatorContext context = context(a, 64);
    Recorder out = new Recorder(64, WindowedTesting.outputSchema(context));
    try (WindowedOperator operator = operator(context, out)) {
      operator.add(0, Step.batch(30, ends).batch(a));
      assertThat(operator.openWindows()).isEqualTo(100);
      operator.watermark(windowEnd(101) / 1000);
      assertThat(operator.openWindows()).isZero();
    }
    assertThat(out.byStep.get(0)).hasSize(300);
    assertThat(out.batches).isEqualTo((300 + 63) / 64);
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void finishRunsEveryWindowAndEndsTheOperator(BufferAllocator a) {
    OperatorContext context = context(a, 8192);
    Recorder out = new Recorder(8192, WindowedTesting.outputSchema(context));
    try (WindowedOperator operator = operator(context, out)) {
      operator.add(0, Step.batch(40, windowEnd(5), null, windowEnd(9)).batch(a));
      assertThat(operator.idle()).isFalse();
      assertThat(operator.rowsWithoutWindow()).isOne();
      operator.finish(0);
      operator.finish(0); // as a restored task may say again: nothing
      assertThat(out.byStep.get(0)).hasSize(2);
      assertThat(operator.idle()).isTrue();
      assertThat(context.budget().used()).isZero();
      operator.watermark(Long.MAX_VALUE); // finished: nothing
      assertThatThrownBy(() -> operator.add(0, Step.batch(41, windowEnd(10)).batch(a)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("after its finish");
      assertThat(operator.snapshotState()).isNotEmpty(); // the counters, after finish
    }
  }

  @Test
  void aBudgetTooSmallForTheOpenWindowsFailsNamingTheOperator(BufferAllocator a) {
    List<Step> steps = WindowedTesting.stream(40, 4, 200);
    MemoryBudget budget = new MemoryBudget("tiny task", 16 * 1024);
    OperatorContext context = new OperatorContext(a, budget, 8192);
    Recorder out = new Recorder(8192, WindowedTesting.outputSchema(context));
    try (WindowedOperator operator = operator(context, out)) {
      assertThatThrownBy(
              () -> WindowedTesting.drive(operator, steps, 0, steps.size(), true, out, a))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("PerWindow[window end=#4, Window[partition=[#4, #0]")
          .hasMessageContaining("cannot spill")
          .hasMessageContaining("tiny task");
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void describesItselfAndRejectsBadWindowEndsAndInputs(BufferAllocator a) {
    OperatorContext context = context(a, 8192);
    try (WindowedOperator operator = operator(context, new Recorder(8192, SCHEMA))) {
      assertThat(operator)
          .hasToString(
              "PerWindow[window end=#4, Window[partition=[#4, #0], order=[#1 DESC NULLS FIRST,"
                  + " #3 ASC NULLS LAST], calls=[row_number() AS rn, rank() AS rk, sum(#1) RANGE"
                  + " BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW AS running, count(*) ROWS"
                  + " BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING AS n, lag(#2, 1) AS"
                  + " before]] ← Sort[#4 ASC NULLS LAST, #0 ASC NULLS LAST, #1 DESC NULLS FIRST,"
                  + " #3 ASC NULLS LAST]]");
      assertThat(operator.isStateful()).isTrue();
      assertThat(operator.inputs()).isOne();
      assertThatThrownBy(() -> operator.add(1, Step.batch(1, windowEnd(1)).batch(a)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not 1");
    }
    assertThatThrownBy(
            () ->
                new WindowedOperator(
                    context, SCHEMA, 3, WindowedTesting.topN(context), b -> b.close()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the input window end #3 must be a TIMESTAMP");
    assertThat(context.budget().used()).isZero();
  }
}
