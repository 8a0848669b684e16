package dev.quiver.operators.windowed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.OperatorChain;
import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.sort.SortOperator;
import dev.quiver.operators.window.WindowOperator;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.testing.BatchRows;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Event-time streams for the per-window operator tests: batches whose rows fall into a few windows
 * near the stream's current one (some older, mostly late; some without a window end), watermarks in
 * between that stop exactly at a window's boundary or a millisecond short of it, some not
 * advancing. The inner operator is a window top-N's: a sort by (window end, p, v DESC, id), then
 * ROW_NUMBER, RANK, a running SUM, a whole-partition COUNT and LAG, partitioned by (window end, p).
 * The oracle replays the stream: which rows are on time, which windows each step completes, and
 * what the batch operators give over each such window's rows.
 */
final class WindowedTesting {
  /** p BIGINT, v INT, s VARCHAR, id BIGINT (unique), w_end TIMESTAMP: window end #4. */
  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("p", new ArrowType.Int(64, true)),
              Field.nullable("v", new ArrowType.Int(32, true)),
              Field.nullable("s", ArrowType.Utf8.INSTANCE),
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("w_end", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

  static final int END = 4;
  static final long T0 = 1_700_000_000_000_000L; // µs, a whole minute
  static final long SECOND = 1_000_000;
  static final List<Integer> PARTITION = List.of(END, 0);
  static final List<SortKey> ORDER = List.of(SortKey.desc(1), SortKey.asc(3));
  static final List<WindowCall> CALLS =
      List.of(
          WindowCall.ranking(WindowFunction.ROW_NUMBER, "rn"),
          WindowCall.ranking(WindowFunction.RANK, "rk"),
          WindowCall.of(WindowFunction.SUM, List.of(1), WindowFrame.DEFAULT_ORDERED, "running"),
          WindowCall.of(WindowFunction.COUNT_STAR, List.of(), WindowFrame.WHOLE_PARTITION, "n"),
          WindowCall.offset(WindowFunction.LAG, 2, 1, -1, "before"));

  private WindowedTesting() {}

  /** The end of window {@code w} (µs): every third one a microsecond past the millisecond grid. */
  static long windowEnd(int w) {
    return T0 + w * SECOND + (w % 3 == 0 ? 1 : 0);
  }

  /** The inner operator of a window top-N: the sort, then the window functions. */
  static Function<BatchSink, Operator> topN(OperatorContext context) {
    return topN(context, ORDER, CALLS);
  }

  /** As {@link #topN(OperatorContext)}, ordered by {@code order} within (window end, p). */
  static Function<BatchSink, Operator> topN(
      OperatorContext context, List<SortKey> order, List<WindowCall> calls) {
    List<SortKey> keys = new ArrayList<>();
    PARTITION.forEach(column -> keys.add(SortKey.asc(column)));
    keys.addAll(order);
    return sink ->
        new OperatorChain(
            out -> new SortOperator(context, SCHEMA, keys, out),
            out -> new WindowOperator(context, SCHEMA, PARTITION, order, calls, out),
            sink);
  }

  /** The schema of the top-N's output. */
  static Schema outputSchema(OperatorContext context) {
    return outputSchema(context, ORDER, CALLS);
  }

  /** The schema of the output of {@link #topN(OperatorContext, List, List)}. */
  static Schema outputSchema(OperatorContext context, List<SortKey> order, List<WindowCall> calls) {
    try (WindowOperator window =
        new WindowOperator(context, SCHEMA, PARTITION, order, calls, VectorSchemaRoot::close)) {
      return window.outputSchema();
    }
  }

  /** A step: a batch (rows made from {@code seed}, with these ends), or a watermark. */
  record Step(long seed, Long[] ends, long watermark) {
    static Step watermark(long millis) {
      return new Step(-1, null, millis);
    }

    static Step batch(long seed, Long... ends) {
      return new Step(seed, ends, 0);
    }

    boolean isWatermark() {
      return ends == null;
    }

    /** The batch of this step, made anew (the same every time). */
    VectorSchemaRoot batch(BufferAllocator allocator) {
      Random random = new Random(seed);
      VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator);
      BigIntVector p = (BigIntVector) batch.getVector(0);
      IntVector v = (IntVector) batch.getVector(1);
      VarCharVector s = (VarCharVector) batch.getVector(2);
      BigIntVector id = (BigIntVector) batch.getVector(3);
      TimeStampMicroVector end = (TimeStampMicroVector) batch.getVector(END);
      for (int i = 0; i < ends.length; i++) {
        if (random.nextInt(10) == 0) {
          p.setNull(i);
        } else {
          p.setSafe(i, random.nextInt(3));
        }
        if (random.nextInt(8) == 0) {
          v.setNull(i);
        } else {
          v.setSafe(i, random.nextInt(6));
        }
        s.setSafe(i, ("s" + random.nextInt(100)).getBytes(StandardCharsets.UTF_8));
        id.setSafe(i, seed * 1000 + i);
        if (ends[i] == null) {
          end.setNull(i);
        } else {
          end.setSafe(i, ends[i]);
        }
      }
      batch.setRowCount(ends.length);
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
      Long[] ends = new Long[random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(40)];
      for (int i = 0; i < ends.length; i++) {
        double draw = random.nextDouble();
        int w =
            draw < 0.08
                ? Math.max(1, current - 1 - random.nextInt(3)) // older: often late
                : Math.min(windows, current + random.nextInt(2));
        ends[i] = draw < 0.03 ? null : windowEnd(w);
      }
      stream.add(new Step(seed * 1000 + s, ends, 0));
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

  /**
   * What the per-window top-N must emit at each step (the stream's size for the finish at the end):
   * the batch operators over the on-time rows of each window the step completes.
   */
  static Map<Integer, List<List<Object>>> expected(
      List<Step> steps, OperatorContext context, BufferAllocator allocator) {
    TreeMap<Long, List<VectorSchemaRoot>> open = new TreeMap<>();
    Map<Integer, List<List<Object>>> expected = new TreeMap<>();
    long watermark = Long.MIN_VALUE;
    try {
      for (int s = 0; s < steps.size(); s++) {
        Step step = steps.get(s);
        if (!step.isWatermark()) {
          keepOnTime(step, watermark, open, allocator);
        } else if (step.watermark() > watermark) {
          watermark = step.watermark();
          run(open, watermark, s, context, expected);
        }
      }
      run(open, Long.MAX_VALUE / 1000 - 1, steps.size(), context, expected);
    } finally {
      open.values().forEach(batches -> batches.forEach(VectorSchemaRoot::close));
    }
    return expected;
  }

  private static void keepOnTime(
      Step step,
      long watermark,
      TreeMap<Long, List<VectorSchemaRoot>> open,
      BufferAllocator allocator) {
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
            int[] take = indices.stream().mapToInt(Integer::intValue).toArray();
            open.computeIfAbsent(end, e -> new ArrayList<>())
                .add(Take.take(batch, take, take.length, allocator));
          });
    }
  }

  private static void run(
      TreeMap<Long, List<VectorSchemaRoot>> open,
      long watermark,
      int step,
      OperatorContext context,
      Map<Integer, List<List<Object>>> expected) {
    while (!open.isEmpty() && complete(open.firstKey(), watermark)) {
      List<VectorSchemaRoot> window = open.pollFirstEntry().getValue();
      List<List<Object>> rows = expected.computeIfAbsent(step, s -> new ArrayList<>());
      try (Operator batchTopN =
          topN(context)
              .apply(
                  batch -> {
                    try (batch) {
                      rows.addAll(BatchRows.rows(batch));
                    }
                  })) {
        window.forEach(batch -> batchTopN.add(0, batch));
        window.clear();
        batchTopN.finish(0);
      }
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

  /** Feeds steps {@code [from, to)} to {@code operator}, then finishes it if {@code finish}. */
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
        operator.add(0, step.batch(allocator));
      }
    }
    if (finish) {
      sink.step = steps.size();
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
  }

  /** Asserts that each step emitted the same rows, in any order, and no other step emitted any. */
  static void assertSameByStep(
      Map<Integer, List<List<Object>>> actual, Map<Integer, List<List<Object>>> expected) {
    Map<Integer, List<List<Object>>> nonEmpty = new TreeMap<>(expected);
    nonEmpty.values().removeIf(List::isEmpty);
    assertThat(actual.keySet()).as("the steps that emit rows").isEqualTo(nonEmpty.keySet());
    nonEmpty.forEach(
        (step, rows) ->
            assertThat(actual.get(step))
                .as("step " + step)
                .containsExactlyInAnyOrderElementsOf(rows));
  }
}
