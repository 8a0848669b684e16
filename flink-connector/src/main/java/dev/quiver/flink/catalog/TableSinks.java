package dev.quiver.flink.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.file.AppendFileSink;
import dev.quiver.flink.kafka.KafkaBatchSink;
import dev.quiver.flink.runtime.InsertRowsOperator;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.plan.changelog.RowKind;
import dev.quiver.sql.CatalogTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * How {@code INSERT INTO} writes a catalog table: the sink of its connector, read off the same
 * options its {@code CREATE TABLE} declared ({@link StreamTables}).
 *
 * <pre>
 *   'connector' = 'kafka'       {@link KafkaBatchSink}: a message per row, JSON or CSV as the
 *                               table's source decodes it; 'sink.delivery-guarantee' (exactly-once
 *                               unless set), 'sink.transactional-id-prefix', producer 'properties.*'
 *   'connector' =               {@link KafkaBatchSink} as an upsert sink: a changelog (also an
 *     'upsert-kafka'            append-only result, all +I), a message per row keyed by the
 *                               PRIMARY KEY columns in 'key.format', its value in 'value.format'
 *                               ('value.fields-include' ALL or EXCEPT_KEY) or a tombstone (-U, -D)
 *   'connector' = 'filesystem'  {@link AppendFileSink}: part files appended to 'path', each visible
 *   (and tables of files: a      once the checkpoint after its rows completes (or the job ends);
 *   directory, not a glob)      Parquet, Arrow IPC, or CSV with Quiver's default dialect
 * </pre>
 *
 * Writing is exactly once end to end for a streaming job (its checkpoints commit what the sinks
 * wrote, and a restore takes back nothing a reader saw), and at the end of a bounded one.
 */
public final class TableSinks {
  // The uids of the insert operator and the sink (its writer and committer), for savepoints.
  private static final String ROWS_UID = "quiver-insert-rows";
  private static final String SINK_UID = "quiver-insert-sink";

  private final CatalogTable table;
  private final Writer writer;

  private interface Writer {
    void write(DataStream<BatchRecord> rows, String name);
  }

  private TableSinks(CatalogTable table, Writer writer) {
    this.table = table;
    this.writer = writer;
  }

  /**
   * The sink of {@code table}, its options checked.
   *
   * @throws QuiverException {@link ErrorCode#INVALID_QUERY} naming the table if it cannot be
   *     written (a Nexmark generator, a glob of files), {@link ErrorCode#UNSUPPORTED_FEATURE} for a
   *     CSV dialect Quiver does not write, {@link ErrorCode#UNSUPPORTED_TYPE} for a column its
   *     format cannot hold
   */
  public static TableSinks of(CatalogTable table) {
    requireNonNull(table, "table is null");
    String name = table.name();
    Map<String, String> options = table.options();
    String connector = options.getOrDefault("connector", "");
    return switch (connector) {
      case "kafka" -> new TableSinks(table, kafka(name, options, table.schema().toArrow()));
      case "upsert-kafka" -> new TableSinks(table, upsertKafka(table));
      case "filesystem" ->
          new TableSinks(
              table,
              files(
                  name,
                  options.get("path"),
                  StreamTables.fileFormat(name, options),
                  StreamTables.csv(name, options)));
      case FileTableOptions.FILE_CONNECTOR -> {
        FileTableSpec spec = FileTableOptions.decode(options).orElseThrow();
        yield new TableSinks(
            table,
            files(
                name,
                spec.location(),
                spec.format()
                    .orElseThrow(() -> StreamTables.invalid(name, "its file format is not known")),
                spec.csv()));
      }
      default ->
          throw StreamTables.invalid(
              name,
              "INSERT INTO writes 'kafka', 'upsert-kafka' and 'filesystem' tables, not "
                  + (connector.isEmpty() ? "this one" : "'" + connector + "' ones"));
    };
  }

  /** The table written. */
  public CatalogTable table() {
    return table;
  }

  /**
   * The columns that key an updating result written to the table (an {@code 'upsert-kafka'} table's
   * PRIMARY KEY), or empty when the table takes appended rows only.
   */
  public Optional<List<Integer>> upsertKey() {
    return StreamTables.isUpsertKafka(table.options())
        ? Optional.of(table.uniqueKeys().get(0))
        : Optional.empty();
  }

  /**
   * Writes {@code rows} (the final stage's output, of the table's column types) into the table: an
   * {@link InsertRowsOperator} then the sink, both chained to the stage's tasks.
   */
  public void write(DataStream<BatchRecord> rows) {
    write(rows, false);
  }

  /**
   * Writes {@code rows} into the table, as {@link #write(DataStream)}; with {@code changelog}, the
   * rows are a changelog, their last column the row kind, which an upsert table ({@link
   * #upsertKey}) takes and only it (an append-only result is written to one as a changelog of +I
   * rows).
   */
  public void write(DataStream<BatchRecord> rows, boolean changelog) {
    requireNonNull(rows, "rows is null");
    Schema schema = table.schema().toArrow();
    if (changelog != upsertKey().isPresent()) {
      throw new IllegalArgumentException(
          table.name() + (changelog ? " takes appended rows" : " takes a changelog"));
    }
    if (changelog) {
      schema = changelogSchema(schema);
    }
    writer.write(
        InsertRowsOperator.attach(rows, table.name(), schema, ROWS_UID), "write " + table.name());
  }

  private static Writer upsertKafka(CatalogTable table) {
    String name = table.name();
    Map<String, String> options = table.options();
    int[] key = table.uniqueKeys().get(0).stream().mapToInt(Integer::intValue).toArray();
    KafkaBatchSink.Builder builder =
        KafkaBatchSink.builder()
            .bootstrapServers(StreamTables.required(name, options, "properties.bootstrap.servers"))
            .topic(StreamTables.required(name, options, "topic"))
            .format(StreamTables.kafkaFormat(name, options, "value.format"))
            .upsert(
                key,
                StreamTables.kafkaFormat(name, options, "key.format"),
                StreamTables.valueExceptKey(name, options))
            .deliveryGuarantee(StreamTables.deliveryGuarantee(name, options));
    return kafkaSink(name, options, builder, changelogSchema(table.schema().toArrow()));
  }

  private static Schema changelogSchema(Schema schema) {
    List<Field> fields = new ArrayList<>(schema.getFields());
    fields.add(RowKind.FIELD);
    return new Schema(fields);
  }

  private static Writer kafka(String name, Map<String, String> options, Schema schema) {
    KafkaBatchSink.Builder builder =
        KafkaBatchSink.builder()
            .bootstrapServers(StreamTables.required(name, options, "properties.bootstrap.servers"))
            .topic(StreamTables.required(name, options, "topic"))
            .format(StreamTables.kafkaFormat(name, options))
            .deliveryGuarantee(StreamTables.deliveryGuarantee(name, options));
    return kafkaSink(name, options, builder, schema);
  }

  /** The producer options and the checks every Kafka table's sink shares. */
  private static Writer kafkaSink(
      String name, Map<String, String> options, KafkaBatchSink.Builder builder, Schema schema) {
    StreamTables.csvDelimiter(name, options).ifPresent(builder::csvDelimiter);
    StreamTables.transactionalIdPrefix(name, options).ifPresent(builder::transactionalIdPrefix);
    Set<String> producerKeys = ProducerConfig.configNames();
    options.forEach(
        (key, value) -> {
          // Consumer settings (group.id, isolation.level) are the source's: a producer warns
          // about every key it does not know.
          if (key.startsWith("properties.")
              && producerKeys.contains(key.substring("properties.".length()))) {
            builder.property(key.substring("properties.".length()), value);
          }
        });
    KafkaBatchSink sink = builder.build();
    checkTypes(name, () -> sink.check(schema));
    return (rows, sinkName) -> sink.write(rows, sinkName).uid(SINK_UID);
  }

  private static Writer files(String name, String location, FileFormat format, CsvOptions csv) {
    if (location.chars().anyMatch(c -> "*?[{".indexOf(c) >= 0)) {
      throw StreamTables.invalid(
          name, "its files are a glob, " + location + ": INSERT INTO writes into a directory");
    }
    Path directory = Path.of(withoutFileScheme(location));
    if (Files.exists(directory) && !Files.isDirectory(directory)) {
      throw StreamTables.invalid(
          name, "it is the file " + location + ": INSERT INTO writes into a directory");
    }
    if (format == FileFormat.CSV && !csv.equals(CsvOptions.DEFAULT)) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          "Table '"
              + name
              + "': INSERT INTO writes CSV with a header line, ',' between fields and '\"'"
              + " quotes, not "
              + csv
              + "; write Parquet, or declare the table with those");
    }
    return (rows, sinkName) ->
        AppendFileSink.write(rows, directory, format).name(sinkName).uid(SINK_UID);
  }

  private static String withoutFileScheme(String location) {
    if (location.startsWith("file://")) {
      return location.substring("file://".length());
    }
    return location.startsWith("file:") ? location.substring("file:".length()) : location;
  }

  private static void checkTypes(String name, Runnable check) {
    try {
      check.run();
    } catch (QuiverException e) {
      if (e.code() != ErrorCode.UNSUPPORTED_TYPE) {
        throw e;
      }
      String message = e.getMessage().substring(e.code().name().length() + 3);
      throw new QuiverException(e.code(), "Table '" + name + "': " + message, e);
    }
  }
}
