package dev.quiver.flink.runtime;

import java.util.Locale;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;

/**
 * Whether a job may restart tasks after a failure: its {@code restart-strategy.type} is set to a
 * strategy that restarts. Batch jobs never checkpoint, so without that setting Flink restarts
 * nothing and the first failure fails the job.
 *
 * <p>Only the configuration the client knows counts: a remote cluster whose own configuration sets
 * a restart strategy should get it in the session's configuration too, so that the reader knows
 * results may be sent twice.
 */
final class Restarts {
  private static final Set<String> NONE = Set.of("none", "off", "disable");

  private Restarts() {}

  static boolean enabled(ReadableConfig configuration) {
    return configuration
        .getOptional(RestartStrategyOptions.RESTART_STRATEGY)
        .map(type -> !NONE.contains(type.toLowerCase(Locale.ROOT)))
        .orElse(false);
  }
}
