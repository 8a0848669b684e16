package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.time.Duration;

/**
 * How a {@link KafkaBatchSource} turns a topic's messages into batches (what its tasks need; the
 * connection settings are the Kafka source's).
 *
 * @param topic the topic
 * @param format how values are written
 * @param csvDelimiter the CSV field delimiter (ignored for JSON)
 * @param batchRows a batch is emitted when it has this many rows
 * @param batchDelay ... or this long after its first row arrived, whichever comes first
 */
record KafkaBatchOptions(
    String topic, KafkaValueFormat format, char csvDelimiter, int batchRows, Duration batchDelay)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  KafkaBatchOptions {
    requireNonNull(topic, "topic is null");
    requireNonNull(format, "format is null");
    requireNonNull(batchDelay, "batchDelay is null");
    if (batchRows < 1) {
      throw new IllegalArgumentException("batchRows must be positive: " + batchRows);
    }
    if (batchDelay.isNegative() || batchDelay.isZero()) {
      throw new IllegalArgumentException("batchDelay must be positive: " + batchDelay);
    }
  }
}
