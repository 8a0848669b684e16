package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkBatchReader;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.operators.memory.TaskAllocators;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;

/**
 * Generates its splits' events of one kind as Arrow batches in the task's allocator ({@link
 * NexmarkBatchReader}), one batch per {@link #emit}, as {@code BatchRecord.data(task, batch)}.
 */
final class NexmarkBatchSourceReader extends NexmarkSourceReaderBase<BatchRecord> {
  private final NexmarkConfig config;
  private final EventKind kind;
  private final int batchRows;
  private final int task;
  private final String taskName;
  private TaskAllocators.Binding memory;
  private NexmarkBatchReader reader;

  NexmarkBatchSourceReader(
      SourceReaderContext context, NexmarkConfig config, EventKind kind, int batchRows) {
    super(context);
    this.config = requireNonNull(config, "config is null");
    this.kind = requireNonNull(kind, "kind is null");
    this.batchRows = batchRows;
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
            config, kind, split.events(), split.position(), batchRows, memory.allocator());
  }

  @Override
  protected boolean emit(ReaderOutput<BatchRecord> output) {
    VectorSchemaRoot batch = reader.next();
    if (batch == null) {
      return false;
    }
    try (BatchRecord record = BatchRecord.data(task, batch)) {
      output.collect(record);
    }
    return true;
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
