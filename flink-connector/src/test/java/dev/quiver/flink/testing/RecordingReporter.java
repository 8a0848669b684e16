package dev.quiver.flink.testing;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter for tests: remembers the last value of every numeric gauge whose name a
 * test asked for, read when the metric is removed (the task ended), so a test can see what a task
 * reported over its whole life. Values are kept per JVM; {@link #clear} between tests.
 *
 * <pre>{@code
 * Configuration flink = RecordingReporter.configure(new Configuration());
 * ... run a job on a cluster started with flink ...
 * List<Long> spilled = RecordingReporter.values("quiverSpilledBytes");
 * }</pre>
 */
public final class RecordingReporter implements MetricReporter {
  private static final Map<String, List<Long>> FINAL_VALUES = new ConcurrentHashMap<>();

  /** {@code configuration} with this reporter installed (for a MiniCluster's configuration). */
  public static Configuration configure(Configuration configuration) {
    configuration.setString("metrics.reporter.recording.factory.class", Factory.class.getName());
    return configuration;
  }

  /** The final values of the gauges named {@code name} of every task that has ended. */
  public static List<Long> values(String name) {
    return List.copyOf(FINAL_VALUES.getOrDefault(name, List.of()));
  }

  public static void clear() {
    FINAL_VALUES.clear();
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {}

  @Override
  public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {}

  @Override
  public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
    if (name.startsWith("quiver") && metric instanceof Gauge<?> gauge) {
      if (gauge.getValue() instanceof Number value) {
        FINAL_VALUES
            .computeIfAbsent(name, n -> new CopyOnWriteArrayList<>())
            .add(value.longValue());
      }
    }
  }

  /** What Flink instantiates from {@code metrics.reporter.<name>.factory.class}. */
  public static final class Factory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
      return new RecordingReporter();
    }
  }
}
