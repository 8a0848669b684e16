package dev.quiver.operators.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Event-time streams for the window aggregate tests: rows of a windowing table function's output
 * (window_start, window_end added; HOP rows repeated once per window), cut into batches with a
 * watermark after each, and the oracle that says which rows are on time.
 */
public final class WindowTesting {
  public static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  public static final ArrowType DECIMAL = new ArrowType.Decimal(12, 2, 128);
  public static final ArrowType BIGINT = new ArrowType.Int(64, true);

  public static final int K = 0;
  public static final int NAME = 1;
  public static final int PRICE = 2;
  public static final int TS = 3;
  public static final int START = 4;
  public static final int END = 5;
  public static final int V = 6;

  public static final Schema SCHEMA =
      new Schema(
          List.of(
              RandomBatches.field("k", BIGINT),
              RandomBatches.field("name", ArrowType.Utf8.INSTANCE),
              RandomBatches.field("price", DECIMAL),
              RandomBatches.field("ts", TIMESTAMP),
              RandomBatches.field("window_start", TIMESTAMP),
              RandomBatches.field("window_end", TIMESTAMP),
              RandomBatches.field("v", BIGINT)));

  /** SUM / COUNT / MIN / MAX / AVG over BIGINT, DECIMAL, VARCHAR and TIMESTAMP columns. */
  public static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.countStar("n"),
          call(AggregateFunction.COUNT, V),
          call(AggregateFunction.SUM, V),
          call(AggregateFunction.AVG, V),
          call(AggregateFunction.MIN, V),
          call(AggregateFunction.SUM, PRICE),
          call(AggregateFunction.AVG, PRICE),
          call(AggregateFunction.MAX, PRICE),
          call(AggregateFunction.MIN, NAME),
          call(AggregateFunction.MAX, NAME),
          call(AggregateFunction.MAX, TS));

  static final long T0 = 1_700_000_000_000_000L; // µs, a whole minute

  private WindowTesting() {}

  public static AggregateCall call(AggregateFunction function, int column) {
    return AggregateCall.of(
        function,
        column,
        SCHEMA.getFields().get(column).getType(),
        function.name().toLowerCase() + "_" + column);
  }

  /** One input row; NULL where a field is null. */
  public record Row(Long k, String name, Long cents, Long ts, Long start, Long end, Long v) {
    Row inWindow(long windowStart, long size) {
      return new Row(k, name, cents, ts, windowStart, windowStart + size, v);
    }
  }

  /** A step of a stream: a batch of rows, or (rows null) a watermark. */
  public record Step(List<Row> rows, long watermark) {
    public static Step batch(List<Row> rows) {
      return new Step(rows, 0);
    }

    public static Step watermark(long millis) {
      return new Step(null, millis);
    }

    public boolean isWatermark() {
      return rows == null;
    }
  }

  /** How to generate a stream. */
  public record Shape(
      long seed,
      long sizeMicros,
      long slideMicros,
      int batches,
      int rowsPerBatch,
      long delayMillis,
      double lateFraction,
      double nullFraction,
      int keys) {}

  /**
   * Rows every 7 ms or so, out of order by up to the watermark delay, some much older (mostly
   * late), some without event time; after each batch the watermark max(ts) - delay - 1 ms (Flink's
   * bounded out-of-orderness), now and then repeated.
   */
  public static List<Step> stream(Shape shape) {
    Random random = new Random(shape.seed());
    List<Step> steps = new ArrayList<>();
    String[] names = {"apple", "banana", "cherry", "durian", "elderberry-with-a-long-name"};
    long maxTs = Long.MIN_VALUE;
    long clock = T0;
    for (int b = 0; b < shape.batches(); b++) {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < shape.rowsPerBatch(); i++) {
        clock += 1_000 + random.nextInt(12_000);
        Long ts = clock - (long) (random.nextDouble() * shape.delayMillis() * 1000);
        if (random.nextDouble() < shape.lateFraction()) {
          ts = clock - shape.delayMillis() * 1000 - random.nextInt((int) shape.sizeMicros() * 3);
        }
        if (random.nextDouble() < shape.nullFraction()) {
          ts = null;
        }
        Row row =
            new Row(
                random.nextInt(20) == 0 ? null : (long) random.nextInt(shape.keys()),
                random.nextInt(20) == 0 ? null : names[random.nextInt(names.length)],
                random.nextInt(10) == 0 ? null : (long) random.nextInt(1_000_000) - 200_000,
                ts,
                null,
                null,
                random.nextInt(10) == 0 ? null : (long) random.nextInt(2_000_000) - 1_000_000);
        if (ts == null) {
          rows.add(row);
          continue;
        }
        maxTs = Math.max(maxTs, ts);
        long last = Math.floorDiv(ts, shape.slideMicros()) * shape.slideMicros();
        for (long start = last; start > ts - shape.sizeMicros(); start -= shape.slideMicros()) {
          rows.add(row.inWindow(start, shape.sizeMicros()));
        }
      }
      steps.add(Step.batch(rows));
      if (maxTs != Long.MIN_VALUE) {
        long watermark = Math.floorDiv(maxTs, 1000) - shape.delayMillis() - 1;
        steps.add(Step.watermark(watermark));
        if (random.nextInt(4) == 0) {
          steps.add(Step.watermark(watermark - random.nextInt(3))); // does not advance
        }
      }
    }
    return steps;
  }

  /** Whether a row with window end {@code end} (µs) is late at watermark {@code millis}. */
  static boolean complete(long end, long millis) {
    return millis != Long.MIN_VALUE && end <= (millis + 1) * 1000;
  }

  /** The rows that are on time: a window end that the watermarks before them do not complete. */
  static List<Row> onTime(List<Step> steps) {
    List<Row> rows = new ArrayList<>();
    long watermark = Long.MIN_VALUE;
    for (Step step : steps) {
      if (step.isWatermark()) {
        watermark = Math.max(watermark, step.watermark());
        continue;
      }
      for (Row row : step.rows()) {
        if (row.end() != null && !complete(row.end(), watermark)) {
          rows.add(row);
        }
      }
    }
    return rows;
  }

  /** Rows whose window end was complete when they came. */
  static long late(List<Step> steps) {
    long all = steps.stream().filter(s -> !s.isWatermark()).mapToLong(s -> s.rows().size()).sum();
    long nulls =
        steps.stream()
            .filter(s -> !s.isWatermark())
            .flatMap(s -> s.rows().stream())
            .filter(r -> r.end() == null)
            .count();
    return all - nulls - onTime(steps).size();
  }

  /** A batch of {@link #SCHEMA} holding {@code rows}. */
  public static VectorSchemaRoot batch(List<Row> rows, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    try {
      root.allocateNew();
      BigIntVector k = (BigIntVector) root.getVector(K);
      VarCharVector name = (VarCharVector) root.getVector(NAME);
      DecimalVector price = (DecimalVector) root.getVector(PRICE);
      BigIntVector v = (BigIntVector) root.getVector(V);
      for (int i = 0; i < rows.size(); i++) {
        Row row = rows.get(i);
        if (row.k() != null) {
          k.setSafe(i, row.k());
        }
        if (row.name() != null) {
          name.setSafe(i, row.name().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (row.cents() != null) {
          price.setSafe(i, BigDecimal.valueOf(row.cents(), 2));
        }
        setTime(root, TS, i, row.ts());
        setTime(root, START, i, row.start());
        setTime(root, END, i, row.end());
        if (row.v() != null) {
          v.setSafe(i, row.v());
        }
      }
      root.setRowCount(rows.size());
      return root;
    } catch (RuntimeException | Error e) {
      root.close();
      throw e;
    }
  }

  private static void setTime(VectorSchemaRoot root, int column, int row, Long micros) {
    if (micros != null) {
      ((TimeStampMicroVector) root.getVector(column)).setSafe(row, micros);
    }
  }

  /** Microseconds since the epoch of a TIMESTAMP value as {@link BatchRows} reads it. */
  static long micros(Object timestamp) {
    LocalDateTime time = (LocalDateTime) timestamp;
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + time.getNano() / 1000;
  }

  /** What an operator emitted while the stream was fed: the rows of each step that emitted any. */
  public record Emission(int step, List<List<Object>> rows) {}

  /**
   * Feeds {@code steps} from {@code from} to {@code operator} (batches, watermarks), then finishes
   * it if {@code finish}; the output collected by {@code sink} is tagged with the step (finish:
   * {@code steps.size()}).
   */
  public static void drive(
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
        operator.add(0, batch(step.rows(), allocator));
      }
    }
    if (finish) {
      sink.step = steps.size();
      operator.finish(0);
    }
  }

  /** A sink that reads every batch into rows and closes it, tagged with the current step. */
  public static final class Recorder implements BatchSink {
    private final int targetRows;
    final List<Emission> emissions = new ArrayList<>();
    int step;
    int batches;

    public Recorder(int targetRows) {
      this.targetRows = targetRows;
    }

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        assertThat(batch.getRowCount()).isBetween(1, targetRows);
        batches++;
        if (emissions.isEmpty() || emissions.get(emissions.size() - 1).step() != step) {
          emissions.add(new Emission(step, new ArrayList<>()));
        }
        emissions.get(emissions.size() - 1).rows().addAll(BatchRows.rows(batch));
      }
    }

    /** Every row emitted, in order. */
    public List<List<Object>> rows() {
      List<List<Object>> rows = new ArrayList<>();
      emissions.forEach(e -> rows.addAll(e.rows()));
      return rows;
    }

    /** Group key → values; each group appears once. */
    Map<List<Object>, List<Object>> results(int keyCount) {
      Map<List<Object>, List<Object>> results = new LinkedHashMap<>();
      for (List<Object> row : rows()) {
        List<Object> key = new ArrayList<>(row.subList(0, keyCount));
        assertThat(results.put(key, new ArrayList<>(row.subList(keyCount, row.size()))))
            .as("group %s emitted twice", key)
            .isNull();
      }
      return results;
    }
  }
}
