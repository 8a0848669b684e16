package dev.quiver.benchmarks.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;

/**
 * The Flink settings both Flink engines get, so that Quiver and Flink SQL run on identical
 * MiniClusters: one TaskManager with {@code parallelism} slots, the same managed memory, BATCH jobs
 * at the same default parallelism, shuffles without Flink's LZ4 compression, the REST endpoint on a
 * port of this machine's choosing. Public for the Nexmark runner, whose Flink SQL side runs on the
 * same settings in STREAMING mode.
 */
public final class ClusterSettings {
  private ClusterSettings() {}

  static Configuration configuration(BenchmarkOptions options, int restPort) {
    return configuration(options.parallelism(), options.managedMemory(), restPort);
  }

  /** The settings for {@code parallelism} slots and {@code managedMemory} (e.g. {@code 4g}). */
  public static Configuration configuration(int parallelism, String managedMemory, int restPort) {
    Configuration configuration = new Configuration();
    configuration.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
    configuration.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
    configuration.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
    configuration.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse(managedMemory));
    // Quiver's local default (SessionBuilder): no LZ4 shuffle compression on one machine.
    configuration.set(
        NettyShuffleEnvironmentOptions.SHUFFLE_COMPRESSION_CODEC,
        NettyShuffleEnvironmentOptions.CompressionCodec.NONE);
    configuration.set(RestOptions.ADDRESS, "localhost");
    configuration.set(RestOptions.BIND_ADDRESS, "localhost");
    configuration.set(RestOptions.BIND_PORT, Integer.toString(restPort));
    configuration.set(RestOptions.PORT, restPort);
    return configuration;
  }

  /** A TCP port free right now (for a MiniCluster's REST endpoint, which cancels jobs). */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port", e);
    }
  }
}
