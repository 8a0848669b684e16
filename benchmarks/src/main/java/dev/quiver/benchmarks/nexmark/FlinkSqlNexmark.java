package dev.quiver.benchmarks.nexmark;

import dev.quiver.benchmarks.run.ClusterSettings;
import dev.quiver.benchmarks.run.Engine;
import dev.quiver.flink.nexmark.NexmarkBatchSource;
import dev.quiver.flink.session.LocalCluster;
import dev.quiver.nexmark.EventKind;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink 2.3 streaming SQL on its own MiniCluster (the TPC-H runs' settings, {@link
 * ClusterSettings}, in STREAMING mode; heap state, no checkpoints, Flink's defaults otherwise): per
 * query a new table environment declares {@code person}, {@code auction} and {@code bid} over
 * {@link NexmarkTableFactory} (the same generator and splits as Quiver's {@code
 * NexmarkBatchSource}, nexmark-flink's watermark), the query's sink over {@link
 * CountingSinkFactory}, and runs its INSERT to the end.
 */
// close() stops the MiniCluster, which waits and may throw InterruptedException.
@SuppressWarnings("try")
final class FlinkSqlNexmark implements NexmarkEngine {
  private static final Logger LOG = LoggerFactory.getLogger(FlinkSqlNexmark.class);
  private static final AtomicInteger RUNS = new AtomicInteger();

  private final NexmarkOptions options;
  private final LocalCluster cluster;

  FlinkSqlNexmark(NexmarkOptions options) {
    this.options = options;
    Configuration configuration =
        ClusterSettings.configuration(
            options.parallelism(), options.managedMemory(), ClusterSettings.freePort());
    configuration.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
    options.flinkConf().forEach(configuration::setString);
    this.cluster = LocalCluster.create(configuration, options.parallelism());
  }

  @Override
  public Engine.Kind kind() {
    return Engine.Kind.FLINK;
  }

  @Override
  public NexmarkResult run(NexmarkQuery query, long events) throws Exception {
    String id = "flink-" + query.name() + "-" + RUNS.incrementAndGet();
    Duration delay = NexmarkBatchSource.DEFAULT_WATERMARK_DELAY;
    long span = events * 1000 / options.config().eventsPerSecond();
    NexmarkRun run =
        NexmarkRun.start(id, options.config().baseTimeMillis(), span, delay.toMillis());
    try {
      StreamExecutionEnvironment env = cluster.environment();
      env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
      env.setParallelism(options.parallelism());
      StreamTableEnvironment tables =
          StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
      for (Map.Entry<String, String> option : options.flinkSql().entrySet()) {
        tables.getConfig().set(option.getKey(), option.getValue());
      }
      for (String table : query.tables()) {
        EventKind kind = EventKind.valueOf(table.toUpperCase(java.util.Locale.ROOT));
        tables.executeSql(NexmarkDdl.table(kind, events, options.config(), delay, id));
      }
      TableResult result = null;
      for (String statement : query.statements(id)) {
        result = tables.executeSql(statement);
      }
      JobClient job = result.getJobClient().orElseThrow();
      try {
        job.getJobExecutionResult().get(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        job.cancel();
        throw new TimeoutException(query.name() + " ran longer than " + options.timeout());
      }
      NexmarkResult measured =
          new NexmarkResult(events, run.rows(), run.elapsedNanos(), run.latencies());
      LOG.info(
          "Flink SQL {}: {} events, {} rows, {} ms, {} latency samples",
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

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
