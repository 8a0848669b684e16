package dev.quiver.benchmarks.nexmark;

import dev.quiver.benchmarks.run.ClusterSettings;
import dev.quiver.benchmarks.run.Engine;
import dev.quiver.flink.catalog.NexmarkTables;
import dev.quiver.flink.nexmark.NexmarkProgress;
import dev.quiver.flink.runtime.RowCountSink;
import dev.quiver.flink.session.PlannedQuery;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.RowCount;
import dev.quiver.flink.session.SessionBuilder;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkSchemas;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Quiver's side: one {@link QuiverSession} on its own MiniCluster with the Flink SQL side's
 * settings ({@link ClusterSettings}); per run the query's tables are registered anew as {@code
 * 'connector' = 'nexmark'} tables ({@link NexmarkTables}: the same generator, splits and watermark
 * as Flink's {@link NexmarkTableFactory}), and the query's {@code SELECT} ({@link
 * NexmarkQuery#select()}) runs as a STREAMING job. Its rows ({@code --quiver-results}):
 *
 * <ul>
 *   <li>{@code sink} (default): counted inside the job ({@link QuiverSession#count}, a {@link
 *       RowCountSink} after the final stage), as Flink's side counts them in its sink; timed to the
 *       last counting task's end of input; latency sampled per batch in the counting task.
 *   <li>{@code caller}: handed to this thread through the session's normal path ({@link SqlResult},
 *       as checkpoints complete) and counted here; timed to the last batch's arrival, which also
 *       holds the job's final checkpoint and the hand-over of the result.
 * </ul>
 *
 * <p>Start of the timing ({@link NexmarkRun}): the first batch a source reader emitted, the same as
 * Flink's. Latency: for a query whose result has a {@code dateTime} column, per result batch, its
 * arrival at the counting task (or the caller) minus the moment the sources had emitted its largest
 * {@code dateTime}; without one (q2) it is not measured.
 */
final class QuiverNexmark implements NexmarkEngine {
  private static final Logger LOG = LoggerFactory.getLogger(QuiverNexmark.class);
  private static final AtomicInteger RUNS = new AtomicInteger();

  private final NexmarkOptions options;
  private final QuiverSession session;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "quiver-nexmark-timeout");
            thread.setDaemon(true);
            return thread;
          });

  QuiverNexmark(NexmarkOptions options) {
    this.options = options;
    Configuration configuration =
        ClusterSettings.configuration(
            options.parallelism(), options.managedMemory(), ClusterSettings.freePort());
    options
        .quiverCheckpoints()
        .ifPresent(
            interval -> configuration.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval));
    SessionBuilder builder =
        QuiverSession.builder().parallelism(options.parallelism()).configuration(configuration);
    options.quiverTaskBudget().ifPresent(builder::taskMemoryBudget);
    this.session = builder.build();
  }

  NexmarkOptions options() {
    return options;
  }

  @Override
  public Engine.Kind kind() {
    return Engine.Kind.QUIVER;
  }

  @Override
  @SuppressWarnings("try") // the progress registration is held for the run, not referenced
  public NexmarkResult run(NexmarkQuery query, long events) throws Exception {
    String id = "quiver-" + query.name() + "-" + RUNS.incrementAndGet();
    Duration delay = NexmarkTables.eventTime().watermarkDelay();
    NexmarkConfig config = options.config();
    long span = events * 1000 / config.eventsPerSecond();
    NexmarkRun run = NexmarkRun.start(id, config.baseTimeMillis(), span, delay.toMillis());
    try (NexmarkProgress.Registration progress =
        NexmarkProgress.register(id, () -> run.emitter()::emitted)) {
      for (String table : query.tables()) {
        EventKind kind = EventKind.valueOf(table.toUpperCase(Locale.ROOT));
        session.registerTable(
            table,
            NexmarkTables.schema(kind),
            Optional.of(NexmarkTables.eventTime()),
            with(kind, events, config, id));
      }
      PlannedQuery planned = session.prepare(query.select()); // refuses what Quiver cannot run
      int dateTime = column(planned.schema(), NexmarkSchemas.DATE_TIME);
      if (options.quiverResults() == NexmarkOptions.QuiverResults.SINK) {
        RowCount counted;
        try {
          counted = session.count(planned, new SinkProbe(id, dateTime), options.timeout());
        } catch (TimeoutException e) {
          throw new TimeoutException(query.name() + " ran longer than " + options.timeout());
        }
        run.sinkRows(counted.rows()); // the probe reported each task's end of input
      } else {
        callerSide(planned, query, run, dateTime);
      }
      NexmarkResult measured =
          new NexmarkResult(events, run.rows(), run.elapsedNanos(), run.latencies());
      LOG.info(
          "Quiver {}: {} events, {} rows, {} ms, {} latency samples",
          query.name(),
          events,
          measured.rows(),
          measured.elapsedNanos() / 1_000_000,
          measured.latencyNanos().size());
      return measured;
    } finally {
      run.finish();
    }
  }

  /**
   * {@code --quiver-results caller}: the session's normal path, the result batches handed to this
   * thread (through the collect sink, as checkpoints complete), counted and sampled here.
   */
  private void callerSide(PlannedQuery planned, NexmarkQuery query, NexmarkRun run, int dateTime)
      throws Exception {
    long rows = 0;
    long last = 0;
    AtomicBoolean timedOut = new AtomicBoolean();
    try (SqlResult result = session.run(planned)) {
      ScheduledFuture<?> deadline =
          timer.schedule(
              () -> {
                timedOut.set(true);
                result.cancel();
              },
              options.timeout().toMillis(),
              TimeUnit.MILLISECONDS);
      try {
        while (result.hasNext()) {
          try (VectorSchemaRoot batch = result.next()) {
            long now = System.nanoTime();
            rows += batch.getRowCount();
            last = now;
            if (dateTime >= 0 && batch.getRowCount() > 0) {
              run.resultEventTime(maxMillis(batch, dateTime), now);
            }
          }
        }
        if (last == 0) {
          last = System.nanoTime(); // no rows: the end of the result
        }
      } catch (RuntimeException e) {
        if (timedOut.get()) {
          throw new TimeoutException(query.name() + " ran longer than " + options.timeout());
        }
        throw e;
      } finally {
        deadline.cancel(false);
      }
    }
    run.sinkRows(rows);
    run.sinkEnded(last);
  }

  /**
   * {@code --quiver-results sink}: runs in each counting task of the job ({@code RowCountSink}),
   * which counts the rows itself; this reports the task's end of input and, when the result has a
   * {@code dateTime} column, a latency sample per batch: now minus the moment the sources had
   * emitted the batch's largest {@code dateTime}.
   */
  private record SinkProbe(String run, int dateTime) implements RowCountSink.Probe {
    private static final long serialVersionUID = 1L;

    @Override
    public void batch(VectorSchemaRoot batch) {
      if (dateTime >= 0 && batch.getRowCount() > 0) {
        NexmarkRun.get(run).resultEventTime(maxMillis(batch, dateTime), System.nanoTime());
      }
    }

    @Override
    public void endOfInput() {
      NexmarkRun.get(run).sinkEnded(System.nanoTime());
    }
  }

  /** The {@code 'connector' = 'nexmark'} options of one kind's table, as Flink's DDL has them. */
  static Map<String, String> with(EventKind kind, long events, NexmarkConfig config, String run) {
    return Map.of(
        "connector", "nexmark",
        "kind", kind.tableName(),
        "events", Long.toString(events),
        "seed", Long.toString(config.seed()),
        "events-per-second", Long.toString(config.eventsPerSecond()),
        "base-time-millis", Long.toString(config.baseTimeMillis()),
        "progress", run);
  }

  private static int column(Schema schema, String name) {
    var fields = schema.getFields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  // Quiver's TIMESTAMP is microseconds.
  private static long maxMillis(VectorSchemaRoot batch, int column) {
    TimeStampVector times = (TimeStampVector) batch.getVector(column);
    long max = Long.MIN_VALUE;
    for (int row = 0; row < batch.getRowCount(); row++) {
      if (!times.isNull(row)) {
        max = Math.max(max, times.get(row));
      }
    }
    return max / 1000;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    session.close();
  }
}
