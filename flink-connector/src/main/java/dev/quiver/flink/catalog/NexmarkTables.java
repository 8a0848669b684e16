package dev.quiver.flink.catalog;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.nexmark.NexmarkBatchSource;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkSchemas;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code 'connector' = 'nexmark'}: one kind of the Nexmark generator's events, read by {@link
 * NexmarkBatchSource}, with the option names of the Flink SQL side of the Nexmark benchmark, so
 * that both engines read the same events:
 *
 * <pre>
 *   'kind' = 'person' | 'auction' | 'bid'   (required)
 *   'events' = N                            (required) the kind's events among events 0 .. N-1 of
 *                                           the stream, split among the scan's tasks
 *   'seed', 'events-per-second', 'base-time-millis'   the stream (NexmarkConfig's defaults)
 *   'block-events', 'scan.batch.rows'       how the events are split and batched
 *   'progress'                              a NexmarkProgress listener's name (measurements)
 * </pre>
 *
 * The schema is the kind's ({@link #schema}, timestamps in microseconds as Quiver's TIMESTAMP).
 * Though it ends after N events, the table is a stream for planning (so a query over it runs as a
 * STREAMING job, as Flink SQL runs Nexmark over the same bounded generator): event time {@code
 * dateTime}, watermarks 4 s behind it unless declared otherwise, nexmark-flink's {@code WATERMARK
 * FOR dateTime AS dateTime - INTERVAL '4' SECOND}.
 */
public final class NexmarkTables {
  static final Set<String> KEYS =
      Set.of(
          "connector",
          "kind",
          "events",
          "seed",
          "events-per-second",
          "base-time-millis",
          "block-events",
          "scan.batch.rows",
          "progress");

  private NexmarkTables() {}

  /** The schema a Nexmark table of {@code kind} is declared with. */
  public static RowSchema schema(EventKind kind) {
    return RowSchema.fromArrow(NexmarkSchemas.of(kind, TimeUnit.MICROSECOND));
  }

  /** nexmark-flink's event time: {@code dateTime}, watermarks 4 s behind. */
  public static EventTime eventTime() {
    return new EventTime(NexmarkSchemas.DATE_TIME, NexmarkBatchSource.DEFAULT_WATERMARK_DELAY);
  }

  /**
   * Checks table {@code name}'s options and schema; returns its event time ({@code eventTime} if
   * declared, which must be on {@code dateTime}, else {@link #eventTime()}).
   */
  static EventTime check(
      String name, RowSchema schema, Optional<EventTime> eventTime, Map<String, String> with) {
    StreamTables.checkKeys(name, with, KEYS, false);
    EventKind kind = kind(name, with);
    if (!schema.equals(schema(kind))) {
      throw StreamTables.invalid(
          name,
          "a Nexmark "
              + kind.tableName()
              + " table has the schema "
              + schema(kind)
              + " (NexmarkTables.schema), not "
              + schema);
    }
    EventTime time = eventTime.orElse(eventTime());
    if (!time.column().equals(NexmarkSchemas.DATE_TIME)) {
      throw StreamTables.invalid(
          name, "a Nexmark table's event time is its dateTime, not " + time.column());
    }
    source(name, with, time).build(); // checks the numbers
    return time;
  }

  /** The source of a table these options describe, with {@code tasks} readers. */
  static DataStream<BatchRecord> stream(
      StreamExecutionEnvironment env,
      String name,
      Map<String, String> options,
      EventTime eventTime,
      int tasks) {
    return source(name, options, eventTime).build().stream(env, tasks);
  }

  private static NexmarkBatchSource.Builder source(
      String name, Map<String, String> with, EventTime eventTime) {
    NexmarkConfig config = NexmarkConfig.DEFAULT;
    try {
      config =
          config
              .withSeed(number(name, with, "seed", config.seed()))
              .withEventsPerSecond(
                  number(name, with, "events-per-second", config.eventsPerSecond()))
              .withBaseTimeMillis(number(name, with, "base-time-millis", config.baseTimeMillis()));
    } catch (IllegalArgumentException e) {
      throw StreamTables.invalid(name, e.getMessage());
    }
    String events = StreamTables.required(name, with, "events");
    long count = number(name, with, "events", 0);
    long block = number(name, with, "block-events", EventSplit.DEFAULT_BLOCK_EVENTS);
    if (count <= 0 || block <= 0 || block > Integer.MAX_VALUE) {
      throw StreamTables.invalid(
          name, "'events' and 'block-events' must be positive, not " + events + ", " + block);
    }
    NexmarkBatchSource.Builder builder =
        NexmarkBatchSource.builder(kind(name, with), count)
            .config(config)
            .blockEvents((int) block)
            .batchRows(StreamTables.batchRows(name, with, NexmarkBatchSource.DEFAULT_BATCH_ROWS))
            .timeUnit(TimeUnit.MICROSECOND)
            .watermarkDelay(Duration.ofMillis(eventTime.delayMillis()));
    String progress = with.get("progress");
    if (progress != null) {
      builder.progress(progress);
    }
    return builder;
  }

  private static EventKind kind(String name, Map<String, String> with) {
    String kind = StreamTables.required(name, with, "kind");
    try {
      return EventKind.valueOf(kind.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw StreamTables.invalid(
          name, "'kind' = '" + kind + "' is not a Nexmark kind: person, auction, bid");
    }
  }

  private static long number(String name, Map<String, String> with, String key, long fallback) {
    String text = with.get(key);
    if (text == null) {
      return fallback;
    }
    try {
      return Long.parseLong(text.strip().replace("_", ""));
    } catch (NumberFormatException e) {
      throw StreamTables.invalid(name, "'" + key + "' must be a number, not '" + text + "'");
    }
  }
}
