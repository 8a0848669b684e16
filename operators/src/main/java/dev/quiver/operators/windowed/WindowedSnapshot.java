package dev.quiver.operators.windowed;

import dev.quiver.operators.StateStreams;
import dev.quiver.operators.kernel.BatchStreams;
import dev.quiver.operators.kernel.WindowBuffers;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of a {@link WindowedOperator}, written to a stream batch by batch:
 *
 * <pre>
 *   version                 1 byte: {@value #VERSION}
 *   watermark               int64, ms since the epoch (Long.MIN_VALUE: none yet)
 *   late rows               int64
 *   rows without a window   int64
 *   finished                1 byte: 1 once the input finished (everything was emitted)
 *   rows                    an Arrow IPC stream of the input schema (no length: its end-of-stream
 *                           marker ends it): the buffered batches of every open window, window
 *                           after window in order of end, each window's batches in the order they
 *                           are held ({@link BatchStreams}): as they came, or for a window top-N
 *                           the rows its last prune kept (sorted) and then the batches that came
 *                           after it; spilled ones first, read from their files, which stay as
 *                           they are
 * </pre>
 *
 * Every row carries its window end, so the stream needs no window boundaries: a restore splits the
 * batches by window end again, and each window gets back its batches in their order, so its inner
 * operator sees exactly what it would have. Neither the write nor the read holds more than a batch
 * of rows at once (and a 64 KiB buffer). A later format gets a new version; {@link #read} refuses
 * versions it does not know and reads version 1, one byte array with an int32 length before the
 * stream (savepoints of the operator before it wrote streams).
 */
final class WindowedSnapshot {
  static final byte VERSION = 2;
  private static final byte LENGTH_VERSION = 1; // an int32 length before the stream
  private static final BatchStreams.Names NAMES =
      new BatchStreams.Names("a per-window state", "rows", "an operator of rows");

  /** The scalar part of the state. */
  record Header(long watermark, long lateRows, long rowsWithoutWindow, boolean finished) {}

  private WindowedSnapshot() {}

  /** Writes to {@code out} the state of {@code header} and the rows of {@code windows}. */
  static void write(OutputStream out, Header header, Schema schema, WindowBuffers windows)
      throws IOException {
    DataOutputStream data = StateStreams.snapshotWriter(out);
    data.write(VERSION);
    data.writeLong(header.watermark());
    data.writeLong(header.lateRows());
    data.writeLong(header.rowsWithoutWindow());
    data.write(header.finished() ? 1 : 0);
    BatchStreams.write(data, schema, batches -> windows.forEachBatch(0, batches));
    data.flush();
  }

  /**
   * Reads a state from {@code in} to its end: passes each buffered batch to {@code batches}, which
   * takes ownership of it, and returns the header.
   *
   * @throws IllegalArgumentException if {@code in} is not a snapshot of this format or its rows are
   *     not of the schema's types (the snapshot of another operator)
   * @throws IOException if {@code in} fails
   */
  static Header read(
      InputStream in, Schema schema, BufferAllocator allocator, Consumer<VectorSchemaRoot> batches)
      throws IOException {
    int version = in.read();
    if (version != LENGTH_VERSION && version != VERSION) {
      throw new IllegalArgumentException(
          "not a per-window state of versions "
              + LENGTH_VERSION
              + " to "
              + VERSION
              + ": "
              + (version < 0 ? "empty" : "version " + version));
    }
    DataInputStream data = new DataInputStream(StateStreams.unclosable(in));
    try {
      long watermark = data.readLong();
      long late = data.readLong();
      long nulls = data.readLong();
      boolean finished = data.readByte() != 0;
      if (version == LENGTH_VERSION && data.readInt() < 0) { // the stream ends itself
        throw new IllegalArgumentException("a per-window state is truncated in its rows");
      }
      BatchStreams.read(data, schema, allocator, batches, NAMES);
      return new Header(watermark, late, nulls, finished);
    } catch (EOFException e) {
      throw new IllegalArgumentException("a per-window state is truncated", e);
    }
  }
}
