package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One MiniCluster in this JVM for the whole session. Starting a MiniCluster takes seconds (2.1–2.4
 * s here), a job on a running one a fraction of that, so the session starts it once and submits
 * every query's job to it ({@link MiniClusterExecutors}).
 *
 * <p>One TaskManager with as many slots as the session's parallelism (a query's stages share
 * slots), unless the configuration says {@code taskmanager.numberOfTaskSlots}. Its REST endpoint
 * binds a free port unless the configuration names one, so that sessions, test runs and other users
 * of the machine never collide on 8081.
 */
final class LocalCluster implements SessionCluster {
  private final MiniCluster cluster;
  private final MiniClusterExecutors executors;
  private final Configuration jobConfiguration;
  private final int slots;

  private LocalCluster(MiniCluster cluster, Configuration jobConfiguration, int slots) {
    this.cluster = cluster;
    this.executors = new MiniClusterExecutors(cluster);
    this.jobConfiguration = jobConfiguration;
    this.slots = slots;
  }

  /**
   * Starts a MiniCluster configured with {@code configuration}, whose jobs run with it too.
   *
   * @param parallelism the default number of slots
   */
  static LocalCluster start(Configuration configuration, int parallelism) throws Exception {
    requireNonNull(configuration, "configuration is null");
    Configuration clusterConfiguration = new Configuration(configuration);
    if (!clusterConfiguration.contains(RestOptions.BIND_PORT)
        && !clusterConfiguration.contains(RestOptions.PORT)) {
      clusterConfiguration.set(RestOptions.BIND_PORT, "0");
    }
    int slots =
        clusterConfiguration.getOptional(TaskManagerOptions.NUM_TASK_SLOTS).orElse(parallelism);
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(clusterConfiguration)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
    try {
      cluster.start();
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return new LocalCluster(cluster, new Configuration(configuration), slots);
  }

  @Override
  public StreamExecutionEnvironment environment() {
    Configuration configuration = new Configuration(jobConfiguration);
    configuration.set(DeploymentOptions.TARGET, MiniClusterExecutors.TARGET);
    configuration.set(DeploymentOptions.ATTACHED, true);
    StreamExecutionEnvironment env =
        new StreamExecutionEnvironment(
            executors, configuration, LocalCluster.class.getClassLoader());
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    return env;
  }

  /** The cluster, for tests that look at its jobs. */
  MiniCluster miniCluster() {
    return cluster;
  }

  /** The address of the cluster's REST endpoint (and web UI). */
  URI restAddress() throws Exception {
    return cluster.getRestAddress().get();
  }

  @Override
  public String description() {
    return "local MiniCluster (" + slots + " slots)";
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
