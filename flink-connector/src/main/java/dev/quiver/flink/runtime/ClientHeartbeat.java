package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.client.cli.ClientOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.JobClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the cluster, every {@code client.heartbeat.interval}, that the reader of a job's result is
 * still there, for jobs submitted with {@code execution.attached} and {@code
 * execution.shutdown-on-attached-exit} (a remote session's): the cluster's dispatcher cancels such
 * a job when no heartbeat has come for {@code client.heartbeat.timeout}.
 *
 * <p>Why: a result leaves the job through Flink's collect sink, which stops when its buffer is full
 * until the client fetches more. A client that vanishes without cancelling its job (killed with
 * SIGKILL, its machine gone) would leave the job RUNNING, holding its slots, forever. Flink's own
 * {@code flink run} sends these heartbeats; a job submitted with {@code executeAsync} gets none
 * unless its client sends them, as this does.
 *
 * <pre>
 *   client ──heartbeat (expires now + timeout)──► dispatcher, every interval
 *   no heartbeat for timeout ──► dispatcher cancels the job
 * </pre>
 */
final class ClientHeartbeat implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClientHeartbeat.class);

  /** No heartbeats: the job does not expect any. */
  static final ClientHeartbeat NONE = new ClientHeartbeat(null);

  // One daemon thread for every job of this JVM: a heartbeat is one small REST call.
  private static ScheduledExecutorService timer;

  private final ScheduledFuture<?> beats;

  private ClientHeartbeat(ScheduledFuture<?> beats) {
    this.beats = beats;
  }

  /** Whether jobs submitted with {@code configuration} expect heartbeats from their client. */
  static boolean expected(ReadableConfig configuration) {
    return configuration.get(DeploymentOptions.ATTACHED)
        && configuration.get(DeploymentOptions.SHUTDOWN_IF_ATTACHED);
  }

  /** Starts sending heartbeats for {@code client}'s job, if it expects them. */
  static ClientHeartbeat start(JobClient client, ReadableConfig configuration) {
    requireNonNull(client, "client is null");
    if (!expected(configuration)) {
      return NONE;
    }
    Duration interval = configuration.get(ClientOptions.CLIENT_HEARTBEAT_INTERVAL);
    Duration timeout = configuration.get(ClientOptions.CLIENT_HEARTBEAT_TIMEOUT);
    if (interval.compareTo(timeout) >= 0) {
      throw new IllegalArgumentException(
          ClientOptions.CLIENT_HEARTBEAT_INTERVAL.key()
              + " ("
              + interval
              + ") must be shorter than "
              + ClientOptions.CLIENT_HEARTBEAT_TIMEOUT.key()
              + " ("
              + timeout
              + ")");
    }
    Runnable beat =
        () -> {
          try {
            client.reportHeartbeat(System.currentTimeMillis() + timeout.toMillis());
          } catch (RuntimeException e) {
            // The next one may get through; a missed one is what the timeout allows for.
            LOG.debug("heartbeat of job {} failed: {}", client.getJobID(), e.toString());
          }
        };
    return new ClientHeartbeat(
        timer().scheduleAtFixedRate(beat, 0, interval.toMillis(), TimeUnit.MILLISECONDS));
  }

  private static synchronized ScheduledExecutorService timer() {
    if (timer == null) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "quiver: job client heartbeats");
                thread.setDaemon(true);
                return thread;
              });
    }
    return timer;
  }

  /** Stops the heartbeats (the job has ended, or its result was closed); idempotent. */
  @Override
  public void close() {
    if (beats != null) {
      beats.cancel(false);
    }
  }
}
