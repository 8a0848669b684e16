package dev.quiver.operators.join;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.join.JoinHarness.RowFilter;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Two interleaved event-time streams for the interval join tests, the driver that feeds them, and
 * the oracle: a nested loop over the rows that were on time, each match due at the first advancing
 * watermark after its build row came that completes the build row (or at the last finish).
 */
final class IntervalJoinTesting {
  static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  static final ArrowType BIGINT = new ArrowType.Int(64, true);
  static final long SECOND = 1_000_000;
  static final long T0 = 1_700_000_000L * SECOND;

  /** bk, bt, bid, bs: key, event time, a unique id, a payload. */
  static final Schema BUILD =
      new Schema(
          List.of(
              RandomBatches.field("bk", BIGINT),
              RandomBatches.field("bt", TIMESTAMP),
              RandomBatches.field("bid", BIGINT),
              RandomBatches.field("bs", ArrowType.Utf8.INSTANCE)));

  /** ps, pk, pt, pid: a payload, key, event time, a unique id (columns in another order). */
  static final Schema PROBE =
      new Schema(
          List.of(
              RandomBatches.field("ps", ArrowType.Utf8.INSTANCE),
              RandomBatches.field("pk", BIGINT),
              RandomBatches.field("pt", TIMESTAMP),
              RandomBatches.field("pid", BIGINT)));

  static final int BUILD_TIME = 1;
  static final int PROBE_TIME = 2;

  private IntervalJoinTesting() {}

  /** One row of either input; NULL where a field is null. */
  record Row(Long key, Long time, long id, String text) {}

  enum Kind {
    BATCH,
    WATERMARK,
    FINISH
  }

  /** A step: a batch of an input, a watermark, or the end of an input. */
  record Step(Kind kind, int input, List<Row> rows, long watermark) {
    static Step batch(int input, List<Row> rows) {
      return new Step(Kind.BATCH, input, rows, 0);
    }

    static Step watermark(long millis) {
      return new Step(Kind.WATERMARK, -1, null, millis);
    }

    static Step finish(int input) {
      return new Step(Kind.FINISH, input, null, 0);
    }
  }

  /**
   * How to generate two streams: rows every {@code 0 .. maxGap} grid steps, out of order by up to
   * {@code delay}; some much older ({@code lateFraction}, mostly late), some without time.
   */
  record Shape(
      long seed,
      int batches,
      int maxRows,
      int keys,
      long grid,
      int maxGap,
      long delay,
      double lateFraction,
      double nullFraction) {
    Shape late(double late, double nulls) {
      return new Shape(seed, batches, maxRows, keys, grid, maxGap, delay, late, nulls);
    }
  }

  /**
   * Batches of random inputs, a watermark {@code (clock - delay) / 1 ms} (no on-time row after it
   * is behind it) after about every third batch, now and then one that does not advance; one input
   * finishes after 60 to 100 % of the batches, the other at the end.
   */
  static List<Step> stream(Shape shape) {
    Random random = new Random(shape.seed());
    String[] words = {"ask", "bid", "a somewhat longer payload string", ""};
    List<Step> steps = new ArrayList<>();
    long clock = T0;
    long id = 0;
    int first = random.nextInt(2);
    int finishAt = shape.batches() * (60 + random.nextInt(41)) / 100;
    boolean firstDone = false;
    for (int b = 0; b < shape.batches(); b++) {
      if (b == finishAt) {
        steps.add(Step.finish(first));
        firstDone = true;
      }
      int input = firstDone ? 1 - first : random.nextInt(2);
      List<Row> rows = new ArrayList<>();
      int count = random.nextInt(shape.maxRows() + 1);
      for (int i = 0; i < count; i++) {
        clock += shape.grid() * random.nextInt(shape.maxGap() + 1);
        long delaySteps = shape.delay() / shape.grid();
        Long time = clock - shape.grid() * (long) random.nextInt((int) delaySteps + 1);
        if (random.nextDouble() < shape.lateFraction()) {
          time = clock - shape.delay() - shape.grid() * (1 + random.nextInt(50));
        }
        if (random.nextDouble() < shape.nullFraction()) {
          time = null;
        }
        Long key = random.nextInt(20) == 0 ? null : (long) random.nextInt(shape.keys());
        String text = random.nextInt(10) == 0 ? null : words[random.nextInt(words.length)];
        rows.add(new Row(key, time, id++, text));
      }
      steps.add(Step.batch(input, rows));
      if (random.nextInt(3) == 0) {
        long watermark = Math.floorDiv(clock - shape.delay(), 1000);
        steps.add(Step.watermark(watermark));
        if (random.nextInt(4) == 0) {
          steps.add(Step.watermark(watermark - random.nextInt(3))); // does not advance
        }
      }
    }
    steps.add(Step.finish(firstDone ? 1 - first : first));
    if (!firstDone) {
      steps.add(Step.finish(1 - first));
    }
    return steps;
  }

  /** What the oracle expects: the output rows by step, the drop counters, the rows held. */
  record Expected(
      Map<Integer, Map<List<Object>, Integer>> byStep,
      long late,
      long withoutTime,
      long lateBuild,
      long lateProbe) {}

  /** A batch of the oracle's build rows: its on-time rows and the step it came at. */
  private record Admitted(List<Row> rows, int step) {}

  /** The expected output of an interval join of {@code [lower, upper]} over {@code steps}. */
  static Expected oracle(List<Step> steps, long lower, long upper, boolean extra) {
    long watermark = Long.MIN_VALUE;
    long late = 0;
    long withoutTime = 0;
    long[] lateBy = new long[2];
    List<Admitted> build = new ArrayList<>();
    List<Row> probe = new ArrayList<>();
    int lastFinish = -1;
    for (int s = 0; s < steps.size(); s++) {
      Step step = steps.get(s);
      switch (step.kind()) {
        case WATERMARK -> watermark = Math.max(watermark, step.watermark());
        case FINISH -> lastFinish = s;
        case BATCH -> {
          List<Row> onTime = new ArrayList<>();
          for (Row row : step.rows()) {
            if (row.time() == null) {
              withoutTime++;
            } else if (watermark != Long.MIN_VALUE && row.time() < watermark * 1000) {
              late++;
              lateBy[step.input()]++;
            } else {
              onTime.add(row);
            }
          }
          if (step.input() == 0) {
            build.add(new Admitted(onTime, s));
          } else {
            probe.addAll(onTime);
          }
        }
      }
    }
    Map<Integer, Map<List<Object>, Integer>> byStep = new TreeMap<>();
    for (Admitted batch : build) {
      for (Row b : batch.rows()) {
        int due = due(steps, batch.step(), b.time() + upper, lastFinish);
        for (Row p : probe) {
          if (b.key() != null
              && b.key().equals(p.key())
              && p.time() - b.time() >= lower
              && p.time() - b.time() <= upper
              && (!extra || extra(b.id(), p.id()))) {
            byStep.computeIfAbsent(due, k -> new HashMap<>()).merge(output(p, b), 1, Integer::sum);
          }
        }
      }
    }
    return new Expected(byStep, late, withoutTime, lateBy[0], lateBy[1]);
  }

  /** The first step after {@code from} whose watermark advances beyond {@code reach}, or finish. */
  private static int due(List<Step> steps, int from, long reach, int lastFinish) {
    long watermark = Long.MIN_VALUE;
    for (int s = 0; s < steps.size(); s++) {
      Step step = steps.get(s);
      if (step.kind() == Kind.WATERMARK && step.watermark() > watermark) {
        watermark = step.watermark();
        if (s > from && s < lastFinish && reach < watermark * 1000) {
          return s;
        }
      }
    }
    return lastFinish;
  }

  /** The extra residual condition some tests add: {@code (bid + pid) % 3 <> 0}. */
  static boolean extra(long buildId, long probeId) {
    return (buildId + probeId) % 3 != 0;
  }

  /** The plan's filter: the time bounds, and the extra condition if {@code extra}. */
  static JoinFilter filter(long lower, long upper, boolean extra) {
    return new RowFilter(
        "bounds" + (extra ? " and extra" : ""),
        (b, p) -> {
          long difference = micros(p.get(PROBE_TIME)) - micros(b.get(BUILD_TIME));
          return difference >= lower
              && difference <= upper
              && (!extra || extra((Long) b.get(2), (Long) p.get(3)));
        });
  }

  static IntervalJoinOperator operator(
      OperatorContext context, long lower, long upper, JoinFilter filter, BatchSink sink) {
    return operator(context, JoinType.INNER, lower, upper, filter, sink);
  }

  static IntervalJoinOperator operator(
      OperatorContext context,
      JoinType type,
      long lower,
      long upper,
      JoinFilter filter,
      BatchSink sink) {
    return new IntervalJoinOperator(
        context,
        JoinKind.of(type),
        BUILD,
        new int[] {0},
        PROBE,
        new int[] {1},
        () -> filter,
        BUILD_TIME,
        PROBE_TIME,
        lower,
        upper,
        sink);
  }

  static OperatorContext context(BufferAllocator allocator, int target) {
    return new OperatorContext(
        allocator, new MemoryBudget("interval test", Long.MAX_VALUE), target);
  }

  /**
   * An output row as {@link BatchRows} reads it: probe columns, then build columns; a null row (an
   * outer join's padding) gives NULL columns.
   */
  static List<Object> output(Row p, Row b) {
    List<Object> row = new ArrayList<>(8);
    row.add(p == null ? null : p.text());
    row.add(p == null ? null : p.key());
    row.add(p == null ? null : timestamp(p.time()));
    row.add(p == null ? null : p.id());
    row.add(b == null ? null : b.key());
    row.add(b == null ? null : timestamp(b.time()));
    row.add(b == null ? null : b.id());
    row.add(b == null ? null : b.text());
    return row;
  }

  static LocalDateTime timestamp(long micros) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(micros, SECOND), (int) Math.floorMod(micros, SECOND) * 1000, ZoneOffset.UTC);
  }

  static long micros(Object timestamp) {
    LocalDateTime time = (LocalDateTime) timestamp;
    return time.toEpochSecond(ZoneOffset.UTC) * SECOND + time.getNano() / 1000;
  }

  /** A batch of {@code input}'s schema holding {@code rows}. */
  static VectorSchemaRoot batch(int input, List<Row> rows, BufferAllocator allocator) {
    boolean build = input == 0;
    VectorSchemaRoot root = VectorSchemaRoot.create(build ? BUILD : PROBE, allocator);
    try {
      for (FieldVector vector : root.getFieldVectors()) {
        vector.setInitialCapacity(Math.max(1, rows.size())); // as small as a source's batch
      }
      root.allocateNew();
      BigIntVector key = (BigIntVector) root.getVector(build ? 0 : 1);
      TimeStampMicroVector time = (TimeStampMicroVector) root.getVector(build ? 1 : 2);
      BigIntVector id = (BigIntVector) root.getVector(build ? 2 : 3);
      VarCharVector text = (VarCharVector) root.getVector(build ? 3 : 0);
      for (int i = 0; i < rows.size(); i++) {
        Row row = rows.get(i);
        if (row.key() != null) {
          key.setSafe(i, row.key());
        }
        if (row.time() != null) {
          time.setSafe(i, row.time());
        }
        id.setSafe(i, row.id());
        if (row.text() != null) {
          text.setSafe(i, row.text().getBytes(StandardCharsets.UTF_8));
        }
      }
      root.setRowCount(rows.size());
      return root;
    } catch (RuntimeException | Error e) {
      root.close();
      throw e;
    }
  }

  /** Feeds steps {@code [from, to)} to {@code operator}; {@code out} tags output by step. */
  static void drive(
      IntervalJoinOperator operator,
      List<Step> steps,
      int from,
      int to,
      Recorder out,
      BufferAllocator allocator) {
    for (int s = from; s < to; s++) {
      out.step = s;
      Step step = steps.get(s);
      switch (step.kind()) {
        case BATCH -> operator.add(step.input(), batch(step.input(), step.rows(), allocator));
        case WATERMARK -> operator.watermark(step.watermark());
        case FINISH -> operator.finish(step.input());
      }
    }
  }

  /** A sink that reads every batch into rows by step and closes it. */
  static final class Recorder implements BatchSink {
    private final int targetRows;
    final Map<Integer, Map<List<Object>, Integer>> byStep = new TreeMap<>();
    int step;
    long rows;

    Recorder(int targetRows) {
      this.targetRows = targetRows;
    }

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        assertThat(batch.getRowCount()).isBetween(1, targetRows);
        for (List<Object> row : BatchRows.rows(batch)) {
          byStep.computeIfAbsent(step, k -> new HashMap<>()).merge(row, 1, Integer::sum);
          rows++;
        }
      }
    }
  }
}
