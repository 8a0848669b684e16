package dev.quiver.operators.join;

import static dev.quiver.operators.join.IntervalJoinTesting.BUILD;
import static dev.quiver.operators.join.IntervalJoinTesting.PROBE;
import static dev.quiver.operators.join.IntervalJoinTesting.SECOND;
import static dev.quiver.operators.join.IntervalJoinTesting.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.IntervalJoinTesting.Expected;
import dev.quiver.operators.join.IntervalJoinTesting.Kind;
import dev.quiver.operators.join.IntervalJoinTesting.Recorder;
import dev.quiver.operators.join.IntervalJoinTesting.Row;
import dev.quiver.operators.join.IntervalJoinTesting.Shape;
import dev.quiver.operators.join.IntervalJoinTesting.Step;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The interval join against a nested loop over the rows on time, step by step: each match must come
 * out at the first advancing watermark that completes its build row, not before, not after.
 */
@ExtendWith(ArrowLeakCheck.class)
class IntervalJoinOperatorTest {
  private static final long MS = 1000;

  /** How the plan's filter is given: the bounds, the bounds and more, or none at all. */
  enum Filter {
    BOUNDS,
    EXTRA,
    NONE
  }

  /** [lower, upper] in ms: around zero, zero-width (also negative), only after, only before. */
  private static final long[][] BOUNDS = {
    {-200, 300}, {0, 0}, {-300, -300}, {100, 400}, {-500, -100}, {-50, 50}, {-10_000, 0}
  };

  private static Shape shape(long seed) {
    return new Shape(seed, 120, 20, 4, 10 * MS, 2, 200 * MS, 0, 0);
  }

  @Test
  void matchesTheNestedLoopOfTheRowsOnTimeWhenTheyComplete(BufferAllocator allocator) {
    long seed = 1;
    for (long[] bounds : BOUNDS) {
      for (Filter filter : Filter.values()) {
        int target = filter == Filter.EXTRA ? 7 : 8192;
        check(allocator, shape(seed++), bounds[0] * MS, bounds[1] * MS, filter, target);
      }
    }
  }

  @Test
  void randomBounds(BufferAllocator allocator) {
    Random random = new Random(42);
    for (int i = 0; i < 12; i++) {
      long lower = -10 * MS * random.nextInt(60);
      long upper = lower + 10 * MS * random.nextInt(70);
      check(allocator, shape(100 + i), lower, upper, Filter.values()[i % 3], 1 + i * 97);
    }
  }

  /** Nexmark q7's [-10 s, 0] over a long stream: matches, and only the live probe rows are held. */
  @Test
  void q7BoundsOverALongStreamHoldOnlyTheLiveRows(BufferAllocator allocator) {
    Shape shape = new Shape(7, 400, 12, 3, 100 * MS, 2, SECOND, 0, 0);
    List<Step> steps = IntervalJoinTesting.stream(shape);
    long lower = -10 * SECOND;
    long upper = 0;
    OperatorContext context = IntervalJoinTesting.context(allocator, 1024);
    Recorder out = new Recorder(1024);
    long probeRows = 0;
    long mostHeld = 0;
    List<long[]> builds = new ArrayList<>(); // rows, max time of each held batch
    List<long[]> probes = new ArrayList<>();
    long watermark = Long.MIN_VALUE;
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(
            context, lower, upper, IntervalJoinTesting.filter(lower, upper, false), out)) {
      for (int s = 0; s < steps.size(); s++) {
        Step step = steps.get(s);
        if (step.kind() == Kind.FINISH) {
          break; // the bound holds while both inputs run
        }
        IntervalJoinTesting.drive(operator, steps, s, s + 1, out, allocator);
        if (step.kind() == Kind.BATCH && !step.rows().isEmpty()) {
          long max = step.rows().stream().mapToLong(Row::time).max().orElseThrow();
          (step.input() == 0 ? builds : probes).add(new long[] {step.rows().size(), max});
          probeRows += step.input() == 1 ? step.rows().size() : 0;
        } else if (step.kind() == Kind.WATERMARK && step.watermark() > watermark) {
          watermark = step.watermark();
          long complete = watermark * 1000 - upper;
          long dead = watermark * 1000 - Math.max(upper, 0) + lower;
          builds.removeIf(batch -> batch[1] < complete);
          probes.removeIf(batch -> batch[1] < dead);
          assertThat(operator.heldBuildRows()).isEqualTo(sum(builds));
          assertThat(operator.heldProbeRows()).isEqualTo(sum(probes));
          mostHeld = Math.max(mostHeld, operator.heldProbeRows());
        }
      }
    }
    assertThat(context.budget().used()).isZero();
    assertThat(probeRows).isGreaterThan(1000);
    assertThat(mostHeld).as("at most about 12 s of probe rows").isLessThan(probeRows / 10);
    check(allocator, shape, lower, upper, Filter.BOUNDS, 1024);
  }

  private static long sum(List<long[]> batches) {
    return batches.stream().mapToLong(batch -> batch[0]).sum();
  }

  @Test
  void lateRowsAndRowsWithoutTimeOnBothSidesAreDroppedAndCounted(BufferAllocator allocator) {
    for (long seed = 200; seed < 204; seed++) {
      Expected expected =
          check(allocator, shape(seed).late(0.1, 0.05), -200 * MS, 100 * MS, Filter.BOUNDS, 100);
      assertThat(expected.lateBuild()).isPositive();
      assertThat(expected.lateProbe()).isPositive();
      assertThat(expected.withoutTime()).isPositive();
    }
  }

  /**
   * Runs {@code shape}'s streams through an interval join and checks every step's output, the
   * counters and the budget against the oracle.
   */
  static Expected check(
      BufferAllocator allocator, Shape shape, long lower, long upper, Filter filter, int target) {
    List<Step> steps = IntervalJoinTesting.stream(shape);
    boolean extra = filter == Filter.EXTRA;
    Expected expected = IntervalJoinTesting.oracle(steps, lower, upper, extra);
    OperatorContext context = IntervalJoinTesting.context(allocator, target);
    Recorder out = new Recorder(target);
    JoinFilter residual =
        filter == Filter.NONE ? null : IntervalJoinTesting.filter(lower, upper, extra);
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(context, lower, upper, residual, out)) {
      IntervalJoinTesting.drive(operator, steps, 0, steps.size(), out, allocator);
      assertThat(operator.lateRows()).isEqualTo(expected.late());
      assertThat(operator.rowsWithoutTime()).isEqualTo(expected.withoutTime());
      assertThat(operator.heldBuildRows() + operator.heldProbeRows()).isZero();
      assertThat(operator.idle()).isTrue();
    }
    assertThat(context.budget().used()).isZero();
    String what = "seed " + shape.seed() + ", [" + lower + ", " + upper + "], " + filter;
    assertThat(expected.byStep()).as(what + ": the oracle finds matches").isNotEmpty();
    assertThat(out.byStep).as(what).isEqualTo(expected.byStep());
    return expected;
  }

  /** A match comes out at the first watermark w with b.t + upper < w ms, not at b.t + upper = w. */
  @Test
  void aBuildRowIsJoinedOnceNoLaterProbeRowCanMatchIt(BufferAllocator allocator) {
    long t = T0 + 5 * SECOND;
    Recorder out = new Recorder(8192);
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(
            IntervalJoinTesting.context(allocator, 8192), -10 * SECOND, 0, null, out)) {
      operator.watermark(T0 / 1000);
      operator.add(0, IntervalJoinTesting.batch(0, List.of(new Row(1L, t, 1, "b")), allocator));
      operator.add(1, IntervalJoinTesting.batch(1, List.of(new Row(1L, t, 2, "p")), allocator));
      assertThat(operator.idle()).isFalse();
      operator.watermark(t / 1000 - 1);
      operator.add(1, IntervalJoinTesting.batch(1, List.of(new Row(1L, t, 3, "q")), allocator));
      operator.watermark(t / 1000); // a probe row at t is still on time
      assertThat(out.rows).isZero();
      operator.add(1, IntervalJoinTesting.batch(1, List.of(new Row(1L, t, 4, "r")), allocator));
      operator.watermark(t / 1000 + 1);
      assertThat(out.rows).isEqualTo(3);
      assertThat(operator.heldBuildRows()).isZero();
      assertThat(operator.heldProbeRows()).as("kept for later build rows").isEqualTo(3);
      operator.watermark(t / 1000 + 10_001); // t < w - 10 s: no later build row reaches them
      assertThat(operator.heldProbeRows()).isZero();
      assertThat(operator.idle()).isTrue();
      operator.add(1, IntervalJoinTesting.batch(1, List.of(new Row(1L, t, 5, "s")), allocator));
      assertThat(operator.lateRows()).isOne();
      operator.finish(1);
      operator.finish(0);
      assertThat(out.rows).isEqualTo(3);
    }
  }

  /** The watermark at the end of a bounded input (Long.MAX_VALUE) completes every build row. */
  @Test
  void theLastWatermarkCompletesEverything(BufferAllocator allocator) {
    Shape shape = shape(300);
    List<Step> steps = new ArrayList<>(IntervalJoinTesting.stream(shape));
    int last = steps.size() - 1; // before the finishes at the end: no batch comes after it
    while (steps.get(last - 1).kind() == Kind.FINISH) {
      last--;
    }
    Expected expected = IntervalJoinTesting.oracle(steps, -100 * MS, 100 * MS, false);
    steps.add(last, Step.watermark(Long.MAX_VALUE));
    Recorder out = new Recorder(8192);
    OperatorContext context = IntervalJoinTesting.context(allocator, 8192);
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(context, -100 * MS, 100 * MS, null, out)) {
      IntervalJoinTesting.drive(operator, steps, 0, last + 1, out, allocator);
      assertThat(operator.idle()).isTrue();
      IntervalJoinTesting.drive(operator, steps, last + 1, steps.size(), out, allocator);
    }
    assertThat(out.rows).isPositive();
    assertThat(out.rows)
        .isEqualTo(
            expected.byStep().values().stream()
                .flatMap(rows -> rows.values().stream())
                .mapToLong(Integer::longValue)
                .sum());
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void heldRowsBeyondTheBudgetFailNamingTheJoin(BufferAllocator allocator) {
    OperatorContext context = new OperatorContext(allocator, new MemoryBudget("task", 20_000), 64);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add(new Row((long) i % 5, T0 + i * MS, i, "payload"));
    }
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(context, -SECOND, 0, null, b -> b.close())) {
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 100; i++) {
                  operator.add(i % 2, IntervalJoinTesting.batch(i % 2, rows, allocator));
                }
              })
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("IntervalJoin[INNER")
          .hasMessageContaining("cannot spill");
    }
    assertThat(context.budget().used()).isZero();
  }

  /** The held rows fit, the hash table of an emission does not: the same error, nothing leaks. */
  @Test
  void anEmissionBeyondTheBudgetFailsNamingTheJoin(BufferAllocator allocator) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      rows.add(new Row((long) i % 5, T0 + i * MS, i, "payload"));
    }
    long held;
    OperatorContext measure = IntervalJoinTesting.context(allocator, 64);
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(measure, -SECOND, 0, null, b -> b.close())) {
      operator.add(0, IntervalJoinTesting.batch(0, rows, allocator));
      operator.add(1, IntervalJoinTesting.batch(1, rows, allocator));
      held = measure.budget().used();
    }
    OperatorContext context =
        new OperatorContext(allocator, new MemoryBudget("task", held + 1000), 64);
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(context, -SECOND, 0, null, b -> b.close())) {
      operator.add(0, IntervalJoinTesting.batch(0, rows, allocator));
      operator.add(1, IntervalJoinTesting.batch(1, rows, allocator));
      assertThatThrownBy(() -> operator.watermark(T0 / 1000 + 10_000))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("IntervalJoin[INNER");
    }
    assertThat(context.budget().used()).isZero();
  }

  @Test
  void describesItselfAndRefusesWhatItCannotJoin(BufferAllocator allocator) {
    OperatorContext context = IntervalJoinTesting.context(allocator, 64);
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(
            context,
            -10 * SECOND,
            0,
            IntervalJoinTesting.filter(-10 * SECOND, 0, false),
            b -> b.close())) {
      assertThat(operator.toString())
          .isEqualTo(
              "IntervalJoin[INNER, build=[#0], probe=[#1], probe.#2 in [build.#1 - 10 s, build.#1"
                  + " + 0 s], filter=bounds]");
      assertThat(operator.isStateful()).isTrue();
      assertThat(operator.outputSchema().getFields()).hasSize(8);
      VectorSchemaRoot wrong = IntervalJoinTesting.batch(1, List.of(), allocator);
      assertThatThrownBy(() -> operator.add(0, wrong))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("a batch of input 0");
      operator.finish(0);
      assertThatThrownBy(() -> operator.add(0, IntervalJoinTesting.batch(0, List.of(), allocator)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("input 0 is finished");
      assertThatThrownBy(() -> operator.finish(2)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(IntervalJoinBounds.offset(-250 * MS)).isEqualTo(" - 250 ms");
    assertThat(IntervalJoinBounds.offset(7)).isEqualTo(" + 7 µs");
    assertThat(IntervalJoinBounds.offset(Long.MIN_VALUE)).isEqualTo(" - 9223372036854775808 µs");
    for (JoinType type : List.of(JoinType.LEFT_SEMI, JoinType.RIGHT_ANTI, JoinType.LEFT_MARK)) {
      assertThatThrownBy(() -> operator(context, type, 1, 2, 0, 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("only be INNER, LEFT, RIGHT or FULL");
    }
    assertThatThrownBy(() -> operator(context, JoinType.INNER, 1, 2, 1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lower bound");
    assertThatThrownBy(() -> operator(context, JoinType.INNER, 2, 2, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TIMESTAMP");
    assertThat(context.budget().used()).isZero();
  }

  private static IntervalJoinOperator operator(
      OperatorContext context,
      JoinType type,
      int buildTime,
      int probeTime,
      long lower,
      long upper) {
    return new IntervalJoinOperator(
        context,
        JoinKind.of(type),
        BUILD,
        new int[] {0},
        PROBE,
        new int[] {1},
        () -> null,
        buildTime,
        probeTime,
        lower,
        upper,
        b -> b.close());
  }
}
