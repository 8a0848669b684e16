package dev.quiver.operators.join;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.IntervalJoinOperatorTest.Filter;
import dev.quiver.operators.join.IntervalJoinTesting.Expected;
import dev.quiver.operators.join.IntervalJoinTesting.Kind;
import dev.quiver.operators.join.IntervalJoinTesting.Recorder;
import dev.quiver.operators.join.IntervalJoinTesting.Row;
import dev.quiver.operators.join.IntervalJoinTesting.Shape;
import dev.quiver.operators.join.IntervalJoinTesting.Step;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.ArrowLeakCheck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * LEFT, RIGHT and FULL interval joins against a nested loop over the rows on time: the matched
 * pairs come out as the INNER join's, at the same steps; each preserved row without a match comes
 * out once, padded with NULLs, at a step where the watermark (or the end of the other input) says
 * that no match can come any more, and no later than the first watermark that says so.
 */
@ExtendWith(ArrowLeakCheck.class)
class IntervalJoinOuterTest {
  private static final long MS = 1000;
  private static final JoinType[] OUTER = {JoinType.LEFT, JoinType.RIGHT, JoinType.FULL};

  /** [lower, upper] in ms, as the INNER tests' . */
  private static final long[][] BOUNDS = {
    {-200, 300}, {0, 0}, {-300, -300}, {100, 400}, {-500, -100}, {-10_000, 0}
  };

  /** Eight keys (and NULL keys): many rows find no match, some match only outside the interval. */
  private static Shape shape(long seed) {
    return new Shape(seed, 120, 20, 8, 10 * MS, 2, 200 * MS, 0, 0);
  }

  @Test
  void padsEachUnmatchedPreservedRowOnceWhenItsFateIsDecided(BufferAllocator allocator) {
    long seed = 1;
    for (JoinType type : OUTER) {
      long outOfInterval = 0;
      for (long[] bounds : BOUNDS) {
        for (Filter filter : Filter.values()) {
          int target = filter == Filter.EXTRA ? 7 : 8192;
          outOfInterval +=
              check(allocator, shape(seed++), type, bounds[0] * MS, bounds[1] * MS, filter, target)
                  .outOfInterval();
        }
      }
      assertThat(outOfInterval).as(type + ": rows whose key matches out of reach").isPositive();
    }
  }

  @Test
  void randomBoundsLateRowsAndRowsWithoutTime(BufferAllocator allocator) {
    Random random = new Random(43);
    for (int i = 0; i < 12; i++) {
      long lower = -10 * MS * random.nextInt(60);
      long upper = lower + 10 * MS * random.nextInt(70);
      Shape shape = shape(500 + i).late(0.05, 0.02);
      check(allocator, shape, OUTER[i % 3], lower, upper, Filter.values()[i % 3], 1 + i * 97);
    }
  }

  /** The INNER join through the same check pads nothing. */
  @Test
  void anInnerJoinPadsNothing(BufferAllocator allocator) {
    check(allocator, shape(900), JoinType.INNER, -200 * MS, 300 * MS, Filter.BOUNDS, 100);
  }

  @Test
  void theOutputSchemaIsTheHashJoinsOfTheType(BufferAllocator allocator) {
    OperatorContext context = IntervalJoinTesting.context(allocator, 64);
    for (JoinType type : JoinType.values()) {
      if (!type.emitsPairs()) {
        continue;
      }
      try (IntervalJoinOperator operator =
          IntervalJoinTesting.operator(context, type, 0, SECOND_MS, null, b -> b.close())) {
        assertThat(operator.outputSchema())
            .isEqualTo(type.outputSchema(IntervalJoinTesting.PROBE, IntervalJoinTesting.BUILD));
        List<Field> fields = operator.outputSchema().getFields();
        for (int i = 0; i < fields.size(); i++) {
          if (i < 4 ? type.padsRight() : type.padsLeft()) {
            assertThat(fields.get(i).isNullable()).as(type + ": " + fields.get(i)).isTrue();
          }
        }
      }
    }
  }

  private static final long SECOND_MS = 1000 * MS;

  /**
   * Runs {@code shape}'s streams through a join of {@code type}: the pairs must be the INNER
   * oracle's, step by step; the padded rows the nested loop's unmatched preserved rows, each at a
   * step that has decided it.
   */
  static Padding check(
      BufferAllocator allocator,
      Shape shape,
      JoinType type,
      long lower,
      long upper,
      Filter filter,
      int target) {
    List<Step> steps = IntervalJoinTesting.stream(shape);
    boolean extra = filter == Filter.EXTRA;
    Expected pairs = IntervalJoinTesting.oracle(steps, lower, upper, extra);
    Padding padding = padding(steps, type, lower, upper, extra);
    OperatorContext context = IntervalJoinTesting.context(allocator, target);
    Recorder out = new Recorder(target);
    JoinFilter residual =
        filter == Filter.NONE ? null : IntervalJoinTesting.filter(lower, upper, extra);
    try (IntervalJoinOperator operator =
        IntervalJoinTesting.operator(context, type, lower, upper, residual, out)) {
      IntervalJoinTesting.drive(operator, steps, 0, steps.size(), out, allocator);
      assertThat(operator.lateRows()).isEqualTo(pairs.late());
      assertThat(operator.heldBuildRows() + operator.heldProbeRows()).isZero();
      assertThat(operator.idle()).isTrue();
    }
    assertThat(context.budget().used()).isZero();
    String what = type + ", seed " + shape.seed() + ", [" + lower + ", " + upper + "], " + filter;
    Map<Integer, Map<List<Object>, Integer>> joined = new HashMap<>();
    Map<List<Object>, Integer> padded = new HashMap<>();
    long paddedEarly = 0; // before either input ends
    int firstFinish = finishStep(steps, -1);
    Map<Long, Long> arrivals = new HashMap<>(); // row id -> step
    for (int s = 0; s < steps.size(); s++) {
      if (steps.get(s).kind() == Kind.BATCH) {
        for (Row row : steps.get(s).rows()) {
          arrivals.put(row.id(), (long) s);
        }
      }
    }
    for (Map.Entry<Integer, Map<List<Object>, Integer>> step : out.byStep.entrySet()) {
      int s = step.getKey();
      for (Map.Entry<List<Object>, Integer> row : step.getValue().entrySet()) {
        List<Object> values = row.getKey();
        if (values.get(3) != null && values.get(6) != null) {
          joined.computeIfAbsent(s, k -> new HashMap<>()).put(values, row.getValue());
          continue;
        }
        padded.merge(values, row.getValue(), Integer::sum);
        paddedEarly += s < firstFinish ? 1 : 0;
        long now = watermarkAt(steps, s) * 1000;
        if (values.get(6) == null) { // a probe row: dead, or no build row to come or held
          long t = IntervalJoinTesting.micros(values.get(2));
          assertThat(t < now - Math.max(upper, 0) + lower || finishStep(steps, 0) <= s)
              .as(what + ": probe row " + values + " padded at step " + s + " is decided")
              .isTrue();
          long arrived = arrivals.get((Long) values.get(3));
          assertThat((long) s)
              .as(what + ": probe row " + values + " padded by the watermark that kills it")
              .isLessThanOrEqualTo(decided(steps, arrived, t + Math.max(upper, 0) - lower));
        } else { // a build row: complete, or no probe row to come or held
          long t = IntervalJoinTesting.micros(values.get(5));
          assertThat(t + upper < now || finishStep(steps, 1) <= s)
              .as(what + ": build row " + values + " padded at step " + s + " is decided")
              .isTrue();
          long arrived = arrivals.get((Long) values.get(6));
          assertThat((long) s)
              .as(what + ": build row " + values + " padded by the watermark that completes it")
              .isLessThanOrEqualTo(decided(steps, arrived, t + upper));
        }
      }
    }
    assertThat(joined).as(what + ": the pairs").isEqualTo(pairs.byStep());
    assertThat(padded).as(what + ": the padded rows").isEqualTo(padding.rows());
    if (type != JoinType.INNER) {
      assertThat(padding.rows()).as(what + ": the nested loop pads rows").isNotEmpty();
      if (upper - lower <= SECOND_MS) { // a stream of about 12 s: some rows are decided early
        assertThat(paddedEarly).as(what + ": rows are padded while the inputs run").isPositive();
      }
    } else {
      assertThat(padding.rows()).isEmpty();
    }
    return padding;
  }

  /** The padded rows a join of {@code type} emits, and how many have a key match out of reach. */
  record Padding(Map<List<Object>, Integer> rows, long outOfInterval) {}

  /** The nested loop over the rows on time: the preserved rows without a match, padded. */
  static Padding padding(List<Step> steps, JoinType type, long lower, long upper, boolean extra) {
    long watermark = Long.MIN_VALUE;
    List<Row> build = new ArrayList<>();
    List<Row> probe = new ArrayList<>();
    for (Step step : steps) {
      if (step.kind() == Kind.WATERMARK) {
        watermark = Math.max(watermark, step.watermark());
      } else if (step.kind() == Kind.BATCH) {
        for (Row row : step.rows()) {
          if (row.time() != null
              && (watermark == Long.MIN_VALUE || row.time() >= watermark * 1000)) {
            (step.input() == 0 ? build : probe).add(row);
          }
        }
      }
    }
    Map<List<Object>, Integer> rows = new HashMap<>();
    long outOfInterval = 0;
    if (type.padsRight()) {
      for (Row b : build) {
        if (probe.stream().noneMatch(p -> matches(b, p, lower, upper, extra))) {
          rows.merge(IntervalJoinTesting.output(null, b), 1, Integer::sum);
          outOfInterval += probe.stream().anyMatch(p -> sameKey(b, p)) ? 1 : 0;
        }
      }
    }
    if (type.padsLeft()) {
      for (Row p : probe) {
        if (build.stream().noneMatch(b -> matches(b, p, lower, upper, extra))) {
          rows.merge(IntervalJoinTesting.output(p, null), 1, Integer::sum);
          outOfInterval += build.stream().anyMatch(b -> sameKey(b, p)) ? 1 : 0;
        }
      }
    }
    return new Padding(rows, outOfInterval);
  }

  private static boolean sameKey(Row b, Row p) {
    return b.key() != null && b.key().equals(p.key());
  }

  private static boolean matches(Row b, Row p, long lower, long upper, boolean extra) {
    return sameKey(b, p)
        && p.time() - b.time() >= lower
        && p.time() - b.time() <= upper
        && (!extra || IntervalJoinTesting.extra(b.id(), p.id()));
  }

  /**
   * The first step after {@code arrived} whose watermark advances beyond {@code reach} (µs), or the
   * last step.
   */
  private static long decided(List<Step> steps, long arrived, long reach) {
    long watermark = Long.MIN_VALUE;
    for (int s = 0; s < steps.size(); s++) {
      Step step = steps.get(s);
      if (step.kind() == Kind.WATERMARK && step.watermark() > watermark) {
        watermark = step.watermark();
        if (s > arrived && reach < watermark * 1000) {
          return s;
        }
      }
    }
    return steps.size() - 1;
  }

  /** The highest watermark up to step {@code s}, ms. */
  private static long watermarkAt(List<Step> steps, int s) {
    long watermark = Long.MIN_VALUE / 1000;
    for (int i = 0; i <= s; i++) {
      if (steps.get(i).kind() == Kind.WATERMARK) {
        watermark = Math.max(watermark, steps.get(i).watermark());
      }
    }
    return watermark;
  }

  /** The step that finishes {@code input} (-1: either input), or the number of steps. */
  private static int finishStep(List<Step> steps, int input) {
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      if (step.kind() == Kind.FINISH && (input < 0 || step.input() == input)) {
        return i;
      }
    }
    return steps.size();
  }
}
