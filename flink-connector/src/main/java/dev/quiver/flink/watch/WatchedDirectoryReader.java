package dev.quiver.flink.watch;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSlices;
import dev.quiver.formats.FileBatchReader;
import dev.quiver.formats.ScanSpec;
import dev.quiver.operators.memory.TaskAllocators;
import dev.quiver.operators.scalar.BatchProjection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;

/**
 * Reads the files of a watched directory that the enumerator hands it, one at a time, in the task
 * thread: each {@link #pollNext} reads one batch with a {@link FileBatchReader} (the formats
 * module's readers, the scan's batch size) into the task's allocator and emits it as {@code
 * BatchRecord.data(task, batch)}; with no file left it asks the enumerator for the next.
 *
 * <p>Checkpoints hold the file being read with the rows already emitted, and the files queued; a
 * restored reader skips the emitted rows (reading a file is deterministic). A file that changed or
 * vanished after it was found fails the task with the formats module's error naming it.
 */
final class WatchedDirectoryReader implements SourceReader<BatchRecord, WatchedFileSplit> {
  private final SourceReaderContext context;
  private final ScanSpec scan;
  private final BatchProjection columns; // null: emit the files' rows
  private final int task;
  private final String taskName;
  private final ArrayDeque<WatchedFileSplit> queue = new ArrayDeque<>();
  private TaskAllocators.Binding memory;
  private WatchedFileSplit split; // the file being read, with its rows emitted so far
  private FileBatchReader reader;
  private long skip; // rows of the current file still to skip after a restore
  private boolean requested;
  private boolean noMoreSplits;
  private boolean finished;
  private CompletableFuture<Void> available = new CompletableFuture<>();

  WatchedDirectoryReader(
      SourceReaderContext context, ScanSpec scan, BatchProjection columns, String name) {
    this.context = requireNonNull(context, "context is null");
    this.scan = requireNonNull(scan, "scan is null");
    this.columns = columns;
    this.task = context.getIndexOfSubtask();
    this.taskName = requireNonNull(name, "name is null") + "[" + task + "]";
  }

  @Override
  public void start() {
    memory = TaskAllocators.acquire(taskName);
  }

  @Override
  public InputStatus pollNext(ReaderOutput<BatchRecord> output) {
    while (true) {
      if (reader == null && !openNext()) {
        if (noMoreSplits) {
          finished = true;
          return InputStatus.END_OF_INPUT;
        }
        if (!requested) {
          requested = true;
          context.sendSplitRequest();
        }
        return InputStatus.NOTHING_AVAILABLE;
      }
      VectorSchemaRoot batch = nextBatch();
      if (batch == null) {
        reader.close();
        reader = null;
        split = null;
        continue;
      }
      int rows = batch.getRowCount();
      if (columns != null) {
        // Computed columns before the batch reaches the output: the watermark may be one.
        batch = columns.projectAndClose(batch, memory.allocator());
      }
      try (BatchRecord record = BatchRecord.data(task, batch)) {
        output.collect(record);
      }
      split = split.advance(rows);
      return InputStatus.MORE_AVAILABLE;
    }
  }

  private boolean openNext() {
    WatchedFileSplit next = queue.poll();
    if (next == null) {
      return false;
    }
    if (memory == null) {
      throw new IllegalStateException(taskName + " reads before start()");
    }
    split = next;
    skip = next.rowsRead();
    reader = new FileBatchReader(List.of(next.file()), scan, memory.allocator());
    return true;
  }

  // The next batch of the current file, after the rows a restored split already emitted.
  private VectorSchemaRoot nextBatch() {
    while (true) {
      VectorSchemaRoot batch = reader.next();
      if (batch == null || skip == 0) {
        return batch;
      }
      int rows = batch.getRowCount();
      if (rows <= skip) {
        skip -= rows;
        batch.close();
        continue;
      }
      try (batch) {
        int from = (int) skip;
        skip = 0;
        return BatchSlices.slice(batch, from, rows - from, batch.getSchema(), memory.allocator());
      }
    }
  }

  @Override
  public List<WatchedFileSplit> snapshotState(long checkpointId) {
    List<WatchedFileSplit> state = new ArrayList<>(queue.size() + 1);
    if (split != null) {
      state.add(split);
    }
    state.addAll(queue);
    return state;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    if (reader != null || !queue.isEmpty() || noMoreSplits) {
      return CompletableFuture.completedFuture(null);
    }
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return available;
  }

  @Override
  public void addSplits(List<WatchedFileSplit> splits) {
    queue.addAll(splits);
    requested = false;
    available.complete(null);
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    available.complete(null);
  }

  @Override
  public void close() {
    try {
      if (reader != null) {
        reader.close();
        reader = null;
      }
    } finally {
      if (memory != null) {
        TaskAllocators.Binding binding = memory;
        memory = null;
        // A watch ends by cancellation: a leak is then logged by the last holder, not thrown.
        binding.close(finished);
      }
    }
  }
}
