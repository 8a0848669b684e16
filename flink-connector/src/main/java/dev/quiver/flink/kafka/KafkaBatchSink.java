package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.ArrowOperator;
import dev.quiver.plan.changelog.RowKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ObjectArrayTypeInfo;
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
 * <p>As an upsert sink ({@link Builder#upsert}, Flink's {@code 'upsert-kafka'}), the batches are a
 * changelog (their last column the row kind, {@code op}: {@link RowKind}) and each message has a
 * key, the row's key columns in the key format: an inserted or updated row (+I, +U) is its key and
 * its value, a removed one (-U, -D) its key and no value, a tombstone, so a compacted topic (or a
 * reader that keeps the last value per key) holds the result. A -U followed in its batch by the +U
 * of the same key writes nothing: the +U replaces the value. Kafka's default partitioner puts the
 * messages of one key in one partition, in order.
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
   * Checks that values of this sink's format can hold batches of {@code schema} (an upsert sink: a
   * changelog, its last column the row kind; its key format the key columns).
   *
   * @throws dev.quiver.error.QuiverException {@code UNSUPPORTED_TYPE} for a column they cannot
   */
  public void check(Schema schema) {
    requireNonNull(schema, "schema is null");
    ValueEncoder.of(options.format, options.upsert ? values(schema) : schema, options.csvDelimiter);
  }

  /**
   * Writes {@code stream} with one writer task per task of {@code stream} (chained to it).
   *
   * @throws dev.quiver.error.QuiverException {@code UNSUPPORTED_TYPE} for a column Kafka values
   *     cannot hold
   */
  public DataStreamSink<byte[][]> write(DataStream<BatchRecord> stream, String name) {
    requireNonNull(stream, "stream is null");
    requireNonNull(name, "name is null");
    if (!(stream.getType() instanceof BatchTypeInfo type)) {
      throw new IllegalArgumentException("not a stream of Arrow batches: " + stream.getType());
    }
    check(type.schema());
    Properties producer = new Properties();
    producer.putAll(options.properties);
    producer.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, DEFAULT_TRANSACTION_TIMEOUT_MS);
    KafkaSink<byte[][]> kafka =
        KafkaSink.<byte[][]>builder()
            .setBootstrapServers(options.bootstrapServers)
            .setKafkaProducerConfig(producer)
            .setRecordSerializer(new Messages(options.topic))
            .setDeliveryGuarantee(options.guarantee)
            .setTransactionalIdPrefix(
                options.transactionalIdPrefix != null
                    ? options.transactionalIdPrefix
                    : "quiver-" + options.topic + "-" + UUID.randomUUID())
            .build();
    int parallelism = stream.getParallelism();
    return stream
        .transform(
            "encode " + options.format + (options.upsert ? " upserts" : " values"),
            MESSAGES,
            new EncodeValues(
                type.schema().toJson(),
                options.format,
                options.csvDelimiter,
                options.upsert ? options.keyColumns : null,
                options.keyFormat,
                options.valueExceptKey))
        .setParallelism(parallelism)
        .sinkTo(kafka)
        .name(name)
        .setParallelism(parallelism);
  }

  /** The messages between the encoder and Flink's sink: {key (null: none), value (null: none)}. */
  private static final TypeInformation<byte[][]> MESSAGES =
      ObjectArrayTypeInfo.getInfoFor(
          byte[][].class, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

  /**
   * Checks that the key and value formats can hold a changelog of {@code schema} (its last column
   * the row kind) as an upsert sink writes it.
   *
   * @throws dev.quiver.error.QuiverException {@code UNSUPPORTED_TYPE} for a column they cannot
   */
  private Schema values(Schema changelog) {
    List<Field> fields = changelog.getFields();
    if (fields.isEmpty()
        || !fields.get(fields.size() - 1).getType().equals(RowKind.FIELD.getType())) {
      throw new IllegalArgumentException("an upsert sink writes a changelog, not " + changelog);
    }
    Schema row = new Schema(fields.subList(0, fields.size() - 1));
    ValueEncoder.of(options.keyFormat, select(row, options.keyColumns), options.csvDelimiter);
    return select(row, valueColumns(row, options.keyColumns, options.valueExceptKey));
  }

  /** The columns of {@code row} an upsert sink's values hold: all, or all but the key's. */
  private static int[] valueColumns(Schema row, int[] keyColumns, boolean exceptKey) {
    return IntStream.range(0, row.getFields().size())
        .filter(c -> !exceptKey || IntStream.of(keyColumns).noneMatch(k -> k == c))
        .toArray();
  }

  private static Schema select(Schema schema, int[] columns) {
    List<Field> fields = new ArrayList<>(columns.length);
    for (int column : columns) {
      fields.add(schema.getFields().get(column));
    }
    return new Schema(fields);
  }

  /** Options of a {@link KafkaBatchSink}; topic and bootstrap servers are required. */
  public static final class Builder {
    private String bootstrapServers;
    private String topic;
    private KafkaValueFormat format = KafkaValueFormat.JSON;
    private char csvDelimiter = ',';
    private DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE;
    private String transactionalIdPrefix;
    private boolean upsert;
    private int[] keyColumns = new int[0];
    private KafkaValueFormat keyFormat = KafkaValueFormat.JSON;
    private boolean valueExceptKey;
    private final Properties properties = new Properties();

    private Builder() {}

    /**
     * Makes this an upsert sink (Flink's {@code 'upsert-kafka'}): the batches are a changelog, the
     * key of each message is {@code keyColumns} (of the row without its row kind) in {@code
     * keyFormat}, its value the row ({@code exceptKey}: without the key columns) or a tombstone.
     */
    public Builder upsert(int[] keyColumns, KafkaValueFormat keyFormat, boolean exceptKey) {
      if (requireNonNull(keyColumns, "keyColumns is null").length == 0) {
        throw new IllegalArgumentException("an upsert sink needs key columns");
      }
      this.upsert = true;
      this.keyColumns = keyColumns.clone();
      this.keyFormat = requireNonNull(keyFormat, "keyFormat is null");
      this.valueExceptKey = exceptKey;
      return this;
    }

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
      copy.upsert = upsert;
      copy.keyColumns = keyColumns.clone();
      copy.keyFormat = keyFormat;
      copy.valueExceptKey = valueExceptKey;
      copy.properties.putAll(properties);
      return new KafkaBatchSink(copy);
    }
  }

  /** A message per {key, value}, to the topic, without timestamp. */
  private static final class Messages implements KafkaRecordSerializationSchema<byte[][]> {
    private static final long serialVersionUID = 1L;
    private final String topic;

    Messages(String topic) {
      this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
        byte[][] message, KafkaSinkContext context, Long timestamp) {
      return new ProducerRecord<>(topic, message[0], message[1]);
    }
  }

  /**
   * Encodes each row of each data batch as one message and closes the batch: its value, or (an
   * upsert sink) its key and its value or a tombstone.
   */
  private static final class EncodeValues extends ArrowOperator<byte[][]>
      implements OneInputStreamOperator<BatchRecord, byte[][]> {
    private static final long serialVersionUID = 1L;

    private final String schemaJson;
    private final KafkaValueFormat format;
    private final char csvDelimiter;
    private final int[] keyColumns; // null: not an upsert sink
    private final KafkaValueFormat keyFormat;
    private final boolean valueExceptKey;
    private transient ValueEncoder encoder;
    private transient ValueEncoder keyEncoder;
    private transient int[] valueColumns;
    private transient StreamRecord<byte[][]> reuse;

    EncodeValues(
        String schemaJson,
        KafkaValueFormat format,
        char csvDelimiter,
        int[] keyColumns,
        KafkaValueFormat keyFormat,
        boolean valueExceptKey) {
      this.schemaJson = schemaJson;
      this.format = format;
      this.csvDelimiter = csvDelimiter;
      this.keyColumns = keyColumns;
      this.keyFormat = keyFormat;
      this.valueExceptKey = valueExceptKey;
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
      if (keyColumns == null) {
        encoder = ValueEncoder.of(format, schema, csvDelimiter);
      } else {
        List<Field> fields = schema.getFields();
        Schema row = new Schema(fields.subList(0, fields.size() - 1)); // without the row kind
        valueColumns = valueColumns(row, keyColumns, valueExceptKey);
        encoder = ValueEncoder.of(format, select(row, valueColumns), csvDelimiter);
        keyEncoder = ValueEncoder.of(keyFormat, select(row, keyColumns), csvDelimiter);
      }
      reuse = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) {
      try (BatchRecord record = element.getValue()) {
        if (!record.isData()) {
          return;
        }
        int rows = record.rowCount();
        if (keyColumns == null) {
          encoder.bind(record.batch());
          for (int row = 0; row < rows; row++) {
            output.collect(reuse.replace(new byte[][] {null, encoder.encode(row)}));
          }
          return;
        }
        upserts(record.batch(), rows);
      }
    }

    /** Each row of a changelog batch as its key and its value, or a tombstone. */
    private void upserts(VectorSchemaRoot batch, int rows) {
      encoder.bind(columns(batch, valueColumns));
      keyEncoder.bind(columns(batch, keyColumns));
      TinyIntVector kinds = (TinyIntVector) batch.getVector(batch.getFieldVectors().size() - 1);
      byte[] key = rows == 0 ? null : keyEncoder.encode(0);
      for (int row = 0; row < rows; row++) {
        byte[] next = row + 1 < rows ? keyEncoder.encode(row + 1) : null;
        RowKind kind = RowKind.ofCode(kinds.get(row));
        if (kind.adds()) {
          output.collect(reuse.replace(new byte[][] {key, encoder.encode(row)}));
        } else if (!(kind == RowKind.UPDATE_BEFORE
            && next != null
            && RowKind.ofCode(kinds.get(row + 1)) == RowKind.UPDATE_AFTER
            && Arrays.equals(key, next))) {
          output.collect(reuse.replace(new byte[][] {key, null})); // a tombstone
        }
        key = next;
      }
    }

    private static FieldVector[] columns(VectorSchemaRoot batch, int[] columns) {
      FieldVector[] vectors = new FieldVector[columns.length];
      for (int i = 0; i < columns.length; i++) {
        vectors[i] = batch.getVector(columns[i]);
      }
      return vectors;
    }
  }
}
