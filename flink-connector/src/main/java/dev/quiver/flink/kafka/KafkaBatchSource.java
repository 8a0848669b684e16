package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.eventtime.EventTimeWatermarks;
import dev.quiver.operators.scalar.BatchProjection;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.time.EventTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * An unbounded FLIP-27 source of Arrow batches from a Kafka topic whose message values are JSON
 * objects or CSV lines under a declared schema.
 *
 * <p>Flink's {@link KafkaSource} does everything Kafka: partition discovery and assignment,
 * fetching, offsets in checkpoints (exactly once on the source side), commits to the consumer
 * group. This source wraps its reader ({@link KafkaBatchReader}) to decode messages straight into
 * Arrow vectors, one batch per partition at a time, emitted at {@code batchRows} rows or {@code
 * batchDelay} after the batch's first row. With an {@link EventTime}, {@link #stream} assigns each
 * batch the largest event time of its rows and Flink watermarks of {@code max - delay} per
 * partition, an idle partition being ignored after {@code idleTimeout} ({@link
 * EventTimeWatermarks}).
 *
 * <pre>{@code
 * KafkaBatchSource source = KafkaBatchSource.builder()
 *     .bootstrapServers("broker:9092").topic("events").schema(schema)
 *     .format(KafkaValueFormat.JSON)
 *     .eventTime(new EventTime("ts", Duration.ofSeconds(5)))
 *     .build();
 * DataStream<BatchRecord> events = source.stream(env, "events", 2);
 * }</pre>
 */
public final class KafkaBatchSource
    implements Source<BatchRecord, KafkaPartitionSplit, KafkaSourceEnumState>,
        ResultTypeQueryable<BatchRecord> {
  private static final long serialVersionUID = 1L;

  /** Rows at which a batch is emitted, unless set. */
  public static final int DEFAULT_BATCH_ROWS = 4096;

  /** Time after its first row at which a batch is emitted, unless set. */
  public static final Duration DEFAULT_BATCH_DELAY = Duration.ofMillis(200);

  /** Time after which a partition that emitted nothing stops holding the watermark, unless set. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(1);

  private final KafkaSource<ConsumerRecord<byte[], byte[]>> kafka;
  private final KafkaBatchOptions options;
  private final BatchTypeInfo type;
  private final String valueSchema; // Arrow schema JSON: a Schema is not Serializable
  private final String readSchema;
  private final List<KafkaMetadata> metadata;
  private final List<Expr> columns; // null: the batches are the read row
  private final EventTime eventTime; // nullable: no watermarks
  private final Duration idleTimeout;

  private KafkaBatchSource(Builder builder, KafkaSource<ConsumerRecord<byte[], byte[]>> kafka) {
    this.kafka = kafka;
    this.options =
        new KafkaBatchOptions(
            builder.topic,
            builder.format,
            builder.csvDelimiter,
            builder.batchRows,
            builder.batchDelay);
    List<Field> read = new ArrayList<>(builder.schema.getFields());
    builder.metadataColumns.forEach(
        (name, key) -> read.add(Field.nullable(name, key.type().arrow())));
    Schema readRow = new Schema(read);
    this.valueSchema = builder.schema.toJson();
    this.readSchema = readRow.toJson();
    this.metadata = List.copyOf(builder.metadataColumns.values());
    this.columns = builder.columns == null ? null : List.copyOf(builder.columns);
    Schema output =
        columns == null ? readRow : new BatchProjection(columns, builder.columnNames).schema();
    this.type = BatchTypeInfo.of(output, "kafka " + builder.topic);
    this.eventTime = builder.eventTime;
    this.idleTimeout = builder.idleTimeout;
    ValueDecoder.of(builder.format, builder.schema, builder.csvDelimiter); // checks the types
    if (eventTime != null) {
      eventTime.columnIndex(output); // checks the column
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Adds the source to {@code env} with {@code parallelism} tasks (at most the topic's partitions
   * are busy), under the watermark strategy of its event time, if any.
   */
  public DataStream<BatchRecord> stream(
      StreamExecutionEnvironment env, String name, int parallelism) {
    requireNonNull(env, "env is null");
    return env.fromSource(this, watermarkStrategy(), requireNonNull(name, "name is null"), type)
        .setParallelism(parallelism);
  }

  /** The strategy {@link #stream} uses: per-batch event times, or no watermarks. */
  public WatermarkStrategy<BatchRecord> watermarkStrategy() {
    return eventTime == null
        ? WatermarkStrategy.noWatermarks()
        : EventTimeWatermarks.strategy(eventTime, type.schema(), idleTimeout);
  }

  /** The schema of the batches. */
  public Schema schema() {
    return type.schema();
  }

  /** The event time, if declared. */
  public Optional<EventTime> eventTime() {
    return Optional.ofNullable(eventTime);
  }

  @Override
  public Boundedness getBoundedness() {
    return kafka.getBoundedness();
  }

  @Override
  public SourceReader<BatchRecord, KafkaPartitionSplit> createReader(SourceReaderContext context)
      throws Exception {
    return new KafkaBatchReader(
        kafka.createReader(context),
        options,
        Schema.fromJSON(valueSchema),
        Schema.fromJSON(readSchema),
        metadata,
        columns == null ? null : new Columns(columns, type.schema()),
        context.getIndexOfSubtask());
  }

  @Override
  public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
      SplitEnumeratorContext<KafkaPartitionSplit> context) {
    return kafka.createEnumerator(context);
  }

  @Override
  public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
      SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState checkpoint)
      throws Exception {
    return kafka.restoreEnumerator(context, checkpoint);
  }

  @Override
  public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
    return kafka.getSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
    return kafka.getEnumeratorCheckpointSerializer();
  }

  @Override
  public TypeInformation<BatchRecord> getProducedType() {
    return type;
  }

  /** The expressions of the batches' columns over the read row, and the batches' schema. */
  record Columns(List<Expr> expressions, Schema schema) {
    BatchProjection projection() {
      return new BatchProjection(
          expressions, schema.getFields().stream().map(Field::getName).toList());
    }
  }

  /** Options of a {@link KafkaBatchSource}; topic, bootstrap servers and schema are required. */
  public static final class Builder {
    private String bootstrapServers;
    private String topic;
    private Schema schema;
    private KafkaValueFormat format = KafkaValueFormat.JSON;
    private char csvDelimiter = ',';
    private int batchRows = DEFAULT_BATCH_ROWS;
    private Duration batchDelay = DEFAULT_BATCH_DELAY;
    private EventTime eventTime;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private String groupId;
    private OffsetsInitializer startingOffsets = OffsetsInitializer.earliest();
    private boolean bounded;
    private final Properties properties = new Properties();
    private final Map<String, KafkaMetadata> metadataColumns = new LinkedHashMap<>();
    private List<Expr> columns;
    private List<String> columnNames;

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

    /** The declared schema of the values (see {@link KafkaValueFormat} for the column types). */
    public Builder schema(Schema value) {
      schema = requireNonNull(value, "value is null");
      return this;
    }

    /**
     * Reads {@code key} of each record into a column {@code name}, after the value's columns (in
     * the order of these calls): the record's timestamp, partition, offset or topic.
     */
    public Builder metadata(String name, KafkaMetadata key) {
      metadataColumns.put(requireNonNull(name, "name is null"), requireNonNull(key, "key is null"));
      return this;
    }

    /**
     * The batches' columns, computed from the read row (the value's columns, then the metadata
     * columns) by {@code expressions}, named {@code names}, in each partition before its batch is
     * emitted, so the event time may be one of them (a computed column: {@code ts AS
     * TO_TIMESTAMP_LTZ(epoch_ms, 3)}). Default: the read row.
     */
    public Builder columns(List<Expr> expressions, List<String> names) {
      columns = List.copyOf(requireNonNull(expressions, "expressions is null"));
      columnNames = List.copyOf(requireNonNull(names, "names is null"));
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

    /** A batch is emitted at this many rows (default {@value #DEFAULT_BATCH_ROWS}). */
    public Builder batchRows(int value) {
      batchRows = value;
      return this;
    }

    /** ... or this long after its first row (default 200 ms). */
    public Builder batchDelay(Duration value) {
      batchDelay = requireNonNull(value, "value is null");
      return this;
    }

    /** The event-time column and watermark delay (default: none, no watermarks). */
    public Builder eventTime(EventTime value) {
      eventTime = requireNonNull(value, "value is null");
      return this;
    }

    /** After this long without a batch a partition is idle (default 1 s; zero: never). */
    public Builder idleTimeout(Duration value) {
      idleTimeout = requireNonNull(value, "value is null");
      return this;
    }

    /** The consumer group (default {@code quiver-<topic>}); offsets are committed to it. */
    public Builder groupId(String value) {
      groupId = requireNonNull(value, "value is null");
      return this;
    }

    /** Where a partition starts without a checkpoint (default: the earliest offset). */
    public Builder startingOffsets(OffsetsInitializer value) {
      startingOffsets = requireNonNull(value, "value is null");
      return this;
    }

    /** Stop at the latest offsets seen when the job starts (a bounded source). */
    public Builder bounded() {
      bounded = true;
      return this;
    }

    /** A Kafka consumer property, passed to Flink's Kafka source as it is. */
    public Builder property(String key, String value) {
      properties.setProperty(
          requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
      return this;
    }

    public KafkaBatchSource build() {
      requireNonNull(bootstrapServers, "bootstrapServers is not set");
      requireNonNull(topic, "topic is not set");
      requireNonNull(schema, "schema is not set");
      KafkaSourceBuilder<ConsumerRecord<byte[], byte[]>> kafka =
          KafkaSource.<ConsumerRecord<byte[], byte[]>>builder()
              .setBootstrapServers(bootstrapServers)
              .setTopics(topic)
              .setGroupId(groupId == null ? "quiver-" + topic : groupId)
              .setStartingOffsets(startingOffsets)
              .setDeserializer(new RawRecords())
              .setProperties(properties);
      if (bounded) {
        kafka.setBounded(OffsetsInitializer.latest());
      }
      return new KafkaBatchSource(this, kafka.build());
    }
  }
}
