package dev.quiver.operators.kernel;

import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.operators.spill.SpillWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The rows of one side of one window that {@link WindowBuffers} moved to disk: spill files in the
 * order they were written, read back one batch at a time and each file closed (deleted) as soon as
 * it is read.
 *
 * <pre>
 *   spill ─► [file 1] [file 2] ... ─► next(): file 1's batches, file 1 deleted, file 2's, ...
 *                                 └► forEach (a snapshot): every file reread, all of them kept
 * </pre>
 *
 * Not thread-safe.
 */
final class SpilledRows implements AutoCloseable {
  static final String PURPOSE = "window-rows";

  private final ArrayDeque<SpillFile> files = new ArrayDeque<>();
  private Schema schema; // of the first batch spilled: every file's
  private SpillReader reader; // of the first file, once reading began
  private long rows;

  /** Whether no spilled rows are left. */
  boolean isEmpty() {
    return files.isEmpty();
  }

  /** Spilled rows not read back yet. */
  long rows() {
    return rows;
  }

  /** Files held. */
  int files() {
    return files.size();
  }

  /**
   * Writes {@code batches} (the caller keeps them) to a new file after the ones held. A write that
   * fails deletes its file and leaves the rows held as they were.
   */
  void spill(SpillSpace space, Collection<VectorSchemaRoot> batches) {
    if (batches.isEmpty()) {
      return;
    }
    if (schema == null) {
      schema = batches.iterator().next().getSchema();
    }
    SpillFile file;
    try (SpillWriter writer = space.create(schema, PURPOSE)) {
      batches.forEach(writer::write);
      file = writer.finish();
    }
    files.add(file);
    rows += file.rows();
  }

  /**
   * The next spilled batch, in the order written, into {@code allocator} and the caller's; null
   * once every file is read (and deleted).
   */
  VectorSchemaRoot next(BufferAllocator allocator) {
    while (!files.isEmpty()) {
      if (reader == null) {
        reader = files.peek().open(allocator);
      }
      VectorSchemaRoot batch = reader.next();
      if (batch != null) {
        rows -= batch.getRowCount();
        return batch;
      }
      SpillReader done = reader;
      reader = null;
      SpillFile file = files.poll();
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(done, file)); // file deleted
    }
    return null;
  }

  /**
   * Passes every spilled batch, in the order written, to {@code out} (valid during the call), read
   * into {@code allocator} one at a time, and keeps them: each file is {@linkplain SpillFile#reread
   * reread}, not used up, so the rows stay spilled as they were. Only before {@link #next} began
   * reading.
   */
  void forEach(BufferAllocator allocator, Consumer<VectorSchemaRoot> out) {
    if (reader != null) {
      throw new IllegalStateException("spilled window rows are being read back");
    }
    for (SpillFile file : files) {
      file.rereadEach(allocator, out);
    }
  }

  /** Closes the reader and deletes every file. Idempotent. */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>();
    owned.add(reader);
    owned.addAll(files);
    reader = null;
    files.clear();
    rows = 0;
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
