package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkBatchReader;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkSchemas;
import dev.quiver.operators.memory.TaskAllocators;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;

/**
 * Generates its splits' events of one kind as Arrow batches in the task's allocator ({@link
 * NexmarkBatchReader}), one batch per {@link #emit}, as {@code BatchRecord.data(task, batch)}; with
 * a {@link NexmarkProgress} listener, tells it the batch's last event time once the batch is
 * emitted (through the chained operators after the source).
 */
final class NexmarkBatchSourceReader extends NexmarkSourceReaderBase<BatchRecord> {
  private final NexmarkConfig config;
  private final EventKind kind;
  private final int batchRows;
  private final TimeUnit timeUnit;
  private final NexmarkProgress.Reader progress; // nullable
  private final int task;
  private final String taskName;
  private TaskAllocators.Binding memory;
  private NexmarkBatchReader reader;

  NexmarkBatchSourceReader(
      SourceReaderContext context,
      NexmarkConfig config,
      EventKind kind,
      int batchRows,
      TimeUnit timeUnit,
      NexmarkProgress.Reader progress) {
    super(context);
    this.config = requireNonNull(config, "config is null");
    this.kind = requireNonNull(kind, "kind is null");
    this.batchRows = batchRows;
    this.timeUnit = requireNonNull(timeUnit, "timeUnit is null");
    this.progress = progress;
    this.task = context.getIndexOfSubtask();
    this.taskName = "nexmark " + kind.tableName() + "[" + task + "]";
  }

  @Override
  public void start() {
    memory = TaskAllocators.acquire(taskName);
  }

  @Override
  protected void open(NexmarkSplit split) {
    if (memory == null) {
      throw new IllegalStateException(taskName + " reads before start()");
    }
    reader =
        new NexmarkBatchReader(
            config,
            kind,
            split.events(),
            split.position(),
            batchRows,
            timeUnit,
            memory.allocator());
  }

  @Override
  protected boolean emit(ReaderOutput<BatchRecord> output) {
    VectorSchemaRoot batch = reader.next();
    if (batch == null) {
      return false;
    }
    // Reported before emitting: the batch's buffers may be gone once the chain has taken it, and
    // a chained sink sees the batch inside collect(), so a report after it would come after the
    // sink's latency sample of the same batch.
    if (progress != null) {
      progress.emitted(lastDateTimeMillis(batch), System.nanoTime());
    }
    try (BatchRecord record = BatchRecord.data(task, batch)) {
      output.collect(record);
    }
    return true;
  }

  // Rows are in event order: the last row's is the batch's largest.
  private long lastDateTimeMillis(VectorSchemaRoot batch) {
    long value =
        ((TimeStampVector) batch.getVector(NexmarkSchemas.DATE_TIME)).get(batch.getRowCount() - 1);
    return timeUnit == TimeUnit.MICROSECOND ? value / 1000 : value;
  }

  @Override
  protected long position() {
    return reader.position();
  }

  @Override
  public void close() {
    if (memory != null) {
      TaskAllocators.Binding binding = memory;
      memory = null;
      binding.close(finished());
    }
  }
}
