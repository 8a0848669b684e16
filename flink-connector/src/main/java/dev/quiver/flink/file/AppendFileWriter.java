package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.operators.memory.TaskAllocators;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task of an {@link AppendFileSink}: writes the batches it receives into a hidden file of its
 * own, and at each checkpoint (and the end of its input) finishes that file and hands it on as a
 * {@link PendingFile}; the next batch starts a new file.
 *
 * <p>Runs in the task thread, bound to the task's allocator while it lives. Closed before its input
 * ended (failure, cancellation), it abandons its unfinished file: the data is deleted.
 */
final class AppendFileWriter implements CommittingSinkWriter<BatchRecord, PendingFile> {
  private static final Logger LOG = LoggerFactory.getLogger(AppendFileWriter.class);

  private final Path directory;
  private final FileFormat format;
  private final Schema schema;
  private final int task;
  // New for every writer, so that a restarted attempt never reuses the name of a file of an
  // attempt before it (committed, pending or abandoned).
  private final String id = UUID.randomUUID().toString();
  private final TaskAllocators.Binding memory;
  private final List<PendingFile> finished = new ArrayList<>();
  private BatchFileWriter file; // the file being written, or null
  private PendingFile current; // its names
  private int files;
  private boolean ended;

  AppendFileWriter(Path directory, FileFormat format, Schema schema, int task) {
    this.directory = requireNonNull(directory, "directory is null");
    this.format = requireNonNull(format, "format is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.task = task;
    this.memory = TaskAllocators.acquire("append to " + directory + " [" + task + "]");
  }

  /** The visible name of this writer's file number {@code n}: {@code part-<id>-3-0.parquet}. */
  private String name(int n) {
    return "part-" + id + "-" + task + "-" + n + format.defaultExtension();
  }

  @Override
  public void write(BatchRecord record, Context context) {
    try (record) {
      if (!record.isData() || record.rowCount() == 0) {
        return;
      }
      if (file == null) {
        start();
      }
      file.write(record.batch());
    }
  }

  private void start() {
    String name = name(files++);
    Path pending = directory.resolve("." + name + ".pending");
    try {
      file = BatchFileWriter.open(pending, format, schema, memory.allocator());
    } catch (RuntimeException e) {
      throw new QuiverException(
          ErrorCode.FILE_WRITE_FAILED, "Cannot write " + pending + ": " + e.getMessage(), e);
    }
    current = new PendingFile(pending.toString(), directory.resolve(name).toString(), 0);
  }

  @Override
  public void flush(boolean endOfInput) {
    ended |= endOfInput;
  }

  /** Finishes the file being written (if any) and hands on every finished file. */
  @Override
  public Collection<PendingFile> prepareCommit() {
    if (file != null) {
      long rows;
      try {
        rows = file.commit();
      } finally {
        file.close();
        file = null;
      }
      finished.add(new PendingFile(current.pending(), current.target(), rows));
      LOG.debug("{} rows finished in {}", rows, current.pending());
    }
    List<PendingFile> ready = List.copyOf(finished);
    finished.clear();
    return ready;
  }

  @Override
  public void close() {
    try {
      if (file != null) {
        file.close(); // not finished: abandoned, its data deleted
        file = null;
      }
    } finally {
      memory.close(ended); // a leak after a clean end is a bug
    }
  }
}
