package dev.quiver.flink.session;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The restart strategy of the streaming jobs a session starts, unless its Flink configuration
 * chooses one ({@code restart-strategy.type}, the session's own or, for a remote session, the
 * cluster's): Flink's default for a job with checkpoints restarts it without end, so a query that
 * fails the same way in every attempt (a malformed value, a division by zero) would restart forever
 * and its reader wait for rows that never come. Instead a failure restarts the job from its last
 * checkpoint {@link #DELAY} later, at most {@value #FAILURES} times within {@link #INTERVAL}
 * (Flink's {@code failure-rate}); one failure more fails the query with its error. A job that fails
 * now and then over a long run (a lost TaskManager) keeps restarting.
 */
final class StreamingRestarts {
  static final int FAILURES = 5;
  static final Duration INTERVAL = Duration.ofMinutes(5);
  static final Duration DELAY = Duration.ofSeconds(1);

  private StreamingRestarts() {}

  /** Gives {@code env}'s job the bounded restarts above, unless it chooses a strategy. */
  static void bound(StreamExecutionEnvironment env) {
    if (env.getConfiguration().getOptional(RestartStrategyOptions.RESTART_STRATEGY).isPresent()) {
      return;
    }
    Configuration restarts = new Configuration();
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "failure-rate");
    restarts.set(
        RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL, FAILURES);
    restarts.set(
        RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL, INTERVAL);
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY, DELAY);
    env.configure(restarts);
  }
}
