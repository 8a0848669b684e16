package dev.quiver.flink.watch;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.eventtime.EventTimeWatermarks;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.ScanSpec;
import dev.quiver.operators.scalar.BatchProjection;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.time.EventTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * An unbounded FLIP-27 source of Arrow batches read from the files that appear in a directory: the
 * enumerator lists it every scan interval and hands each new complete file to one reader, once
 * ({@link WatchedDirectoryEnumerator}; what counts as complete: {@link CompleteFiles}); readers
 * read files with the formats module's readers under the declared schema ({@link
 * WatchedDirectoryReader}). Files already in the directory when the job starts are read first.
 *
 * <pre>
 *   every scan interval: list DIR ─► new complete files ─► queue ─► the next reader that asks
 *   reader: file ─► FileBatchReader ─► batches of at most batchRows rows ─► BatchRecord.data(task, b)
 * </pre>
 *
 * <p>With an {@link EventTime}, {@link #stream} assigns each batch the largest event time of its
 * rows and watermarks of {@code max - delay} per reader; a reader with nothing to read stops
 * holding the watermark after {@code idleTimeout} ({@link EventTimeWatermarks}).
 */
public final class WatchedDirectorySource
    implements Source<BatchRecord, WatchedFileSplit, WatchedDirectoryState>,
        ResultTypeQueryable<BatchRecord> {
  private static final long serialVersionUID = 1L;

  /** How often the directory is listed, unless set. */
  public static final Duration DEFAULT_SCAN_INTERVAL = Duration.ofSeconds(1);

  /** Time after which a reader without files stops holding the watermark, unless set. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(1);

  private final String directory;
  private final ScanSpec scan;
  private final BatchTypeInfo type;
  private final List<Expr> columns; // null: the batches are the files' rows
  private final long scanIntervalMillis;
  private final EventTime eventTime; // nullable
  private final Duration idleTimeout;

  private WatchedDirectorySource(Builder builder) {
    Path dir = builder.directory.toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new QuiverException(
          ErrorCode.FILE_NOT_FOUND, "The directory to watch, " + dir + ", does not exist");
    }
    this.directory = dir.toString();
    this.scan =
        ScanSpec.of(builder.format, builder.schema, builder.csv).withBatchRows(builder.batchRows);
    this.columns = builder.columns;
    Schema output =
        columns == null
            ? scan.outputSchema()
            : new BatchProjection(columns, builder.columnNames).schema();
    this.type = BatchTypeInfo.of(output, "watch " + directory);
    if (builder.scanInterval.isNegative() || builder.scanInterval.isZero()) {
      throw new IllegalArgumentException("scanInterval must be positive: " + builder.scanInterval);
    }
    this.scanIntervalMillis = builder.scanInterval.toMillis();
    this.eventTime = builder.eventTime;
    this.idleTimeout = builder.idleTimeout;
    if (eventTime != null) {
      eventTime.columnIndex(output); // checks the column
    }
  }

  /**
   * A source of the {@code format} files appearing in {@code directory}, read as {@code schema}.
   */
  public static Builder builder(Path directory, FileFormat format, Schema schema) {
    return new Builder(directory, format, schema);
  }

  /** Adds the source to {@code env} with {@code parallelism} readers. */
  public DataStream<BatchRecord> stream(StreamExecutionEnvironment env, int parallelism) {
    requireNonNull(env, "env is null");
    return env.fromSource(this, watermarkStrategy(), "watch " + directory, type)
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

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.CONTINUOUS_UNBOUNDED;
  }

  @Override
  public SourceReader<BatchRecord, WatchedFileSplit> createReader(SourceReaderContext context) {
    return new WatchedDirectoryReader(
        context,
        scan,
        columns == null
            ? null
            : new BatchProjection(
                columns, type.schema().getFields().stream().map(Field::getName).toList()),
        "watch " + directory);
  }

  @Override
  public SplitEnumerator<WatchedFileSplit, WatchedDirectoryState> createEnumerator(
      SplitEnumeratorContext<WatchedFileSplit> context) {
    return restoreEnumerator(context, new WatchedDirectoryState(List.of(), List.of()));
  }

  @Override
  public SplitEnumerator<WatchedFileSplit, WatchedDirectoryState> restoreEnumerator(
      SplitEnumeratorContext<WatchedFileSplit> context, WatchedDirectoryState checkpoint) {
    return new WatchedDirectoryEnumerator(
        context, Path.of(directory), scan.format(), scanIntervalMillis, checkpoint);
  }

  @Override
  public SimpleVersionedSerializer<WatchedFileSplit> getSplitSerializer() {
    return WatchedFileSplit.Serializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<WatchedDirectoryState> getEnumeratorCheckpointSerializer() {
    return WatchedDirectoryState.Serializer.INSTANCE;
  }

  @Override
  public TypeInformation<BatchRecord> getProducedType() {
    return type;
  }

  /** Options of a {@link WatchedDirectorySource}. */
  public static final class Builder {
    private final Path directory;
    private final FileFormat format;
    private final Schema schema;
    private CsvOptions csv = CsvOptions.DEFAULT;
    private int batchRows = ScanSpec.DEFAULT_BATCH_ROWS;
    private Duration scanInterval = DEFAULT_SCAN_INTERVAL;
    private EventTime eventTime;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private List<Expr> columns;
    private List<String> columnNames;

    private Builder(Path directory, FileFormat format, Schema schema) {
      this.directory = requireNonNull(directory, "directory is null");
      this.format = requireNonNull(format, "format is null");
      this.schema = requireNonNull(schema, "schema is null");
    }

    /** How CSV files are parsed (default: {@link CsvOptions#DEFAULT}, with a header). */
    /**
     * The batches' columns, computed from the files' rows by {@code expressions}, named {@code
     * names}, in the reader before watermarks are taken (a table's computed columns; the event time
     * may be one). Default: the files' rows.
     */
    public Builder columns(List<Expr> expressions, List<String> names) {
      columns = List.copyOf(requireNonNull(expressions, "expressions is null"));
      columnNames = List.copyOf(requireNonNull(names, "names is null"));
      return this;
    }

    public Builder csv(CsvOptions value) {
      csv = requireNonNull(value, "value is null");
      return this;
    }

    /** The most rows per batch (default {@value ScanSpec#DEFAULT_BATCH_ROWS}). */
    public Builder batchRows(int value) {
      batchRows = value;
      return this;
    }

    /** How often the directory is listed (default 1 s). */
    public Builder scanInterval(Duration value) {
      scanInterval = requireNonNull(value, "value is null");
      return this;
    }

    /** The event-time column and watermark delay (default: none, no watermarks). */
    public Builder eventTime(EventTime value) {
      eventTime = requireNonNull(value, "value is null");
      return this;
    }

    /** After this long without a batch a reader is idle (default 1 s; zero: never). */
    public Builder idleTimeout(Duration value) {
      idleTimeout = requireNonNull(value, "value is null");
      return this;
    }

    public WatchedDirectorySource build() {
      return new WatchedDirectorySource(this);
    }
  }
}
