package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.compiler.SelectColumnsOperator;
import dev.quiver.flink.kafka.KafkaBatchSource;
import dev.quiver.flink.kafka.KafkaMetadata;
import dev.quiver.flink.kafka.KafkaValueFormat;
import dev.quiver.flink.watch.WatchedDirectorySource;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.time.StreamOptions;
import dev.quiver.sql.CatalogTable;
import dev.quiver.sql.TableColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.TimeUtils;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * Tables over streams, declared the way Flink SQL declares them: a schema, an optional event time
 * ({@code WATERMARK FOR ts AS ts - INTERVAL '5' SECOND}) and the {@code WITH} options of a
 * connector, with Flink's option names.
 *
 * <pre>
 *   'connector' = 'kafka'                     a Kafka topic of JSON or CSV values
 *     'topic', 'properties.bootstrap.servers' (required), 'format' = 'json' | 'csv',
 *     'properties.group.id', 'properties.*' (consumer settings),
 *     'scan.startup.mode' = 'earliest-offset' (default) | 'latest-offset' | 'group-offsets',
 *     'scan.bounded.mode' = 'unbounded' (default) | 'latest-offset' (a bounded table: the
 *         records present when the query starts), 'csv.field-delimiter',
 *     'scan.watermark.idle-timeout' (default 1 s), 'scan.batch.rows', 'scan.batch.delay';
 *     written by INSERT INTO ({@link TableSinks}): 'sink.delivery-guarantee' = 'exactly-once'
 *         (default) | 'at-least-once' | 'none', 'sink.transactional-id-prefix'
 *   'connector' = 'filesystem'                files of one format under a directory
 *     'path' (required), 'format' = 'parquet' | 'csv', 'csv.field-delimiter', 'csv.header',
 *     'source.monitor-interval': with it the directory is watched for new files (unbounded),
 *         without it the files present now are the table (bounded, as Flink's; a directory that
 *         does not exist yet or holds none may be declared, for INSERT INTO to write)
 *   'connector' = 'nexmark'                   one kind of the Nexmark generator's events, a stream
 *     'kind' = 'person' | 'auction' | 'bid', 'events' (required), 'seed', 'events-per-second',
 *     'base-time-millis', 'block-events', 'scan.batch.rows', 'progress' ({@link NexmarkTables})
 * </pre>
 *
 * A table may declare computed columns ({@code ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3)}, also as the
 * event time) and, over Kafka, metadata columns ({@code part INT METADATA FROM 'partition'
 * VIRTUAL}; keys {@code timestamp}, {@code partition}, {@code offset}, {@code topic}): the reader
 * computes them batch by batch before it takes watermarks ({@link TableColumns}).
 *
 * <p>The table's {@link CatalogTable#options()} are the given options plus the declared schema
 * (Arrow JSON, {@value #SCHEMA}), the columns' declarations ({@link TableColumns#options()}) and,
 * for a stream, {@link StreamOptions}; {@link #source} turns a scan of it into the Flink source. A
 * stream has no statistics: it is planned as a very large table (so a join broadcasts the bounded
 * side and probes with the stream) with one placeholder split unit per task (the connector, not the
 * planner, spreads partitions or files over its readers).
 */
public final class StreamTables {
  /** The declared schema, Arrow schema JSON. */
  public static final String SCHEMA = "quiver.schema";

  /** The row count the planner assumes for a stream. */
  static final long STREAM_ROWS = 1_000_000_000L;

  private static final Set<String> KAFKA_KEYS =
      Set.of(
          "connector",
          "topic",
          "format",
          "properties.bootstrap.servers",
          "scan.startup.mode",
          "scan.bounded.mode",
          "csv.field-delimiter",
          "scan.watermark.idle-timeout",
          "scan.batch.rows",
          "scan.batch.delay",
          "sink.delivery-guarantee",
          "sink.transactional-id-prefix");
  private static final Set<String> UPSERT_KAFKA_KEYS =
      Set.of(
          "connector",
          "topic",
          "properties.bootstrap.servers",
          "key.format",
          "value.format",
          "value.fields-include",
          "csv.field-delimiter",
          "sink.delivery-guarantee",
          "sink.transactional-id-prefix");
  private static final Set<String> FILESYSTEM_KEYS =
      Set.of(
          "connector",
          "path",
          "format",
          "csv.field-delimiter",
          "csv.header",
          "source.monitor-interval",
          "scan.watermark.idle-timeout",
          "scan.batch.rows");

  private StreamTables() {}

  /**
   * The catalog table {@code name}: {@code schema} read through the connector {@code with}
   * describes, with {@code eventTime} if declared, planned with {@code tasks} tasks per scan.
   *
   * @throws QuiverException {@link ErrorCode#INVALID_QUERY} naming the table and the option that is
   *     missing, unknown or wrong
   */
  public static CatalogTable open(
      String name,
      RowSchema schema,
      Optional<EventTime> eventTime,
      Map<String, String> with,
      int tasks) {
    return open(name, schema, eventTime, List.of(), with, tasks);
  }

  /**
   * As {@link #open(String, RowSchema, Optional, Map, int)}, with the {@code PRIMARY KEY ... NOT
   * ENFORCED} columns {@code primaryKey} (empty: none): an {@code 'upsert-kafka'} table's message
   * key, which it requires; other connectors ignore it.
   */
  public static CatalogTable open(
      String name,
      RowSchema schema,
      Optional<EventTime> eventTime,
      List<String> primaryKey,
      Map<String, String> with,
      int tasks) {
    requireNonNull(schema, "schema is null");
    return open(name, TableColumns.physical(name, schema), eventTime, primaryKey, with, tasks);
  }

  /**
   * The catalog table {@code name} of {@code columns}: physical, computed and metadata ones, as
   * {@code CREATE TABLE} declares them ({@link TableColumns}). A scan of it gives every column in
   * declared order: the connector reads the physical and metadata columns and computes the computed
   * ones from them, batch by batch and before it takes watermarks, so the event time may be a
   * computed column. Only Kafka tables have metadata ({@link KafkaMetadata}). {@code primaryKey}
   * (the {@code PRIMARY KEY ... NOT ENFORCED} columns; empty: none) is an {@code 'upsert-kafka'}
   * table's message key, which it requires; other connectors ignore it.
   *
   * @throws QuiverException {@link ErrorCode#INVALID_QUERY} naming the table and the option or
   *     column that is missing, unknown or wrong
   */
  public static CatalogTable open(
      String name,
      TableColumns columns,
      Optional<EventTime> eventTime,
      List<String> primaryKey,
      Map<String, String> with,
      int tasks) {
    requireNonNull(primaryKey, "primaryKey is null");
    requireNonNull(name, "name is null");
    requireNonNull(columns, "columns is null");
    requireNonNull(eventTime, "eventTime is null");
    requireNonNull(with, "with is null");
    RowSchema schema = columns.schema();
    eventTime.ifPresent(time -> time.columnIndex(schema.toArrow()));
    String connector = required(name, with, "connector").toLowerCase(Locale.ROOT);
    Map<String, String> options = new LinkedHashMap<>(with);
    options.put("connector", connector);
    options.put(SCHEMA, schema.toArrow().toJson());
    options.putAll(columns.options());
    checkMetadata(name, connector, columns);
    if (!columns.allPhysical() && connector.equals("nexmark")) {
      throw invalid(
          name,
          "a Nexmark table has the generator's columns only, no computed or metadata columns");
    }
    switch (connector) {
      case "kafka" -> {
        checkKeys(name, with, KAFKA_KEYS, true);
        required(name, with, "topic");
        required(name, with, "properties.bootstrap.servers");
        kafkaFormat(name, with);
        startingOffsets(name, with);
        batchDelay(name, with);
        idleTimeout(name, with);
        batchRows(name, with, KafkaBatchSource.DEFAULT_BATCH_ROWS);
        csvDelimiter(name, with);
        deliveryGuarantee(name, with);
        transactionalIdPrefix(name, with);
        if (!kafkaBounded(name, with)) {
          options.putAll(StreamOptions.unbounded(eventTime));
        }
      }
      case "filesystem" -> {
        checkKeys(name, with, FILESYSTEM_KEYS, false);
        required(name, with, "path");
        fileFormat(name, with);
        csv(name, with);
        idleTimeout(name, with);
        batchRows(name, with, 8192);
        if (monitorInterval(name, with).isEmpty()) {
          // Flink's filesystem table without a monitor interval: the files present now.
          return ComputedFileTables.of(
              files(name, fileSpec(name, with, columns.stored().toArrow()), columns.stored()),
              columns);
        }
        options.putAll(StreamOptions.unbounded(eventTime));
      }
      case "upsert-kafka" -> {
        if (!columns.allPhysical()) {
          throw invalid(name, "an 'upsert-kafka' table has physical columns only (it is written)");
        }
        return upsertKafka(name, schema, eventTime, primaryKey, with, options);
      }
      case "nexmark" ->
          // A stream for planning though it ends: Flink SQL runs Nexmark in STREAMING mode too.
          options.putAll(
              StreamOptions.unbounded(
                  Optional.of(NexmarkTables.check(name, schema, eventTime, with))));
      default ->
          throw invalid(
              name,
              "its connector '"
                  + with.get("connector")
                  + "' is not one Quiver has: 'kafka', 'upsert-kafka', 'filesystem' or"
                  + " 'nexmark'");
    }
    List<SplitUnit> units = new ArrayList<>();
    for (int t = 0; t < tasks; t++) {
      units.add(SplitUnit.file(connector + ":" + name + "/" + t, 0, SplitUnit.UNKNOWN_ROWS));
    }
    long rows = StreamOptions.isUnbounded(options) ? STREAM_ROWS : 1_000_000L;
    return new CatalogTable(name, schema, rows, units, options);
  }

  /** Whether {@code options} describe an {@code 'upsert-kafka'} table: written, not read. */
  public static boolean isUpsertKafka(Map<String, String> options) {
    return options.containsKey(SCHEMA) && "upsert-kafka".equals(options.get("connector"));
  }

  /**
   * Metadata columns only where the connector has metadata (Kafka), each of a key it has, declared
   * with the key's type.
   */
  private static void checkMetadata(String name, String connector, TableColumns columns) {
    for (TableColumns.Declared column : columns.ofKind(TableColumns.Kind.METADATA)) {
      if (!connector.equals("kafka")) {
        throw invalid(
            name,
            "the metadata column "
                + column.name()
                + " reads '"
                + column.metadataKey()
                + "', but the "
                + connector
                + " connector has no metadata: declare a physical or computed column");
      }
      KafkaMetadata key =
          KafkaMetadata.of(column.metadataKey())
              .orElseThrow(
                  () ->
                      invalid(
                          name,
                          "the metadata column "
                              + column.name()
                              + " reads '"
                              + column.metadataKey()
                              + "', which Kafka records do not have; the keys are "
                              + KafkaMetadata.keys()));
      if (!key.type().equals(column.column().type())) {
        throw invalid(
            name,
            "the metadata column "
                + column.name()
                + " is "
                + column.column().type()
                + ", but Kafka's '"
                + key.key()
                + "' is "
                + key.type()
                + ": declare it "
                + key.type());
      }
    }
  }

  /**
   * Whether {@code options} describe a table of this class (Kafka, a watched directory, Nexmark).
   */
  public static boolean isStreamTable(Map<String, String> options) {
    String connector = options.get("connector");
    return options.containsKey(SCHEMA)
        && ("kafka".equals(connector)
            || "filesystem".equals(connector)
            || "nexmark".equals(connector));
  }

  /**
   * The Flink stream of a planned {@code scan} of a table of this class, with {@link Scan#tasks()}
   * readers and batches of {@code type} (the columns the scan reads). The connector reads the
   * declared row (its event time is taken from the whole row, so watermarks need no column of the
   * query), then the columns the scan does not read are dropped.
   */
  public static DataStream<BatchRecord> source(
      StreamExecutionEnvironment env, Scan scan, BatchTypeInfo type) {
    requireNonNull(env, "env is null");
    requireNonNull(type, "type is null");
    TableSource table = requireNonNull(scan, "scan is null").source();
    Map<String, String> options = table.options();
    if (!isStreamTable(options)) {
      throw new IllegalArgumentException(table.name() + " is not a stream table: " + options);
    }
    Schema declared;
    try {
      declared = Schema.fromJSON(options.get(SCHEMA));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "the declared schema of " + table.name() + " is unreadable", e);
    }
    Optional<EventTime> eventTime = StreamOptions.eventTime(options);
    TableColumns columns = TableColumns.of(table.name(), RowSchema.fromArrow(declared), options);
    DataStream<BatchRecord> stream =
        switch (options.get("connector")) {
          case "kafka" -> kafka(env, table.name(), options, columns, eventTime, scan.tasks());
          case "nexmark" ->
              NexmarkTables.stream(
                  env, table.name(), options, eventTime.orElseThrow(), scan.tasks());
          default -> watched(env, table.name(), options, columns, eventTime, scan.tasks());
        };
    return SelectColumnsOperator.select(stream, table.schema(), type, "scan " + table.name());
  }

  private static DataStream<BatchRecord> kafka(
      StreamExecutionEnvironment env,
      String name,
      Map<String, String> options,
      TableColumns columns,
      Optional<EventTime> eventTime,
      int tasks) {
    KafkaBatchSource.Builder builder =
        KafkaBatchSource.builder()
            .bootstrapServers(options.get("properties.bootstrap.servers"))
            .topic(options.get("topic"))
            .schema(columns.stored().toArrow())
            .format(kafkaFormat(name, options))
            .startingOffsets(startingOffsets(name, options))
            .batchRows(batchRows(name, options, KafkaBatchSource.DEFAULT_BATCH_ROWS))
            .batchDelay(batchDelay(name, options))
            .idleTimeout(idleTimeout(name, options));
    csvDelimiter(name, options).ifPresent(builder::csvDelimiter);
    for (TableColumns.Declared column : columns.ofKind(TableColumns.Kind.METADATA)) {
      builder.metadata(column.name(), KafkaMetadata.of(column.metadataKey()).orElseThrow());
    }
    if (!columns.allPhysical()) {
      builder.columns(columns.expressions(), TableColumns.names(columns.schema()));
    }
    eventTime.ifPresent(builder::eventTime);
    if (kafkaBounded(name, options)) {
      builder.bounded();
    }
    options.forEach(
        (key, value) -> {
          if (key.startsWith("properties.") && !key.equals("properties.bootstrap.servers")) {
            String property = key.substring("properties.".length());
            if (property.equals("group.id")) {
              builder.groupId(value);
            } else {
              builder.property(property, value);
            }
          }
        });
    return builder.build().stream(env, "kafka " + options.get("topic") + " (" + name + ")", tasks);
  }

  private static DataStream<BatchRecord> watched(
      StreamExecutionEnvironment env,
      String name,
      Map<String, String> options,
      TableColumns columns,
      Optional<EventTime> eventTime,
      int tasks) {
    WatchedDirectorySource.Builder builder =
        WatchedDirectorySource.builder(
                Path.of(options.get("path")), fileFormat(name, options), columns.stored().toArrow())
            .csv(csv(name, options))
            .batchRows(batchRows(name, options, 8192))
            .scanInterval(monitorInterval(name, options).orElseThrow())
            .idleTimeout(idleTimeout(name, options));
    if (!columns.allPhysical()) {
      builder.columns(columns.expressions(), TableColumns.names(columns.schema()));
    }
    eventTime.ifPresent(builder::eventTime);
    return builder.build().stream(env, tasks);
  }

  /**
   * The file table {@code spec} describes; if its directory does not exist yet or holds no files of
   * its format, a table of the declared schema without files, which an {@code INSERT INTO} can
   * write. A query of it fails as a query of a missing location does (a table is the files present
   * when it was declared: declare it again to read what was written).
   */
  private static CatalogTable files(String name, FileTableSpec spec, RowSchema schema) {
    try {
      return FileCatalogTables.open(name, spec);
    } catch (QuiverException e) {
      Path path = Path.of(spec.location());
      if (e.code() != ErrorCode.FILE_NOT_FOUND
          || spec.location().chars().anyMatch(c -> "*?[{".indexOf(c) >= 0)
          || (Files.exists(path) && !Files.isDirectory(path))) {
        throw e;
      }
      return new CatalogTable(name, schema, 0, List.of(), FileTableOptions.encode(spec));
    }
  }

  private static FileTableSpec fileSpec(String name, Map<String, String> with, Schema schema) {
    return FileTableSpec.of(with.get("path"))
        .withFormat(fileFormat(name, with))
        .withCsv(csv(name, with))
        .withSchema(schema);
  }

  /**
   * An {@code 'upsert-kafka'} table (Flink's option names): written by {@code INSERT INTO} as a
   * changelog keyed by its primary key ({@link TableSinks}); not read (yet).
   */
  private static CatalogTable upsertKafka(
      String name,
      RowSchema schema,
      Optional<EventTime> eventTime,
      List<String> primaryKey,
      Map<String, String> with,
      Map<String, String> options) {
    checkKeys(name, with, UPSERT_KAFKA_KEYS, true);
    required(name, with, "topic");
    required(name, with, "properties.bootstrap.servers");
    kafkaFormat(name, with, "key.format");
    kafkaFormat(name, with, "value.format");
    valueExceptKey(name, with);
    csvDelimiter(name, with);
    deliveryGuarantee(name, with);
    transactionalIdPrefix(name, with);
    if (primaryKey.isEmpty()) {
      throw invalid(
          name,
          "an 'upsert-kafka' table needs a PRIMARY KEY (...) NOT ENFORCED: its columns are the"
              + " message key");
    }
    if (eventTime.isPresent()) {
      throw invalid(name, "an 'upsert-kafka' table is written, not read: it has no WATERMARK");
    }
    List<Integer> key = new ArrayList<>();
    for (String column : primaryKey) {
      int index = 0;
      while (index < schema.size() && !schema.column(index).name().equalsIgnoreCase(column)) {
        index++;
      }
      if (index == schema.size()) {
        throw invalid(name, "the PRIMARY KEY column " + column + " is not one of its columns");
      }
      key.add(index);
    }
    List<SplitUnit> units =
        List.of(SplitUnit.file("upsert-kafka:" + name, 0, SplitUnit.UNKNOWN_ROWS));
    return new CatalogTable(name, schema, STREAM_ROWS, units, options).withUniqueKeys(List.of(key));
  }

  /** Whether an {@code 'upsert-kafka'} table's values leave out the key columns. */
  static boolean valueExceptKey(String name, Map<String, String> with) {
    String include = with.getOrDefault("value.fields-include", "ALL").toUpperCase(Locale.ROOT);
    return switch (include) {
      case "ALL" -> false;
      case "EXCEPT_KEY" -> true;
      default ->
          throw invalid(
              name, "'value.fields-include' = '" + include + "' is not ALL or EXCEPT_KEY");
    };
  }

  static KafkaValueFormat kafkaFormat(String name, Map<String, String> with) {
    return kafkaFormat(name, with, "format");
  }

  /** The JSON or CSV format of option {@code key}. */
  static KafkaValueFormat kafkaFormat(String name, Map<String, String> with, String key) {
    String format = required(name, with, key).toLowerCase(Locale.ROOT);
    return switch (format) {
      case "json" -> KafkaValueFormat.JSON;
      case "csv" -> KafkaValueFormat.CSV;
      default ->
          throw invalid(
              name, "'" + key + "' = '" + format + "' is not one Kafka tables have: json, csv");
    };
  }

  static FileFormat fileFormat(String name, Map<String, String> with) {
    String format = required(name, with, "format").toLowerCase(Locale.ROOT);
    return switch (format) {
      case "parquet" -> FileFormat.PARQUET;
      case "csv" -> FileFormat.CSV;
      default ->
          throw invalid(
              name, "'format' = '" + format + "' is not one filesystem tables have: parquet, csv");
    };
  }

  // Flink's Kafka connector still takes Kafka's deprecated OffsetResetStrategy.
  @SuppressWarnings("deprecation")
  private static OffsetsInitializer startingOffsets(String name, Map<String, String> with) {
    String mode = with.getOrDefault("scan.startup.mode", "earliest-offset");
    return switch (mode) {
      case "earliest-offset" -> OffsetsInitializer.earliest();
      case "latest-offset" -> OffsetsInitializer.latest();
      case "group-offsets" -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
      default ->
          throw invalid(
              name,
              "'scan.startup.mode' = '"
                  + mode
                  + "' is not one of earliest-offset, latest-offset, group-offsets");
    };
  }

  /** {@code 'sink.delivery-guarantee'}: exactly-once (Quiver's default), at-least-once, none. */
  static DeliveryGuarantee deliveryGuarantee(String name, Map<String, String> with) {
    String guarantee = with.getOrDefault("sink.delivery-guarantee", "exactly-once");
    return switch (guarantee.toLowerCase(Locale.ROOT)) {
      case "exactly-once" -> DeliveryGuarantee.EXACTLY_ONCE;
      case "at-least-once" -> DeliveryGuarantee.AT_LEAST_ONCE;
      case "none" -> DeliveryGuarantee.NONE;
      default ->
          throw invalid(
              name,
              "'sink.delivery-guarantee' = '"
                  + guarantee
                  + "' is not one of exactly-once, at-least-once, none");
    };
  }

  /** {@code 'sink.transactional-id-prefix'}, if set (not blank). */
  static Optional<String> transactionalIdPrefix(String name, Map<String, String> with) {
    String prefix = with.get("sink.transactional-id-prefix");
    if (prefix != null && prefix.isBlank()) {
      throw invalid(name, "'sink.transactional-id-prefix' must not be blank");
    }
    return Optional.ofNullable(prefix);
  }

  private static boolean kafkaBounded(String name, Map<String, String> with) {
    String mode = with.getOrDefault("scan.bounded.mode", "unbounded");
    return switch (mode) {
      case "unbounded" -> false;
      case "latest-offset" -> true;
      default ->
          throw invalid(
              name, "'scan.bounded.mode' = '" + mode + "' is not one of unbounded, latest-offset");
    };
  }

  static Optional<Character> csvDelimiter(String name, Map<String, String> with) {
    String delimiter = with.get("csv.field-delimiter");
    if (delimiter == null) {
      return Optional.empty();
    }
    if (delimiter.length() != 1) {
      throw invalid(name, "'csv.field-delimiter' must be one character, not '" + delimiter + "'");
    }
    return Optional.of(delimiter.charAt(0));
  }

  static CsvOptions csv(String name, Map<String, String> with) {
    CsvOptions csv = CsvOptions.DEFAULT;
    Optional<Character> delimiter = csvDelimiter(name, with);
    if (delimiter.isPresent()) {
      csv = csv.withDelimiter(delimiter.get());
    }
    String header = with.get("csv.header");
    if (header != null) {
      if (!header.equals("true") && !header.equals("false")) {
        throw invalid(name, "'csv.header' must be true or false, not '" + header + "'");
      }
      csv = csv.withHeader(Boolean.parseBoolean(header));
    }
    return csv;
  }

  private static Optional<Duration> monitorInterval(String name, Map<String, String> with) {
    return duration(name, with, "source.monitor-interval");
  }

  private static Duration idleTimeout(String name, Map<String, String> with) {
    return duration(name, with, "scan.watermark.idle-timeout")
        .orElse(KafkaBatchSource.DEFAULT_IDLE_TIMEOUT);
  }

  private static Duration batchDelay(String name, Map<String, String> with) {
    return duration(name, with, "scan.batch.delay").orElse(KafkaBatchSource.DEFAULT_BATCH_DELAY);
  }

  static int batchRows(String name, Map<String, String> with, int fallback) {
    String rows = with.get("scan.batch.rows");
    if (rows == null) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(rows.strip());
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw invalid(name, "'scan.batch.rows' must be a positive number, not '" + rows + "'");
  }

  private static Optional<Duration> duration(String name, Map<String, String> with, String key) {
    String text = with.get(key);
    if (text == null) {
      return Optional.empty();
    }
    Duration value;
    try {
      value = TimeUtils.parseDuration(text);
    } catch (IllegalArgumentException e) {
      throw invalid(
          name, "'" + key + "' = '" + text + "' is not a duration (e.g. '1 s', '500 ms')");
    }
    if (value.isNegative() || value.isZero()) {
      throw invalid(name, "'" + key + "' must be positive, not '" + text + "'");
    }
    return Optional.of(value);
  }

  static String required(String name, Map<String, String> with, String key) {
    String value = with.get(key);
    if (value == null || value.isBlank()) {
      throw invalid(name, "the option '" + key + "' is missing");
    }
    return value;
  }

  /** Unknown keys are refused (a typo would otherwise be ignored); Kafka passes properties.*. */
  static void checkKeys(
      String name, Map<String, String> with, Set<String> known, boolean properties) {
    Set<String> unknown = new TreeSet<>();
    for (String key : with.keySet()) {
      if (!known.contains(key) && !(properties && key.startsWith("properties."))) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw invalid(
          name,
          (unknown.size() == 1 ? "the option " : "the options ")
              + unknown.stream().map(key -> "'" + key + "'").toList()
              + " "
              + (unknown.size() == 1 ? "is" : "are")
              + " not one the "
              + with.get("connector")
              + " connector has: "
              + new TreeSet<>(known));
    }
  }

  static QuiverException invalid(String name, String what) {
    return new QuiverException(ErrorCode.INVALID_QUERY, "Table '" + name + "': " + what);
  }
}
