package dev.quiver.flink.session;

import dev.quiver.flink.testing.KafkaBroker;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.type.SqlType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The bids the streaming tests send through a real Kafka broker: the schema of their JSON values,
 * the table options that read a topic of them, and the records, spread over two partitions by the
 * parity of their id.
 *
 * <pre>
 *   bid id: {"id": id, "auction": id % 10 (every 7th null), "price": id / 4, "ts": T0 + id * 10 ms}
 * </pre>
 */
final class KafkaBids {
  /** The columns of a bid. */
  static final RowSchema SCHEMA =
      RowSchema.of(
          new Column("id", SqlType.BIGINT, false),
          new Column("auction", SqlType.BIGINT, true),
          new Column("price", SqlType.DOUBLE, true),
          new Column("ts", SqlType.TIMESTAMP, true));

  /** The event time of bid 0: 2026-01-01 00:00:00 UTC, in milliseconds. */
  static final long T0 = 1_767_225_600_000L;

  private KafkaBids() {}

  /** The options of a table over {@code topic}'s JSON bids, with {@code more}. */
  static Map<String, String> options(KafkaBroker kafka, String topic, Map<String, String> more) {
    Map<String, String> with = new HashMap<>(more);
    with.put("connector", "kafka");
    with.put("topic", topic);
    with.put("properties.bootstrap.servers", kafka.bootstrapServers());
    with.put("format", "json");
    return with;
  }

  /**
   * Registers {@code topic} in {@code session} twice: as the stream {@code topic} (event time
   * {@code ts}, watermark 5 s behind) and as the bounded table {@code topic_now}, the records there
   * when a query starts (the batch oracle of the stream's queries).
   */
  static void register(QuiverSession session, KafkaBroker kafka, String topic) {
    session.registerTable(
        topic,
        SCHEMA,
        Optional.of(new EventTime("ts", Duration.ofSeconds(5))),
        options(kafka, topic, Map.of()));
    session.registerTable(
        topic + "_now",
        SCHEMA,
        Optional.empty(),
        options(kafka, topic, Map.of("scan.bounded.mode", "latest-offset")));
  }

  /** Sends bids [from, to) to {@code topic}'s partitions 0 (even ids) and 1 (odd ids). */
  static void send(KafkaBroker kafka, String topic, long from, long to) throws Exception {
    send(kafka, topic, from, to, id -> id / 4.0);
  }

  /** As {@link #send(KafkaBroker, String, long, long)}, bid {@code id} at {@code price(id)}. */
  static void send(KafkaBroker kafka, String topic, long from, long to, LongFunction<Double> price)
      throws Exception {
    for (int partition = 0; partition < 2; partition++) {
      List<String> values = new ArrayList<>();
      for (long id = from + partition; id < to; id += 2) {
        String auction = id % 7 == 0 ? "null" : Long.toString(id % 10);
        values.add(
            String.format(
                "{\"id\": %d, \"auction\": %s, \"price\": %s, \"ts\": %d}",
                id, auction, price.apply(id), T0 + id * 10));
      }
      kafka.send(topic, partition, values);
    }
  }
}
