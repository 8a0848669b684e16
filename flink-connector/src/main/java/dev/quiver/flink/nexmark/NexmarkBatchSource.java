package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.eventtime.EventTimeWatermarks;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.EventSplit;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkSchemas;
import dev.quiver.plan.time.EventTime;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
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
 * A bounded FLIP-27 source of one kind of Nexmark events (persons, auctions or bids) as Arrow
 * batches of {@link NexmarkSchemas}: events {@code 0 .. events-1} of the stream split among the
 * parallel readers ({@link NexmarkEnumerator}, one {@link EventSplit} each), every event emitted
 * exactly once in all; a checkpoint holds each reader's position.
 *
 * <pre>
 *   enumerator: split i of p ─► reader i
 *   reader i: events of its blocks ─► this kind's rows ─► batches of batchRows ─► BatchRecord.data(i, b)
 * </pre>
 *
 * <p>Event time: {@link #stream} gives each batch the largest {@code dateTime} of its rows and
 * per-reader watermarks of that minus the watermark delay ({@link EventTimeWatermarks}), as
 * nexmark-flink declares {@code WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND}. A
 * reader's events are in event order, so its watermarks never pass one of its later rows.
 *
 * <pre>{@code
 * NexmarkBatchSource bids = NexmarkBatchSource.builder(EventKind.BID, 10_000_000).build();
 * DataStream<BatchRecord> stream = bids.stream(env, 2);
 * }</pre>
 */
public final class NexmarkBatchSource
    implements Source<BatchRecord, NexmarkSplit, NexmarkEnumeratorState>,
        ResultTypeQueryable<BatchRecord> {
  private static final long serialVersionUID = 1L;

  /** Rows per batch unless set. */
  public static final int DEFAULT_BATCH_ROWS = 4096;

  /** nexmark-flink's watermark delay: {@code dateTime - INTERVAL '4' SECOND}. */
  public static final Duration DEFAULT_WATERMARK_DELAY = Duration.ofSeconds(4);

  private final NexmarkConfig config;
  private final EventKind kind;
  private final long events;
  private final int batchRows;
  private final int blockEvents;
  private final EventTime eventTime;
  private final TimeUnit timeUnit;
  private final String progress; // nullable
  private final BatchTypeInfo type;

  private NexmarkBatchSource(Builder builder) {
    this.config = builder.config;
    this.kind = builder.kind;
    this.events = builder.events;
    this.batchRows = builder.batchRows;
    this.blockEvents = builder.blockEvents;
    this.eventTime = new EventTime(NexmarkSchemas.DATE_TIME, builder.watermarkDelay);
    this.timeUnit = builder.timeUnit;
    this.progress = builder.progress;
    this.type = BatchTypeInfo.of(NexmarkSchemas.of(kind, timeUnit), "nexmark " + kind.tableName());
    new EventSplit(events, 0, 1, blockEvents); // checks events and blockEvents
    if (batchRows <= 0) {
      throw new IllegalArgumentException("batchRows must be positive: " + batchRows);
    }
  }

  /** A source of the {@code kind} events among the first {@code events} of the stream. */
  public static Builder builder(EventKind kind, long events) {
    return new Builder(kind, events);
  }

  /** Adds the source to {@code env} with {@code parallelism} readers, with watermarks. */
  public DataStream<BatchRecord> stream(StreamExecutionEnvironment env, int parallelism) {
    requireNonNull(env, "env is null");
    return env.fromSource(this, watermarkStrategy(), "nexmark " + kind.tableName(), type)
        .setParallelism(parallelism);
  }

  /** Per-batch event times and watermarks of {@code max(dateTime) - delay}; never idle. */
  public WatermarkStrategy<BatchRecord> watermarkStrategy() {
    // No idleness: a reader is never without events until it ends, and its end releases the
    // watermark anyway.
    return EventTimeWatermarks.strategy(eventTime, type.schema(), Duration.ZERO);
  }

  public Schema schema() {
    return type.schema();
  }

  public EventTime eventTime() {
    return eventTime;
  }

  public EventKind kind() {
    return kind;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SourceReader<BatchRecord, NexmarkSplit> createReader(SourceReaderContext context) {
    return new NexmarkBatchSourceReader(
        context,
        config,
        kind,
        batchRows,
        timeUnit,
        progress == null ? null : NexmarkProgress.reader(progress));
  }

  @Override
  public SplitEnumerator<NexmarkSplit, NexmarkEnumeratorState> createEnumerator(
      SplitEnumeratorContext<NexmarkSplit> context) {
    return restoreEnumerator(context, new NexmarkEnumeratorState(false, List.of()));
  }

  @Override
  public SplitEnumerator<NexmarkSplit, NexmarkEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<NexmarkSplit> context, NexmarkEnumeratorState checkpoint) {
    return new NexmarkEnumerator(context, events, blockEvents, checkpoint);
  }

  @Override
  public SimpleVersionedSerializer<NexmarkSplit> getSplitSerializer() {
    return NexmarkSplit.Serializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<NexmarkEnumeratorState> getEnumeratorCheckpointSerializer() {
    return NexmarkEnumeratorState.Serializer.INSTANCE;
  }

  @Override
  public TypeInformation<BatchRecord> getProducedType() {
    return type;
  }

  /** Options of a {@link NexmarkBatchSource}. */
  public static final class Builder {
    private final EventKind kind;
    private final long events;
    private NexmarkConfig config = NexmarkConfig.DEFAULT;
    private int batchRows = DEFAULT_BATCH_ROWS;
    private int blockEvents = EventSplit.DEFAULT_BLOCK_EVENTS;
    private Duration watermarkDelay = DEFAULT_WATERMARK_DELAY;
    private TimeUnit timeUnit = TimeUnit.MILLISECOND;
    private String progress;

    private Builder(EventKind kind, long events) {
      this.kind = requireNonNull(kind, "kind is null");
      this.events = events;
    }

    /** The stream's parameters (default {@link NexmarkConfig#DEFAULT}). */
    public Builder config(NexmarkConfig value) {
      config = requireNonNull(value, "value is null");
      return this;
    }

    /** Rows per batch (default {@value #DEFAULT_BATCH_ROWS}). */
    public Builder batchRows(int value) {
      batchRows = value;
      return this;
    }

    /** Events per block of the split (default {@value EventSplit#DEFAULT_BLOCK_EVENTS}). */
    public Builder blockEvents(int value) {
      blockEvents = value;
      return this;
    }

    /** How far watermarks trail the largest event time (default 4 s). */
    public Builder watermarkDelay(Duration value) {
      watermarkDelay = requireNonNull(value, "value is null");
      return this;
    }

    /**
     * The unit of the batches' timestamps: {@link TimeUnit#MILLISECOND} (default, {@link
     * NexmarkSchemas#of(EventKind)}) or {@link TimeUnit#MICROSECOND} (Quiver SQL's TIMESTAMP).
     */
    public Builder timeUnit(TimeUnit value) {
      NexmarkSchemas.of(kind, requireNonNull(value, "value is null")); // checks the unit
      timeUnit = value;
      return this;
    }

    /** Reports each reader's progress to the {@link NexmarkProgress} listener {@code name}. */
    public Builder progress(String name) {
      progress = requireNonNull(name, "name is null");
      return this;
    }

    public NexmarkBatchSource build() {
      return new NexmarkBatchSource(this);
    }
  }
}
