package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSlices;
import dev.quiver.formats.FileBatchReader;
import dev.quiver.formats.ScanKeyRanges;
import dev.quiver.formats.ScanSpec;
import dev.quiver.operators.keyrange.TaskKeyRanges;
import dev.quiver.operators.memory.TaskAllocators;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.core.io.InputStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one task's splits in the task thread: each {@link #pollNext} reads one batch with a {@link
 * FileBatchReader} into the task's allocator and emits it as {@code BatchRecord.data(task, batch)}.
 *
 * <p>Memory: the task allocator (see {@link TaskAllocators}) is bound in {@link #start()} and
 * released in {@link #close()}, both on the task thread. An emitted record is closed as soon as
 * {@code collect} returns: a chained consumer has taken what it keeps and a network edge has
 * serialized it. A read error (a corrupt file, a malformed CSV row) is the {@code QuiverException}
 * of {@link FileBatchReader} naming the file; it fails the task.
 *
 * <p>The reader reads nothing before the enumerator's last event (no more splits) has arrived. An
 * event that reaches a task after it failed is "lost": Flink then fails the task again with a
 * {@code TaskNotRunningException}, and when that is handled before the task's own failure, the job
 * fails with it and the real error (a full spill disk, a corrupt file) is never reported. A task
 * that has received every event before it reads can lose none (the fault matrix's spill directory
 * case found this). The wait is the time the events take to arrive.
 *
 * <p>Checkpoints hold each unfinished split with the rows already emitted; a restored reader skips
 * them (reading is deterministic for a given file and scan).
 */
final class FileScanReader implements SourceReader<BatchRecord, FileScanSplit> {
  private static final Logger LOG = LoggerFactory.getLogger(FileScanReader.class);

  private final ScanSpec scan;
  private final Schema output;
  private final int task;
  private final String taskName;
  private final String keyRangeTable; // nullable
  private final ArrayDeque<FileScanSplit> queue = new ArrayDeque<>();
  private TaskAllocators.Binding memory;
  private FileScanSplit split; // the split being read, with its rows read so far
  private FileBatchReader reader;
  private long skip; // rows of the current split still to skip after a restore
  private boolean noMoreSplits;
  private boolean finished;
  private CompletableFuture<Void> available = new CompletableFuture<>();

  FileScanReader(ScanSpec scan, Schema output, int task, String name, String keyRangeTable) {
    this.keyRangeTable = keyRangeTable;
    this.scan = requireNonNull(scan, "scan is null");
    this.output = requireNonNull(output, "output is null");
    this.task = task;
    this.taskName = requireNonNull(name, "name is null") + "[" + task + "]";
  }

  @Override
  public void start() {
    memory = TaskAllocators.acquire(taskName);
  }

  @Override
  public InputStatus pollNext(ReaderOutput<BatchRecord> out) {
    if (!noMoreSplits) {
      return InputStatus.NOTHING_AVAILABLE; // see the class comment: every event first
    }
    while (true) {
      if (reader == null && !openNext()) {
        if (noMoreSplits) {
          finished = true;
          return InputStatus.END_OF_INPUT;
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
      try (BatchRecord record = BatchRecord.data(task, conform(batch))) {
        out.collect(record);
      }
      split = split.advance(rows);
      return InputStatus.MORE_AVAILABLE;
    }
  }

  private boolean openNext() {
    while (true) {
      FileScanSplit next = queue.poll();
      if (next == null) {
        return false;
      }
      ScanSpec spec = scan;
      // Only a split read from its start: a restored split's row count to skip assumes the rows
      // it was first read with.
      if (keyRangeTable != null && next.rowsRead() == 0) {
        ScanKeyRanges.Decision decision =
            ScanKeyRanges.decide(next.file(), scan, TaskKeyRanges.ranges(keyRangeTable));
        if (decision.action() != ScanKeyRanges.Action.READ) {
          LOG.debug(
              "{}: {} {} by its joins' key ranges",
              taskName,
              decision.action(),
              next.file().path());
        }
        if (decision.action() == ScanKeyRanges.Action.SKIP) {
          continue;
        }
        spec = decision.spec();
      }
      split = next;
      skip = next.rowsRead();
      reader = new FileBatchReader(List.of(next.file()), spec, allocator());
      return true;
    }
  }

  // The next batch of the current split, after the rows a restored split already emitted.
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
        VectorSchemaRoot rest =
            BatchSlices.slice(batch, (int) skip, rows - (int) skip, batch.getSchema(), allocator());
        skip = 0;
        return rest;
      }
    }
  }

  // The planner's edge may name or mark nullability differently from the files; types match.
  private VectorSchemaRoot conform(VectorSchemaRoot batch) {
    if (batch.getSchema().equals(output)) {
      return batch;
    }
    try (batch) {
      return BatchSlices.slice(batch, 0, batch.getRowCount(), output, allocator());
    }
  }

  private BufferAllocator allocator() {
    if (memory == null) {
      throw new IllegalStateException(taskName + " reads before start()");
    }
    return memory.allocator();
  }

  @Override
  public List<FileScanSplit> snapshotState(long checkpointId) {
    List<FileScanSplit> state = new ArrayList<>(queue.size() + 1);
    if (split != null) {
      state.add(split);
    }
    state.addAll(queue);
    return state;
  }

  @Override
  public CompletableFuture<Void> isAvailable() {
    if (noMoreSplits) {
      return CompletableFuture.completedFuture(null);
    }
    if (available.isDone()) {
      available = new CompletableFuture<>();
    }
    return available;
  }

  @Override
  public void addSplits(List<FileScanSplit> splits) {
    for (FileScanSplit added : splits) {
      if (added.task() != task) {
        throw new IllegalStateException(
            taskName + " was given split " + added + " planned for task " + added.task());
      }
      queue.add(added);
    }
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
        // A leak after a normal end is a bug; after a failure it is only logged (TaskAllocators).
        binding.close(finished);
      }
    }
  }
}
