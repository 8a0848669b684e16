package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.ArrowOperator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.UUID;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a stream of Arrow batches to a Kafka topic, one message per row, its value a JSON object
 * or a CSV line that a {@link KafkaBatchSource} of the same schema and format reads back as the row
 * ({@link ValueEncoder}); no key, the producer's partitioner spreads the messages.
 *
 * <pre>
 *   batches ─(forward, chained)─► encode: one value per row ─► Flink's KafkaSink
 *                                                               EXACTLY_ONCE: a transaction per
 *                                                               checkpoint, committed when it completes
 * </pre>
 *
 * <p>Flink's {@link KafkaSink} does everything Kafka. With {@link DeliveryGuarantee#EXACTLY_ONCE}
 * (the default) each writer task writes into a Kafka transaction that is committed when the
 * checkpoint after it completes (at the end of the input in a bounded job), and a restart aborts
 * what the failed attempt left open: a consumer with {@code isolation.level = read_committed} sees
 * every row once, each checkpoint's rows together, one checkpoint interval after they were written
 * (a {@code read_uncommitted} one, Kafka's default, also sees aborted rows). The transactional ids
 * start with a prefix unique per job unless one is set; the transaction timeout is 15 minutes (the
 * broker's default maximum) unless the property {@code transaction.timeout.ms} sets it.
 *
 * <pre>{@code
 * KafkaBatchSink.builder().bootstrapServers("broker:9092").topic("out")
 *     .format(KafkaValueFormat.JSON).build()
 *     .write(batches, "write out");
 * }</pre>
 */
public final class KafkaBatchSink {
  /** The producer's transaction timeout unless set: the broker's default maximum. */
  static final String DEFAULT_TRANSACTION_TIMEOUT_MS = "900000";

  private final Builder options;

  private KafkaBatchSink(Builder options) {
    this.options = options;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Checks that values of this sink's format can hold batches of {@code schema}.
   *
   * @throws dev.quiver.error.QuiverException {@code UNSUPPORTED_TYPE} for a column they cannot
   */
  public void check(Schema schema) {
    ValueEncoder.of(options.format, requireNonNull(schema, "schema is null"), options.csvDelimiter);
  }

  /**
   * Writes {@code stream} with one writer task per task of {@code stream} (chained to it).
   *
   * @throws dev.quiver.error.QuiverException {@code UNSUPPORTED_TYPE} for a column Kafka values
   *     cannot hold
   */
  public DataStreamSink<byte[]> write(DataStream<BatchRecord> stream, String name) {
    requireNonNull(stream, "stream is null");
    requireNonNull(name, "name is null");
    if (!(stream.getType() instanceof BatchTypeInfo type)) {
      throw new IllegalArgumentException("not a stream of Arrow batches: " + stream.getType());
    }
    check(type.schema());
    Properties producer = new Properties();
    producer.putAll(options.properties);
    producer.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, DEFAULT_TRANSACTION_TIMEOUT_MS);
    KafkaSink<byte[]> kafka =
        KafkaSink.<byte[]>builder()
            .setBootstrapServers(options.bootstrapServers)
            .setKafkaProducerConfig(producer)
            .setRecordSerializer(new Values(options.topic))
            .setDeliveryGuarantee(options.guarantee)
            .setTransactionalIdPrefix(
                options.transactionalIdPrefix != null
                    ? options.transactionalIdPrefix
                    : "quiver-" + options.topic + "-" + UUID.randomUUID())
            .build();
    int parallelism = stream.getParallelism();
    return stream
        .transform(
            "encode " + options.format + " values",
            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
            new EncodeValues(type.schema().toJson(), options.format, options.csvDelimiter))
        .setParallelism(parallelism)
        .sinkTo(kafka)
        .name(name)
        .setParallelism(parallelism);
  }

  /** Options of a {@link KafkaBatchSink}; topic and bootstrap servers are required. */
  public static final class Builder {
    private String bootstrapServers;
    private String topic;
    private KafkaValueFormat format = KafkaValueFormat.JSON;
    private char csvDelimiter = ',';
    private DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE;
    private String transactionalIdPrefix;
    private final Properties properties = new Properties();

    private Builder() {}

    /** The brokers to bootstrap from, {@code host:port[,host:port...]}. */
    public Builder bootstrapServers(String value) {
      bootstrapServers = requireNonNull(value, "value is null");
      return this;
    }

    public Builder topic(String value) {
      topic = requireNonNull(value, "value is null");
      return this;
    }

    /** JSON (the default) or CSV. */
    public Builder format(KafkaValueFormat value) {
      format = requireNonNull(value, "value is null");
      return this;
    }

    /** The CSV delimiter (default {@code ,}). */
    public Builder csvDelimiter(char value) {
      csvDelimiter = value;
      return this;
    }

    /** EXACTLY_ONCE (the default), AT_LEAST_ONCE or NONE. */
    public Builder deliveryGuarantee(DeliveryGuarantee value) {
      guarantee = requireNonNull(value, "value is null");
      return this;
    }

    /**
     * The prefix of the writers' transactional ids (default {@code quiver-<topic>-<random>}, new
     * for every job): two jobs running at once must not share one, or they fence each other off.
     */
    public Builder transactionalIdPrefix(String value) {
      transactionalIdPrefix = requireNonNull(value, "value is null");
      return this;
    }

    /** A Kafka producer property, passed to Flink's Kafka sink as it is. */
    public Builder property(String key, String value) {
      properties.setProperty(
          requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
      return this;
    }

    public KafkaBatchSink build() {
      requireNonNull(bootstrapServers, "bootstrapServers is not set");
      requireNonNull(topic, "topic is not set");
      Builder copy = new Builder();
      copy.bootstrapServers = bootstrapServers;
      copy.topic = topic;
      copy.format = format;
      copy.csvDelimiter = csvDelimiter;
      copy.guarantee = guarantee;
      copy.transactionalIdPrefix = transactionalIdPrefix;
      copy.properties.putAll(properties);
      return new KafkaBatchSink(copy);
    }
  }

  /** A message per value, to the topic, without key or timestamp. */
  private static final class Values implements KafkaRecordSerializationSchema<byte[]> {
    private static final long serialVersionUID = 1L;
    private final String topic;

    Values(String topic) {
      this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
        byte[] value, KafkaSinkContext context, Long timestamp) {
      return new ProducerRecord<>(topic, value);
    }
  }

  /** Encodes each row of each data batch as one value and closes the batch. */
  private static final class EncodeValues extends ArrowOperator<byte[]>
      implements OneInputStreamOperator<BatchRecord, byte[]> {
    private static final long serialVersionUID = 1L;

    private final String schemaJson;
    private final KafkaValueFormat format;
    private final char csvDelimiter;
    private transient ValueEncoder encoder;
    private transient StreamRecord<byte[]> reuse;

    EncodeValues(String schemaJson, KafkaValueFormat format, char csvDelimiter) {
      this.schemaJson = schemaJson;
      this.format = format;
      this.csvDelimiter = csvDelimiter;
    }

    @Override
    public void open() throws Exception {
      super.open();
      Schema schema;
      try {
        schema = Schema.fromJSON(schemaJson);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the schema of the values", e);
      }
      encoder = ValueEncoder.of(format, schema, csvDelimiter);
      reuse = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) {
      try (BatchRecord record = element.getValue()) {
        if (!record.isData()) {
          return;
        }
        encoder.bind(record.batch());
        int rows = record.rowCount();
        for (int row = 0; row < rows; row++) {
          output.collect(reuse.replace(encoder.encode(row)));
        }
      }
    }
  }
}
