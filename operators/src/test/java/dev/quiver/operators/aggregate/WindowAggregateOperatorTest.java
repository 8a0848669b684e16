package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.WindowTesting.CALLS;
import static dev.quiver.operators.aggregate.WindowTesting.END;
import static dev.quiver.operators.aggregate.WindowTesting.K;
import static dev.quiver.operators.aggregate.WindowTesting.NAME;
import static dev.quiver.operators.aggregate.WindowTesting.PRICE;
import static dev.quiver.operators.aggregate.WindowTesting.SCHEMA;
import static dev.quiver.operators.aggregate.WindowTesting.START;
import static dev.quiver.operators.aggregate.WindowTesting.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.WindowTesting.Recorder;
import dev.quiver.operators.aggregate.WindowTesting.Row;
import dev.quiver.operators.aggregate.WindowTesting.Shape;
import dev.quiver.operators.aggregate.WindowTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SINGLE mode against a hash aggregate over the rows that were on time (the oracle), emitted at the
 * first watermark that completes their window: tumbling and hopping inputs, several key types.
 */
@ExtendWith(ArrowLeakCheck.class)
class WindowAggregateOperatorTest {
  static final int[][] KEY_SETS = {
    {START, END, K, NAME}, {END, START, PRICE}, {START, END}, {K, END, START, NAME, PRICE}
  };
  static final long SECOND = 1_000_000;

  @Test
  void tumblingWindowsMatchTheHashAggregateOfTheRowsOnTime(BufferAllocator allocator) {
    long seed = 1;
    for (int[] keys : KEY_SETS) {
      for (int target : new int[] {7, 8192}) {
        Shape shape = new Shape(seed++, SECOND, SECOND, 40, 120, 300, 0.03, 0.01, 6);
        check(allocator, keys, WindowTesting.stream(shape), target);
      }
    }
  }

  /** HOP(size 2 s, slide 500 ms): each row repeated in its four windows, interleaved. */
  @Test
  void hoppingWindowsMatchTheHashAggregateOfTheRowsOnTime(BufferAllocator allocator) {
    long seed = 100;
    for (int[] keys : KEY_SETS) {
      Shape shape = new Shape(seed++, 2 * SECOND, SECOND / 2, 30, 100, 700, 0.05, 0.02, 4);
      check(allocator, keys, WindowTesting.stream(shape), 1000);
    }
  }

  /** One big batch spanning many windows, late rows of many windows in it. */
  @Test
  void oneBatchOfManyWindows(BufferAllocator allocator) {
    Shape shape = new Shape(7, SECOND / 10, SECOND / 10, 1, 20_000, 50, 0.1, 0.01, 50);
    List<Step> steps = new ArrayList<>(WindowTesting.stream(shape));
    steps.add(0, Step.watermark(T0 / 1000 + 30_000)); // a third of the batch is late
    check(allocator, new int[] {START, END, K}, steps, 8192);
  }

  /**
   * Runs {@code steps} through a SINGLE window aggregate and checks its output against the hash
   * aggregate of the rows on time, the step each group is emitted at, and the drop counters.
   */
  static void check(BufferAllocator allocator, int[] keys, List<Step> steps, int target) {
    OperatorContext context = context(allocator, target);
    Recorder out = new Recorder(target);
    int endKey = position(keys, END);
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(context, SCHEMA, AggregateMode.SINGLE, keys, CALLS, END, out)) {
      assertThat(operator.outputSchema())
          .isEqualTo(HashAggregateOperator.outputSchema(SCHEMA, AggregateMode.SINGLE, keys, CALLS));
      WindowTesting.drive(operator, steps, 0, steps.size(), true, out, allocator);
      assertThat(operator.lateRows()).isEqualTo(WindowTesting.late(steps));
      long nulls =
          steps.stream()
              .filter(s -> !s.isWatermark())
              .flatMap(s -> s.rows().stream())
              .filter(r -> r.end() == null)
              .count();
      assertThat(operator.rowsWithoutWindow()).isEqualTo(nulls);
      assertThat(operator.openWindows()).isZero();
    }
    assertThat(context.budget().used()).isZero();
    List<Row> onTime = WindowTesting.onTime(steps);
    assertThat(WindowTesting.late(steps)).as("the stream has late rows").isPositive();
    Map<List<Object>, List<Object>> expected =
        oracle(allocator, AggregateMode.SINGLE, keys, onTime, target);
    AggregateTesting.assertResults(out.results(keys.length), expected, 0);
    checkEmittedWhenComplete(steps, out, endKey);
  }

  /** Every group comes out at the first watermark that completes its window (or at finish). */
  static void checkEmittedWhenComplete(List<Step> steps, Recorder out, int endKey) {
    for (WindowTesting.Emission emission : out.emissions) {
      long watermark = Long.MIN_VALUE;
      long before = Long.MIN_VALUE;
      for (int s = 0; s <= emission.step() && s < steps.size(); s++) {
        if (steps.get(s).isWatermark()) {
          before = s < emission.step() ? Math.max(before, steps.get(s).watermark()) : before;
          watermark = Math.max(watermark, steps.get(s).watermark());
        }
      }
      boolean finish = emission.step() == steps.size();
      for (List<Object> row : emission.rows()) {
        long end = WindowTesting.micros(row.get(endKey));
        if (!finish) {
          assertThat(WindowTesting.complete(end, watermark))
              .as("complete at %d", watermark)
              .isTrue();
        }
        assertThat(WindowTesting.complete(end, before)).as("complete before").isFalse();
      }
    }
  }

  /** The hash aggregate of {@code rows}, in batches of 1000. */
  static Map<List<Object>, List<Object>> oracle(
      BufferAllocator allocator, AggregateMode mode, int[] keys, List<Row> rows, int target) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int from = 0; from < rows.size(); from += 1000) {
      batches.add(
          WindowTesting.batch(rows.subList(from, Math.min(rows.size(), from + 1000)), allocator));
    }
    return AggregateTesting.results(
        AggregateTesting.run(allocator, SCHEMA, mode, keys, CALLS, batches, target), keys.length);
  }

  static OperatorContext context(BufferAllocator allocator, int target) {
    return new OperatorContext(allocator, new MemoryBudget("window test", Long.MAX_VALUE), target);
  }

  static int position(int[] keys, int column) {
    for (int k = 0; k < keys.length; k++) {
      if (keys[k] == column) {
        return k;
      }
    }
    throw new IllegalArgumentException("not a key: " + column);
  }

  /** A window [10 s, 20 s): its last millisecond is 19 999, the boundary. */
  @Test
  void aWindowIsCompleteOnceTheWatermarkReachesItsLastMillisecond(BufferAllocator allocator) {
    long end = T0 + 20 * SECOND;
    List<Row> rows = new ArrayList<>();
    for (long ts = end - 10 * SECOND; ts < end; ts += 999_999) {
      rows.add(new Row(1L, "x", 100L, ts, null, null, ts).inWindow(end - 10 * SECOND, 10 * SECOND));
    }
    Recorder out = new Recorder(8192);
    int[] keys = {START, END};
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context(allocator, 8192), SCHEMA, AggregateMode.SINGLE, keys, CALLS, END, out)) {
      operator.add(0, WindowTesting.batch(rows, allocator));
      operator.watermark(end / 1000 - 2);
      assertThat(out.rows()).as("end - 2 ms").isEmpty();
      assertThat(operator.openWindows()).isOne();
      operator.watermark(end / 1000 - 1);
      assertThat(out.rows()).as("end - 1 ms").hasSize(1);
      assertThat(out.rows().get(0).get(2)).isEqualTo((long) rows.size());
      assertThat(operator.openWindows()).isZero();
      // A row of that window now is late, even one stamped before the watermark by a millisecond.
      operator.add(0, WindowTesting.batch(rows.subList(0, 3), allocator));
      assertThat(operator.lateRows()).isEqualTo(3);
      operator.finish(0);
      assertThat(out.rows()).hasSize(1);
    }
  }

  /**
   * An idle input: a PARTIAL emits its open windows' partial states at once and holds nothing (so
   * the task may be idle downstream); a SINGLE (as a FINAL) emits nothing early and says it holds
   * rows a watermark will complete.
   */
  @Test
  void anIdleInputMakesAPartialEmitItsOpenWindowsButNotASingle(BufferAllocator allocator) {
    long end = T0 + 20 * SECOND;
    List<Row> rows = new ArrayList<>();
    for (long ts = end - 10 * SECOND; ts < end; ts += 999_999) {
      rows.add(new Row(1L, "x", 100L, ts, null, null, ts).inWindow(end - 10 * SECOND, 10 * SECOND));
    }
    int[] keys = {START, END};
    for (AggregateMode mode : List.of(AggregateMode.PARTIAL, AggregateMode.SINGLE)) {
      Recorder out = new Recorder(8192);
      try (WindowAggregateOperator operator =
          new WindowAggregateOperator(
              context(allocator, 8192), SCHEMA, mode, keys, CALLS, END, out)) {
        operator.add(0, WindowTesting.batch(rows, allocator));
        boolean empty = operator.idle();
        assertThat(empty).as(mode.name()).isEqualTo(mode == AggregateMode.PARTIAL);
        assertThat(out.rows()).as(mode.name()).hasSize(mode == AggregateMode.PARTIAL ? 1 : 0);
        assertThat(operator.openWindows()).isEqualTo(mode == AggregateMode.PARTIAL ? 0 : 1);
        operator.finish(0);
        assertThat(out.rows()).as(mode.name()).hasSize(1);
      }
    }
  }

  /** An end off the millisecond grid (an offset in µs): complete at the millisecond holding it. */
  @Test
  void anEndBetweenMillisecondsIsCompleteAtTheMillisecondOfItsLastMicrosecond(
      BufferAllocator allocator) {
    long end = T0 + 10 * SECOND + 500; // 10 000.5 ms after T0: last µs in ms 10 000
    Row row = new Row(1L, "x", 1L, end - 1, end - SECOND, end, 1L);
    Recorder out = new Recorder(8192);
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context(allocator, 8192),
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {END},
            CALLS,
            END,
            out)) {
      operator.add(0, WindowTesting.batch(List.of(row), allocator));
      operator.watermark(end / 1000 - 1);
      assertThat(out.rows()).isEmpty();
      operator.watermark(end / 1000);
      assertThat(out.rows()).hasSize(1);
    }
    assertThat(WindowAggregateOperator.completeUpTo(end / 1000)).isEqualTo(end + 500);
    assertThat(WindowAggregateOperator.completeUpTo(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(WindowAggregateOperator.completeUpTo(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
    assertThat(WindowAggregateOperator.completeUpTo(-1)).isZero();
  }

  /** Rows out of order within the watermark delay all count; behind it they are dropped. */
  @Test
  void outOfOrderRowsWithinTheDelayCountAndLateOnesAreDroppedAndCounted(BufferAllocator allocator) {
    long size = 10 * SECOND;
    Row first = new Row(1L, "a", 1L, T0 + 9 * SECOND, null, null, 10L).inWindow(T0, size);
    Row next = new Row(1L, "a", 1L, T0 + 11 * SECOND, null, null, 20L).inWindow(T0 + size, size);
    Row behind = new Row(1L, "a", 1L, T0 + 5 * SECOND, null, null, 5L).inWindow(T0, size);
    Row noTime = new Row(1L, "a", 1L, null, null, null, 1000L);
    Recorder out = new Recorder(8192);
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context(allocator, 8192),
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {START, END, K},
            CALLS,
            END,
            out)) {
      operator.add(0, WindowTesting.batch(List.of(first, next), allocator));
      operator.watermark((T0 + 8 * SECOND) / 1000); // 3 s delay behind 11 s
      operator.add(0, WindowTesting.batch(List.of(behind, noTime), allocator)); // 5 s: on time
      operator.watermark((T0 + 10 * SECOND) / 1000);
      operator.add(0, WindowTesting.batch(List.of(behind, behind), allocator)); // late now
      assertThat(operator.lateRows()).isEqualTo(2);
      assertThat(operator.rowsWithoutWindow()).isEqualTo(1);
      operator.finish(0);
    }
    assertThat(out.rows()).hasSize(2);
    assertThat(out.rows().get(0).subList(3, 6)).containsExactly(2L, 2L, 15L); // n, count, sum
    assertThat(out.rows().get(1).subList(3, 6)).containsExactly(1L, 1L, 20L);
  }

  @Test
  void manySmallWindowsCompletedAtOnceComeInFullBatches(BufferAllocator allocator) {
    List<Row> rows = new ArrayList<>();
    for (int w = 0; w < 100; w++) {
      for (long k = 0; k < 3; k++) {
        rows.add(
            new Row(k, "n", 1L, T0 + w * SECOND, null, null, k).inWindow(T0 + w * SECOND, SECOND));
      }
    }
    Recorder out = new Recorder(64);
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context(allocator, 64),
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {START, END, K},
            CALLS,
            END,
            out)) {
      operator.add(0, WindowTesting.batch(rows, allocator));
      assertThat(operator.openWindows()).isEqualTo(100);
      operator.watermark((T0 + 100 * SECOND) / 1000);
    }
    assertThat(out.rows()).hasSize(300);
    assertThat(out.batches).isEqualTo(5); // 300 rows in batches of 64, not 100 of 3
  }

  @Test
  void finishEmitsTheWindowsLeftAndReleasesTheirMemory(BufferAllocator allocator) {
    Shape shape = new Shape(11, SECOND, SECOND, 10, 200, 300, 0, 0, 5);
    List<Step> steps = WindowTesting.stream(shape);
    OperatorContext context = context(allocator, 8192);
    Recorder out = new Recorder(8192);
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context, SCHEMA, AggregateMode.SINGLE, new int[] {START, END, K}, CALLS, END, out)) {
      WindowTesting.drive(operator, steps, 0, steps.size(), false, out, allocator);
      assertThat(operator.openWindows()).isPositive();
      assertThat(context.budget().used()).isPositive();
      int before = out.rows().size();
      operator.finish(0);
      assertThat(out.rows().size()).isGreaterThan(before);
      assertThat(context.budget().used()).isZero();
      operator.watermark(Long.MAX_VALUE); // finished: nothing
      assertThatThrownBy(() -> operator.add(0, WindowTesting.batch(List.of(), allocator)))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void aBudgetTooSmallForTheOpenWindowsFailsNamingTheOperator(BufferAllocator allocator) {
    Shape shape = new Shape(12, 60 * SECOND, 60 * SECOND, 5, 4000, 1000, 0, 0, 100_000);
    List<Step> steps = WindowTesting.stream(shape);
    MemoryBudget budget = new MemoryBudget("tiny task", 256 * 1024);
    OperatorContext context = new OperatorContext(allocator, budget, 8192);
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context,
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {START, END, K, NAME},
            CALLS,
            END,
            VectorSchemaRoot::close)) {
      Recorder ignored = new Recorder(8192);
      assertThatThrownBy(
              () ->
                  WindowTesting.drive(operator, steps, 0, steps.size(), false, ignored, allocator))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("WindowAggregate[mode=SINGLE, windowEnd=#5")
          .hasMessageContaining("cannot spill")
          .hasMessageContaining("tiny task");
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void rejectsCallsWithoutPartialStateAndABadWindowEnd(BufferAllocator allocator) {
    OperatorContext context = context(allocator, 8192);
    AggregateCall distinct =
        new AggregateCall(AggregateFunction.COUNT_DISTINCT, K, WindowTesting.BIGINT, true, "d");
    int[] keys = {START, END};
    assertThatThrownBy(
            () ->
                new WindowAggregateOperator(
                    context, SCHEMA, AggregateMode.SINGLE, keys, List.of(distinct), END, b -> {}))
        .isInstanceOfSatisfying(
            QuiverException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_FEATURE))
        .hasMessageContaining("count(DISTINCT #0)")
        .hasMessageContaining("two-level");
    assertThatThrownBy(
            () ->
                new WindowAggregateOperator(
                    context, SCHEMA, AggregateMode.SINGLE, new int[] {START}, CALLS, END, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("window end #5 is not one of the group keys");
    assertThatThrownBy(
            () ->
                new WindowAggregateOperator(
                    context, SCHEMA, AggregateMode.SINGLE, new int[] {K}, CALLS, K, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must be a TIMESTAMP");
    try (WindowAggregateOperator operator =
        new WindowAggregateOperator(
            context,
            SCHEMA,
            AggregateMode.PARTIAL,
            keys,
            List.of(AggregateCall.countStar("n")),
            END,
            b -> {})) {
      assertThat(operator)
          .hasToString(
              "WindowAggregate[mode=PARTIAL, windowEnd=#5, keys=[#4, #5], aggs=[count(*)]]");
    }
  }
}
