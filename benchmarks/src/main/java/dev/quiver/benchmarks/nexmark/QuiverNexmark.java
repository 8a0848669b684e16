package dev.quiver.benchmarks.nexmark;

import dev.quiver.benchmarks.run.ClusterSettings;
import dev.quiver.benchmarks.run.Engine;
import dev.quiver.flink.catalog.NexmarkTables;
import dev.quiver.flink.nexmark.NexmarkProgress;
import dev.quiver.flink.session.PlannedQuery;
import dev.quiver.flink.session.QuiverSession;
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
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Quiver's side: one {@link QuiverSession} on its own MiniCluster with the Flink SQL side's
 * settings ({@link ClusterSettings}); per run the query's tables are registered anew as {@code
 * 'connector' = 'nexmark'} tables ({@link NexmarkTables}: the same generator, splits and watermark
 * as Flink's {@link NexmarkTableFactory}), and the query's {@code SELECT} ({@link
 * NexmarkQuery#select()}) runs as a STREAMING job through the session's normal path: the result
 * batches come back to this thread as checkpoints complete, and it counts their rows, as the
 * counting sink does.
 *
 * <p>What is timed ({@link NexmarkRun}): from the first batch a source reader emitted (the same
 * start as Flink's) to the arrival of the last result batch here, which includes the job's final
 * checkpoint and the hand-over of the result: Flink's end is its sink's end of input, inside the
 * job. Latency: for a query whose result has a {@code dateTime} column, per result batch, its
 * arrival minus the moment the sources had emitted its largest {@code dateTime}; without one (q2)
 * there is nothing to measure it by here.
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
    this.session =
        QuiverSession.builder()
            .parallelism(options.parallelism())
            .configuration(configuration)
            .build();
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
          int dateTime = column(result, NexmarkSchemas.DATE_TIME);
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

  private static int column(SqlResult result, String name) {
    var fields = result.schema().getFields();
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
