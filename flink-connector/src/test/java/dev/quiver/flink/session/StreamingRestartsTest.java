package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A streaming query restarts a bounded number of times ({@link StreamingRestarts}) unless the
 * configuration chooses a strategy: one whose every attempt fails (a division by zero in the first
 * row) ends with its task's one-line error instead of restarting forever.
 */
@ExtendWith(ArrowLeakCheck.class)
class StreamingRestartsTest {
  private static final String BIDS =
      """
      CREATE TABLE bids (auction BIGINT NOT NULL, bidder BIGINT NOT NULL,
        price BIGINT NOT NULL, channel STRING NOT NULL, url STRING NOT NULL,
        dateTime TIMESTAMP(3) NOT NULL, extra STRING NOT NULL)
      WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '100000')
      """;

  @Test
  void aQueryThatFailsInEveryAttemptEndsWithItsErrorAfterAFewRestarts() {
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 2);
    // One task: each attempt is one failure, so the restarts are exactly those allowed.
    try (QuiverSession session =
        QuiverSession.builder().parallelism(1).configuration(flink).build()) {
      session.execute(BIDS);
      long start = System.nanoTime();
      assertTimeoutPreemptively(
          Duration.ofSeconds(90),
          () ->
              assertThatThrownBy(
                      () -> session.sql("SELECT auction / (bidder - bidder) FROM bids").rows())
                  .isInstanceOfSatisfying(
                      QuiverException.class,
                      e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
                        assertThat(e.getMessage()).contains("(stage 0, task ").doesNotContain("\n");
                      }),
          "a query that fails in every attempt restarts forever");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took)
          .as("restarted %d times, %s apart", StreamingRestarts.FAILURES, StreamingRestarts.DELAY)
          .isGreaterThanOrEqualTo(StreamingRestarts.DELAY.multipliedBy(StreamingRestarts.FAILURES));
      assertThat(session.openQueries()).isZero();
    }
  }

  @Test
  void aRestartStrategyTheConfigurationChoosesWins() {
    StreamExecutionEnvironment unset = new StreamExecutionEnvironment(new Configuration());
    StreamingRestarts.bound(unset);
    assertThat(unset.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
        .isEqualTo("failure-rate");
    assertThat(
            unset
                .getConfiguration()
                .get(
                    RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL))
        .isEqualTo(StreamingRestarts.FAILURES);

    Configuration chosen = new Configuration();
    chosen.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    chosen.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 7);
    StreamExecutionEnvironment set = new StreamExecutionEnvironment(chosen);
    StreamingRestarts.bound(set);
    assertThat(set.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
        .isEqualTo("fixed-delay");
    assertThat(set.getConfiguration().toMap())
        .doesNotContainKey(
            RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL.key());
  }
}
