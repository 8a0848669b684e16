package dev.quiver.flink.kafka;

import dev.quiver.plan.type.SqlType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a Kafka record carries beside its value, read into a metadata column ({@code part INT
 * METADATA FROM 'partition' VIRTUAL}), with Flink's Kafka connector's keys and types: {@code
 * timestamp} TIMESTAMP_LTZ(3) (Quiver: the UTC TIMESTAMP), {@code partition} INT, {@code offset}
 * BIGINT, {@code topic} STRING.
 */
public enum KafkaMetadata {
  TIMESTAMP("timestamp", SqlType.TIMESTAMP),
  PARTITION("partition", SqlType.INTEGER),
  OFFSET("offset", SqlType.BIGINT),
  TOPIC("topic", SqlType.VARCHAR);

  private final String key;
  private final SqlType type;

  KafkaMetadata(String key, SqlType type) {
    this.key = key;
    this.type = type;
  }

  /** The key a metadata column names ({@code METADATA FROM 'partition'}). */
  public String key() {
    return key;
  }

  /** The type a metadata column of this key is declared with. */
  public SqlType type() {
    return type;
  }

  /**
   * The metadata of {@code key} (exact spelling, as Flink matches it), if Kafka records have it.
   */
  public static Optional<KafkaMetadata> of(String key) {
    return Arrays.stream(values()).filter(m -> m.key.equals(key)).findFirst();
  }

  /** Every key, for an error message: {@code 'timestamp', 'partition', 'offset', 'topic'}. */
  public static String keys() {
    return String.join(", ", Arrays.stream(values()).map(m -> "'" + m.key + "'").toList());
  }

  /** Writes {@code record}'s value of this metadata into row {@code row} of {@code vector}. */
  void write(ConsumerRecord<byte[], byte[]> record, FieldVector vector, int row) {
    switch (this) {
      case TIMESTAMP -> {
        // A record without a timestamp (-1, messages of old formats) reads as NULL.
        if (record.timestamp() >= 0) {
          ((TimeStampMicroVector) vector).setSafe(row, record.timestamp() * 1_000);
        } else {
          ((TimeStampMicroVector) vector).setNull(row);
        }
      }
      case PARTITION -> ((IntVector) vector).setSafe(row, record.partition());
      case OFFSET -> ((BigIntVector) vector).setSafe(row, record.offset());
      case TOPIC ->
          ((VarCharVector) vector).setSafe(row, record.topic().getBytes(StandardCharsets.UTF_8));
    }
  }
}
