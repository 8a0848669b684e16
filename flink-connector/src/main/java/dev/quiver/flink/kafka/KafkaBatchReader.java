package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.operators.memory.TaskAllocators;
import dev.quiver.operators.scalar.BatchProjection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Flink's Kafka source reader with batching around it: the Kafka reader fetches, tracks offsets and
 * emits one record per message into a per-partition output; this reader's outputs decode each
 * message into its partition's batch ({@link PartitionBatcher}) and emit the batch, as one {@code
 * BatchRecord.data(task, batch)}, to the same partition's Flink output.
 *
 * <pre>
 *   Kafka fetcher ─► KafkaSourceReader ─► output of partition p ─► PartitionBatcher p ─► Flink's
 *                    (offsets, commits)    (this class)            (rows → vectors)      output of p
 * </pre>
 *
 * <p>Because batches go to Flink's per-partition outputs, the watermark strategy runs per Kafka
 * partition (each with its own idleness), as with Flink's own Kafka records.
 *
 * <p>A batch is emitted when it has {@code batchRows} rows, or {@code batchDelay} after its first
 * row: {@link #isAvailable()} also completes at the earliest such deadline, so a partition with
 * thin traffic is emitted on time while nothing else arrives.
 *
 * <p>Exactly once: the Kafka reader's checkpointed offset of a partition is the offset after the
 * last message it handed on, which may be in a batch still waiting here. {@link #snapshotState}
 * replaces it by the offset of the batch's first row, so a restored reader reads the waiting rows
 * again; they were never emitted. (The offsets the Kafka reader commits to the consumer group on a
 * completed checkpoint may be ahead by those rows; Flink restores from its checkpoint, never from
 * the group's offsets.)
 *
 * <p>A partition's batch holds the value's columns and the record metadata asked for; with {@code
 * columns} (a table's computed columns) each batch is projected into the table's row before it goes
 * to the partition's output, so watermarks are taken from the computed event time, per partition,
 * vectorized ({@link BatchProjection}).
 *
 * <p>Memory: batches are built in the task's allocator (bound in {@link #start()}, released in
 * {@link #close()}); an emitted record is closed as soon as {@code collect} returns.
 */
final class KafkaBatchReader implements SourceReader<BatchRecord, KafkaPartitionSplit> {
  private final SourceReader<ConsumerRecord<byte[], byte[]>, KafkaPartitionSplit> kafka;
  private final KafkaBatchOptions options;
  private final Schema values;
  private final Schema schema;
  private final List<KafkaMetadata> metadata;
  private final KafkaBatchSource.Columns columns; // null: emit the read row
  private BatchProjection projection;
  private final int task;
  private final String taskName;
  private final long batchDelayNanos;
  private final Map<String, PartitionBatcher> batchers = new HashMap<>();
  private final Map<String, SourceOutput<BatchRecord>> outputs = new HashMap<>();
  private TaskAllocators.Binding memory;
  private Batching batching;
  private boolean emitted;
  private boolean finished;

  KafkaBatchReader(
      SourceReader<ConsumerRecord<byte[], byte[]>, KafkaPartitionSplit> kafka,
      KafkaBatchOptions options,
      Schema values,
      Schema schema,
      List<KafkaMetadata> metadata,
      KafkaBatchSource.Columns columns,
      int task) {
    this.kafka = requireNonNull(kafka, "kafka is null");
    this.options = requireNonNull(options, "options is null");
    this.values = requireNonNull(values, "values is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.metadata = List.copyOf(requireNonNull(metadata, "metadata is null"));
    this.columns = columns;
    this.task = task;
    this.taskName = "kafka " + options.topic() + "[" + task + "]";
    this.batchDelayNanos = options.batchDelay().toNanos();
  }

  @Override
  public void start() {
    memory = TaskAllocators.acquire(taskName);
    projection = columns == null ? null : columns.projection();
    kafka.start();
  }

  @Override
  public InputStatus pollNext(ReaderOutput<BatchRecord> output) throws Exception {
    if (batching == null || batching.flink != output) {
      batching = new Batching(output);
    }
    emitted = false;
    InputStatus status = kafka.pollNext(batching);
    emitDue(System.nanoTime());
    if (status == InputStatus.END_OF_INPUT) {
      for (String split : new ArrayList<>(batchers.keySet())) {
        emit(split);
      }
      finished = true;
      return InputStatus.END_OF_INPUT;
    }
    return emitted ? InputStatus.MORE_AVAILABLE : status;
  }

  private void emitDue(long now) {
    for (Map.Entry<String, PartitionBatcher> entry : batchers.entrySet()) {
      PartitionBatcher batcher = entry.getValue();
      if (batcher.rows() > 0 && now - batcher.deadlineNanos() >= 0) {
        emit(entry.getKey());
      }
    }
  }

  private void emit(String split) {
    PartitionBatcher batcher = batchers.get(split);
    VectorSchemaRoot batch = batcher == null ? null : batcher.take();
    if (batch == null) {
      return;
    }
    SourceOutput<BatchRecord> output = outputs.get(split);
    if (output == null) {
      batch.close();
      throw new IllegalStateException(taskName + ": no output for partition split " + split);
    }
    if (projection != null) {
      // Computed columns before the batch reaches the output: its watermark may be one of them.
      batch = projection.projectAndClose(batch, memory.allocator());
    }
    try (BatchRecord record = BatchRecord.data(task, batch)) {
      output.collect(record);
    }
    emitted = true;
  }

  private PartitionBatcher batcher(String split, ConsumerRecord<byte[], byte[]> first) {
    PartitionBatcher batcher = batchers.get(split);
    if (batcher == null) {
      if (memory == null) {
        throw new IllegalStateException(taskName + " reads before start()");
      }
      batcher =
          new PartitionBatcher(
              first.topic(),
              first.partition(),
              schema,
              ValueDecoder.of(options.format(), values, options.csvDelimiter()),
              metadata,
              memory.allocator(),
              options.batchRows(),
              batchDelayNanos);
      batchers.put(split, batcher);
    }
    return batcher;
  }

  @Override
  public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
    List<KafkaPartitionSplit> splits = kafka.snapshotState(checkpointId);
    List<KafkaPartitionSplit> resume = new ArrayList<>(splits.size());
    for (KafkaPartitionSplit split : splits) {
      PartitionBatcher batcher = batchers.get(split.splitId());
      if (batcher == null || batcher.rows() == 0) {
        resume.add(split);
      } else {
        resume.add(
            new KafkaPartitionSplit(
                split.getTopicPartition(),
                batcher.firstOffset(),
                split.getStoppingOffset().orElse(KafkaPartitionSplit.NO_STOPPING_OFFSET)));
      }
    }
    return resume;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    CompletableFuture<Void> fetched = kafka.isAvailable();
    long deadline = Long.MAX_VALUE;
    boolean waiting = false;
    for (PartitionBatcher batcher : batchers.values()) {
      if (batcher.rows() > 0 && (!waiting || batcher.deadlineNanos() - deadline < 0)) {
        deadline = batcher.deadlineNanos();
        waiting = true;
      }
    }
    if (!waiting || fetched.isDone()) {
      return fetched;
    }
    long delay = deadline - System.nanoTime();
    if (delay <= 0) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> due =
        CompletableFuture.runAsync(
            () -> {}, CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS));
    return CompletableFuture.anyOf(fetched, due).thenApply(ignored -> (Void) null);
  }

  @Override
  public void addSplits(List<KafkaPartitionSplit> splits) {
    kafka.addSplits(splits);
  }

  @Override
  public void notifyNoMoreSplits() {
    kafka.notifyNoMoreSplits();
  }

  @Override
  public void handleSourceEvents(SourceEvent event) {
    kafka.handleSourceEvents(event);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    kafka.notifyCheckpointComplete(checkpointId);
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    kafka.notifyCheckpointAborted(checkpointId);
  }

  @Override
  public void pauseOrResumeSplits(
      Collection<String> splitsToPause, Collection<String> splitsToResume) {
    kafka.pauseOrResumeSplits(splitsToPause, splitsToResume);
  }

  @Override
  public void close() {
    try {
      kafka.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closing goes on; the task is ending anyway
    } catch (Exception e) {
      throw new IllegalStateException(taskName + ": closing Flink's Kafka reader failed", e);
    } finally {
      batchers.values().forEach(PartitionBatcher::close);
      batchers.clear();
      if (memory != null) {
        TaskAllocators.Binding binding = memory;
        memory = null;
        // An unbounded source ends by cancellation: only a bounded one that read all ends normally.
        binding.close(finished);
      }
    }
  }

  /** The output the Kafka reader writes to: one batching output per partition split. */
  private final class Batching implements ReaderOutput<ConsumerRecord<byte[], byte[]>> {
    private final ReaderOutput<BatchRecord> flink;

    Batching(ReaderOutput<BatchRecord> flink) {
      this.flink = flink;
    }

    @Override
    public SourceOutput<ConsumerRecord<byte[], byte[]>> createOutputForSplit(String split) {
      outputs.put(split, flink.createOutputForSplit(split));
      return new PartitionOutput(split);
    }

    @Override
    public void releaseOutputForSplit(String split) {
      emit(split);
      PartitionBatcher batcher = batchers.remove(split);
      if (batcher != null) {
        batcher.close();
      }
      outputs.remove(split);
      flink.releaseOutputForSplit(split);
    }

    @Override
    public void collect(ConsumerRecord<byte[], byte[]> record) {
      throw new IllegalStateException("the Kafka reader emits per partition split");
    }

    @Override
    public void collect(ConsumerRecord<byte[], byte[]> record, long timestamp) {
      collect(record);
    }

    @Override
    public void emitWatermark(Watermark watermark) {
      flink.emitWatermark(watermark);
    }

    @Override
    public void markIdle() {
      flink.markIdle();
    }

    @Override
    public void markActive() {
      flink.markActive();
    }
  }

  /** Decodes one partition's messages into its batch; emits the batch when it is full. */
  private final class PartitionOutput implements SourceOutput<ConsumerRecord<byte[], byte[]>> {
    private final String split;

    PartitionOutput(String split) {
      this.split = split;
    }

    @Override
    public void collect(ConsumerRecord<byte[], byte[]> record) {
      if (batcher(split, record).append(record, System.nanoTime())) {
        emit(split);
      }
    }

    @Override
    public void collect(ConsumerRecord<byte[], byte[]> record, long timestamp) {
      collect(record); // timestamps come from the event-time column, not from Kafka
    }

    // Watermarks come from the batches Flink's output sees; the Kafka reader emits none itself.
    @Override
    public void emitWatermark(Watermark watermark) {
      outputs.get(split).emitWatermark(watermark);
    }

    @Override
    public void markIdle() {
      outputs.get(split).markIdle();
    }

    @Override
    public void markActive() {
      outputs.get(split).markActive();
    }
  }
}
