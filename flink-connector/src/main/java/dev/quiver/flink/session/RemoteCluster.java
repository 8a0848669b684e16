package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A Flink cluster that runs independently of the session (a standalone or session cluster), reached
 * through its REST endpoint. Every query's job ships {@code jarFiles}, which must hold Quiver and
 * its dependencies unless the cluster already has them on its class path (the examples module's
 * job-submission jar does).
 *
 * <p>Unless the session's configuration chooses a restart strategy, the cluster's own is read once
 * ({@link ClusterRestarts}) and set on every job, so that the reader of a result knows whether the
 * job may restart tasks.
 *
 * <p>Every job is submitted attached with {@code execution.shutdown-on-attached-exit} (unless the
 * configuration says otherwise), and its result reader sends the cluster heartbeats (see {@code
 * ClientHeartbeat}): a session that vanishes without cancelling its queries (its JVM killed, its
 * machine gone) has them cancelled by the cluster after {@code client.heartbeat.timeout} (Flink's
 * default 180 s, checked every {@code $internal.dispatcher.client-aliveness-check.interval} of the
 * cluster, 60 s by default) instead of leaving them RUNNING, their result unread, forever.
 */
final class RemoteCluster implements SessionCluster {
  private final String host;
  private final int port;
  private final List<String> jarFiles;
  private final Configuration jobConfiguration;
  private boolean restartsKnown;

  RemoteCluster(String host, int port, List<String> jarFiles, Configuration jobConfiguration) {
    this.host = requireNonNull(host, "host is null");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be in 1..65535: " + port);
    }
    this.port = port;
    this.jarFiles = List.copyOf(requireNonNull(jarFiles, "jarFiles is null"));
    this.jobConfiguration = new Configuration(jobConfiguration);
    if (!jobConfiguration.contains(DeploymentOptions.ATTACHED)) {
      this.jobConfiguration.set(DeploymentOptions.ATTACHED, true);
    }
    if (!jobConfiguration.contains(DeploymentOptions.SHUTDOWN_IF_ATTACHED)) {
      this.jobConfiguration.set(DeploymentOptions.SHUTDOWN_IF_ATTACHED, true);
    }
  }

  @Override
  public synchronized StreamExecutionEnvironment environment() {
    if (!restartsKnown) {
      if (!ClusterRestarts.chosen(jobConfiguration)) {
        jobConfiguration.addAll(ClusterRestarts.of(host, port));
      }
      restartsKnown = true;
    }
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createRemoteEnvironment(
            host, port, new Configuration(jobConfiguration), jarFiles.toArray(new String[0]));
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    return env;
  }

  /** The failed task of job {@code jobId}, from the cluster's exception history (REST). */
  @Override
  public Optional<String> failedTask(JobID jobId) {
    return JobFailures.failedTask(restAddress(), jobId);
  }

  @Override
  public OptionalInt slots() {
    return ClusterRestarts.slots(host, port);
  }

  @Override
  public URI restAddress() {
    return URI.create("http://" + host + ":" + port);
  }

  @Override
  public String description() {
    return "remote cluster " + host + ":" + port + " (" + jarFiles.size() + " jars)";
  }

  @Override
  public void close() {}
}
