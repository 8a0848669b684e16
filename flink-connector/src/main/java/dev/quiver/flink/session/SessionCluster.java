package dev.quiver.flink.session;

import java.net.URI;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.flink.api.common.JobID;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Where a session's queries run: the session's own local MiniCluster ({@link LocalCluster}) or a
 * Flink cluster somewhere else ({@link RemoteCluster}). Each query gets a fresh environment (an
 * environment collects one job's operators), and every environment submits to the same cluster.
 */
// close() may stop a MiniCluster, which waits and may throw InterruptedException.
@SuppressWarnings("try")
interface SessionCluster extends AutoCloseable {
  /** A new BATCH environment for one query's job. */
  StreamExecutionEnvironment environment();

  /** The cluster's task slots, or empty when they cannot be known. */
  OptionalInt slots();

  /**
   * The cluster's REST endpoint (also its web UI when {@code flink-runtime-web} is on the class
   * path), e.g. {@code http://localhost:8081}; a local cluster starts now if it has not yet.
   */
  URI restAddress();

  /**
   * The task whose failure ended the failed job {@code jobId}, as Flink names it (for example
   * {@code stage 2: Project[...] -> encode result (1/2)}), when the cluster can say; empty
   * otherwise (a remote cluster, a job that did not fail).
   */
  default Optional<String> failedTask(JobID jobId) {
    return Optional.empty();
  }

  /** For logs and messages, e.g. {@code local MiniCluster (2 slots)}. */
  String description();

  /** Releases what the session started (a local cluster); a remote cluster keeps running. */
  @Override
  void close() throws Exception;
}
