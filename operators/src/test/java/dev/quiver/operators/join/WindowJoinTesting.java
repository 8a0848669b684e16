package dev.quiver.operators.join;

import static dev.quiver.testing.RandomBatches.field;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.Take;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Event-time streams for the window join tests: batches of both inputs interleaved at random, each
 * row in one of a few windows near the stream's current one (some older, mostly late; some without
 * a window end; some windows get rows of one input only), watermarks in between that stop exactly
 * at a window's boundary or a millisecond short of it, some not advancing. The oracle replays the
 * stream: which rows are on time, and which windows each step completes.
 */
final class WindowJoinTesting {
  static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);

  /** {@link HashJoinOperatorTest#BUILD} plus a window end: key #0, window end #3. */
  static final Schema BUILD =
      new Schema(
          List.of(
              field("bk", new ArrowType.Int(64, true)),
              field("bs", ArrowType.Utf8.INSTANCE),
              field("bv", new ArrowType.Int(32, true)),
              field("b_end", TIMESTAMP)));

  /** {@link HashJoinOperatorTest#PROBE} plus a window end: key #2, window end #3. */
  static final Schema PROBE =
      new Schema(
          List.of(
              field("ps", ArrowType.Utf8.INSTANCE),
              field("px", new ArrowType.Int(32, true)),
              field("pk", new ArrowType.Int(64, true)),
              field("p_end", TIMESTAMP)));

  static final int END = 3;
  static final long T0 = 1_700_000_000_000_000L; // µs, a whole minute
  static final long SECOND = 1_000_000;

  private WindowJoinTesting() {}

  /** The join of {@link #BUILD} column 0 and {@link #PROBE} column 2, equal, per window end. */
  static WindowJoinOperator keyJoin(
      OperatorContext context, JoinKind kind, dev.quiver.operators.BatchSink out) {
    return new WindowJoinOperator(
        context, kind, BUILD, new int[] {0}, PROBE, new int[] {2}, null, END, END, out);
  }

  /** The end of window {@code w} (µs): every third one a microsecond past the millisecond grid. */
  static long windowEnd(int w) {
    return T0 + w * SECOND + (w % 3 == 0 ? 1 : 0);
  }

  /**
   * A step: a batch of {@code input} (rows made from {@code seed}, with these ends), or a
   * watermark.
   */
  record Step(int input, long seed, Long[] ends, long watermark) {
    static Step watermark(long millis) {
      return new Step(-1, 0, null, millis);
    }

    boolean isWatermark() {
      return input < 0;
    }

    /** The batch of this step, made anew (the same every time). */
    VectorSchemaRoot batch(BufferAllocator allocator) {
      RandomBatches random = new RandomBatches(seed).distinctValues(6).nullFraction(0.1);
      VectorSchemaRoot batch = random.batch(input == 0 ? BUILD : PROBE, ends.length, allocator);
      TimeStampMicroVector end = (TimeStampMicroVector) batch.getVector(END);
      for (int i = 0; i < ends.length; i++) {
        if (ends[i] == null) {
          end.setNull(i);
        } else {
          end.setSafe(i, ends[i]);
        }
      }
      return batch;
    }
  }

  /** A random stream over {@code windows} windows of {@code steps} steps. */
  static List<Step> stream(long seed, int windows, int steps) {
    Random random = new Random(seed);
    List<Step> stream = new ArrayList<>();
    int current = 1;
    for (int s = 0; s < steps; s++) {
      if (s > 0 && random.nextInt(4) == 0) {
        int complete = Math.max(1, current - 1 - random.nextInt(2));
        long exact = Math.floorDiv(windowEnd(complete) + 999, 1000) - 1; // the boundary
        stream.add(Step.watermark(exact - random.nextInt(2)));
        continue;
      }
      int input = random.nextInt(2);
      Long[] ends = new Long[random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(40)];
      for (int i = 0; i < ends.length; i++) {
        double draw = random.nextDouble();
        int w =
            draw < 0.08
                ? Math.max(1, current - 1 - random.nextInt(3)) // older: often late
                : Math.min(windows, current + random.nextInt(2));
        if (w % 4 == 2 && input == 0 || w % 4 == 3 && input == 1) {
          w--; // windows 2, 6, 10, ... have probe rows only, 3, 7, 11, ... build rows only
        }
        ends[i] = draw < 0.03 ? null : windowEnd(w);
      }
      stream.add(new Step(input, seed * 1000 + s, ends, 0));
      if (random.nextInt(3) == 0) {
        current = Math.min(windows, current + 1);
      }
    }
    return stream;
  }

  /** Whether a window ending at {@code end} (µs) is complete at watermark {@code millis}. */
  static boolean complete(long end, long millis) {
    return millis != Long.MIN_VALUE && end <= (millis + 1) * 1000;
  }

  /** The on-time rows of one window, as batches per input (owned by the caller). */
  static final class WindowRows implements AutoCloseable {
    final List<VectorSchemaRoot> build = new ArrayList<>();
    final List<VectorSchemaRoot> probe = new ArrayList<>();

    @Override
    public void close() {
      build.forEach(VectorSchemaRoot::close);
      probe.forEach(VectorSchemaRoot::close);
    }
  }

  /**
   * What the window join must emit at each step (the stream's size for the finish at the end):
   * {@code check} run as a batch hash join over the on-time rows of each window the step completes.
   */
  static Map<Integer, List<List<Object>>> expected(
      List<Step> steps, HashJoinCheck check, BufferAllocator allocator) {
    TreeMap<Long, WindowRows> open = new TreeMap<>();
    Map<Integer, List<List<Object>>> expected = new TreeMap<>();
    long watermark = Long.MIN_VALUE;
    try {
      for (int s = 0; s < steps.size(); s++) {
        Step step = steps.get(s);
        if (!step.isWatermark()) {
          keepOnTime(step, watermark, open, allocator);
        } else if (step.watermark() > watermark) {
          watermark = step.watermark();
          join(open, watermark, s, check, allocator, expected);
        }
      }
      join(open, Long.MAX_VALUE / 1000 - 1, steps.size(), check, allocator, expected);
    } finally {
      open.values().forEach(WindowRows::close);
    }
    return expected;
  }

  private static void keepOnTime(
      Step step, long watermark, TreeMap<Long, WindowRows> open, BufferAllocator allocator) {
    try (VectorSchemaRoot batch = step.batch(allocator)) {
      Map<Long, List<Integer>> rows = new TreeMap<>();
      for (int i = 0; i < step.ends().length; i++) {
        Long end = step.ends()[i];
        if (end != null && !complete(end, watermark)) {
          rows.computeIfAbsent(end, e -> new ArrayList<>()).add(i);
        }
      }
      rows.forEach(
          (end, indices) -> {
            WindowRows window = open.computeIfAbsent(end, e -> new WindowRows());
            int[] take = indices.stream().mapToInt(Integer::intValue).toArray();
            (step.input() == 0 ? window.build : window.probe)
                .add(Take.take(batch, take, take.length, allocator));
          });
    }
  }

  private static void join(
      TreeMap<Long, WindowRows> open,
      long watermark,
      int step,
      HashJoinCheck check,
      BufferAllocator allocator,
      Map<Integer, List<List<Object>>> expected) {
    while (!open.isEmpty() && complete(open.firstKey(), watermark)) {
      WindowRows window = open.pollFirstEntry().getValue();
      List<List<Object>> rows = check.run(allocator, window.build, window.probe).rows();
      expected.computeIfAbsent(step, s -> new ArrayList<>()).addAll(rows);
    }
  }

  /** Rows on time, rows late and rows without a window end of the whole stream. */
  static long[] counts(List<Step> steps) {
    long[] counts = new long[3];
    long watermark = Long.MIN_VALUE;
    for (Step step : steps) {
      if (step.isWatermark()) {
        watermark = Math.max(watermark, step.watermark());
        continue;
      }
      for (Long end : step.ends()) {
        counts[end == null ? 2 : complete(end, watermark) ? 1 : 0]++;
      }
    }
    return counts;
  }

  /**
   * Feeds steps {@code [from, to)} to {@code operator}, then finishes both inputs if {@code
   * finish}; the sink tags what it gets with the step.
   */
  static void drive(
      Operator operator,
      List<Step> steps,
      int from,
      int to,
      boolean finish,
      Recorder sink,
      BufferAllocator allocator) {
    for (int s = from; s < to; s++) {
      sink.step = s;
      Step step = steps.get(s);
      if (step.isWatermark()) {
        operator.watermark(step.watermark());
      } else {
        operator.add(step.input(), step.batch(allocator));
      }
    }
    if (finish) {
      sink.step = steps.size();
      operator.finish(1);
      operator.finish(0);
    }
  }

  /** Collects the rows emitted at each step; checks batch sizes and the schema. */
  static final class Recorder implements BatchSink {
    final Map<Integer, List<List<Object>>> byStep = new TreeMap<>();
    private final int targetRows;
    private final Schema schema;
    int step;
    int batches;

    Recorder(int targetRows, Schema schema) {
      this.targetRows = targetRows;
      this.schema = schema;
    }

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        assertThat(batch.getRowCount()).isBetween(1, targetRows);
        assertThat(batch.getSchema()).isEqualTo(schema);
        batches++;
        byStep.computeIfAbsent(step, s -> new ArrayList<>()).addAll(BatchRows.rows(batch));
      }
    }

    List<List<Object>> rows() {
      List<List<Object>> rows = new ArrayList<>();
      byStep.values().forEach(rows::addAll);
      return rows;
    }
  }

  /** Asserts that each step emitted the same rows, in any order, and no other step emitted any. */
  static void assertSameByStep(
      Map<Integer, List<List<Object>>> actual, Map<Integer, List<List<Object>>> expected) {
    Map<Integer, List<List<Object>>> nonEmpty = new TreeMap<>(expected);
    nonEmpty.values().removeIf(List::isEmpty);
    assertThat(actual.keySet()).as("the steps that emit rows").isEqualTo(nonEmpty.keySet());
    nonEmpty.forEach((step, rows) -> JoinHarness.assertSameRows(actual.get(step), rows));
  }

  /** Microseconds since the epoch of a TIMESTAMP value as {@link BatchRows} reads it. */
  static long micros(Object timestamp) {
    LocalDateTime time = (LocalDateTime) timestamp;
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + time.getNano() / 1000;
  }
}
