package dev.quiver.plan.time;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The options of a table source that say it is unbounded (a stream: a Kafka topic, a watched
 * directory) and, optionally, what its event time is. They travel with the table's connector
 * options ({@code TableSource#options()}), so every plan that scans the table knows it is a stream
 * without a type of its own, the way Flink's table options carry {@code scan.bounded.mode}.
 *
 * <pre>
 *   quiver.unbounded          = true
 *   quiver.watermark.column   = ts        (optional: the event-time column)
 *   quiver.watermark.delay-ms = 5000      (WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
 * </pre>
 *
 * A source that is not unbounded is read to its end (a BATCH job).
 */
public final class StreamOptions {
  /** {@code "true"} for an unbounded source. */
  public static final String UNBOUNDED = "quiver.unbounded";

  /** The event-time column of an unbounded source. */
  public static final String WATERMARK_COLUMN = "quiver.watermark.column";

  /** How many milliseconds the watermark stays behind the largest event time. */
  public static final String WATERMARK_DELAY_MS = "quiver.watermark.delay-ms";

  private StreamOptions() {}

  /** The options that mark a source unbounded, with {@code eventTime} if present. */
  public static Map<String, String> unbounded(Optional<EventTime> eventTime) {
    requireNonNull(eventTime, "eventTime is null");
    Map<String, String> options = new HashMap<>();
    options.put(UNBOUNDED, "true");
    eventTime.ifPresent(
        time -> {
          options.put(WATERMARK_COLUMN, time.column());
          options.put(WATERMARK_DELAY_MS, Long.toString(time.delayMillis()));
        });
    return options;
  }

  /** Whether {@code options} describe an unbounded source. */
  public static boolean isUnbounded(Map<String, String> options) {
    return "true".equals(requireNonNull(options, "options is null").get(UNBOUNDED));
  }

  /** The event time {@code options} declare, if any. */
  public static Optional<EventTime> eventTime(Map<String, String> options) {
    String column = requireNonNull(options, "options is null").get(WATERMARK_COLUMN);
    if (column == null) {
      return Optional.empty();
    }
    String delay = options.getOrDefault(WATERMARK_DELAY_MS, "0");
    return Optional.of(new EventTime(column, Duration.ofMillis(Long.parseLong(delay))));
  }
}
