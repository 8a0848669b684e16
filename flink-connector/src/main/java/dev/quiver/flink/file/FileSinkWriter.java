package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.operators.memory.TaskAllocators;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task of a {@link FileSink}: writes every batch it receives to its own part file in the job's
 * staging directory with a {@link BatchFileWriter}, and at the end of its input commits that file
 * (inside the staging directory) and hands it on as a {@link FilePart}.
 *
 * <p>Runs in the task thread, which it binds to the task's allocator while it lives (batches that
 * arrive over the network are deserialized into it). A writer closed before the end of its input
 * (failure, cancellation) abandons its file: the temporary data is deleted.
 */
final class FileSinkWriter implements CommittingSinkWriter<BatchRecord, FilePart> {
  private static final Logger LOG = LoggerFactory.getLogger(FileSinkWriter.class);

  private final int task;
  private final int tasks;
  private final Path staged;
  private final String name;
  private final TaskAllocators.Binding memory;
  private final BatchFileWriter writer;
  private FilePart part; // once committed
  private boolean handedOn;

  FileSinkWriter(Path staging, FileFormat format, Schema schema, int task, int tasks) {
    this.task = task;
    this.tasks = tasks;
    this.staged = requireNonNull(staging, "staging is null").resolve(partName(task, format));
    this.name = "file sink " + staged;
    this.memory = TaskAllocators.acquire(name);
    try {
      Files.createDirectories(staging);
      Files.deleteIfExists(staged); // staged by an earlier attempt of this task
      this.writer = BatchFileWriter.open(staged, format, schema, memory.allocator());
    } catch (IOException | RuntimeException e) {
      memory.close();
      throw new QuiverException(
          ErrorCode.FILE_WRITE_FAILED, "Cannot stage " + staged + ": " + e.getMessage(), e);
    }
  }

  /** The name of task {@code task}'s part: {@code part-00003.parquet}. */
  static String partName(int task, FileFormat format) {
    return String.format("part-%05d%s", task, format.defaultExtension());
  }

  @Override
  public void write(BatchRecord record, Context context) {
    try (record) {
      if (record.isData()) {
        writer.write(record.batch());
      }
    }
  }

  @Override
  public void flush(boolean endOfInput) {
    if (endOfInput && part == null) {
      long rows = writer.commit();
      part = new FilePart(task, tasks, staged.toString(), rows);
      LOG.debug("{}: staged {} rows", name, rows);
    }
  }

  @Override
  public Collection<FilePart> prepareCommit() {
    if (part == null || handedOn) {
      return List.of(); // a checkpoint before the end of input: nothing is complete yet
    }
    handedOn = true;
    return List.of(part);
  }

  @Override
  public void close() {
    try {
      writer.close();
    } finally {
      // a leak after a clean end is a bug
      memory.close(part != null);
    }
  }
}
