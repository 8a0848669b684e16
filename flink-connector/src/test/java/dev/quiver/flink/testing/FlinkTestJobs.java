package dev.quiver.flink.testing;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.testing.BatchRows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

/** A shared MiniCluster and the job settings every Quiver test job uses. */
public final class FlinkTestJobs {
  public static final int SLOTS = 4;

  private FlinkTestJobs() {}

  /** One TaskManager with {@link #SLOTS} slots; register with {@code @RegisterExtension}. */
  public static MiniClusterExtension miniCluster() {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(SLOTS)
            .build());
  }

  /**
   * A BATCH environment in which a silent Kryo fallback is an error, records are passed between
   * chained operators without copies, and task counts are exactly what the job sets.
   */
  public static StreamExecutionEnvironment batchEnvironment() {
    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    return env;
  }

  /**
   * A STREAMING environment with the same settings, watermarks emitted every 50 ms (so idleness is
   * noticed quickly) and no restarts (a failure ends the job with its error).
   */
  public static StreamExecutionEnvironment streamingEnvironment() {
    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(50));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    return env;
  }

  /**
   * Runs the job that ends in {@code stream} and returns the rows of every data batch it sends to
   * the client; batches are decoded in {@code allocator} and released.
   */
  public static List<List<Object>> collectRows(
      DataStream<BatchRecord> stream, BufferAllocator allocator) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<BatchRecord> records =
        BatchResults.collect(stream, allocator, "quiver-test")) {
      while (records.hasNext()) {
        try (BatchRecord record = records.next()) {
          if (record.isData()) {
            rows.addAll(BatchRows.rows(record.batch()));
          }
        }
      }
    }
    return rows;
  }
}
