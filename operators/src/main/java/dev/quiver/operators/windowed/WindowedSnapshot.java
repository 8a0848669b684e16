package dev.quiver.operators.windowed;

import dev.quiver.operators.kernel.BatchStreams;
import dev.quiver.operators.kernel.WindowBuffers;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of a {@link WindowedOperator}, one byte array:
 *
 * <pre>
 *   version                 1 byte: {@value #VERSION}
 *   watermark               int64, ms since the epoch (Long.MIN_VALUE: none yet)
 *   late rows               int64
 *   rows without a window   int64
 *   finished                1 byte: 1 once the input finished (everything was emitted)
 *   rows                    int32 length, then an Arrow IPC stream of the input schema: the
 *                           buffered batches of every open window, window after window in order
 *                           of end, each window's batches in the order they are held ({@link
 *                           BatchStreams}): as they came, or for a window top-N the rows its last
 *                           prune kept (sorted) and then the batches that came after it; spilled
 *                           ones first, read back from their files and copied to new ones
 * </pre>
 *
 * Every row carries its window end, so the stream needs no window boundaries: a restore splits the
 * batches by window end again, and each window gets back its batches in their order, so its inner
 * operator sees exactly what it would have. A later format gets a new version; {@link #read}
 * refuses versions it does not know.
 */
final class WindowedSnapshot {
  static final byte VERSION = 1;
  private static final int HEADER_BYTES = 1 + 3 * Long.BYTES + 1;
  private static final BatchStreams.Names NAMES =
      new BatchStreams.Names("a per-window state", "rows", "an operator of rows");

  /** The scalar part of the state. */
  record Header(long watermark, long lateRows, long rowsWithoutWindow, boolean finished) {}

  private WindowedSnapshot() {}

  /** The state of {@code header} and the rows of {@code windows}. */
  static byte[] write(Header header, Schema schema, WindowBuffers windows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ByteBuffer scalars = ByteBuffer.allocate(HEADER_BYTES);
    scalars.put(VERSION);
    scalars.putLong(header.watermark()).putLong(header.lateRows());
    scalars.putLong(header.rowsWithoutWindow());
    scalars.put((byte) (header.finished() ? 1 : 0));
    bytes.write(scalars.array(), 0, HEADER_BYTES);
    BatchStreams.write(bytes, schema, out -> windows.forEachBatch(0, out));
    return bytes.toByteArray();
  }

  /**
   * Reads {@code state}: passes each buffered batch to {@code batches}, which takes ownership of
   * it, and returns the header.
   *
   * @throws IllegalArgumentException if {@code state} is not a snapshot of this format or its rows
   *     are not of the schema's types (the snapshot of another operator)
   */
  static Header read(
      byte[] state, Schema schema, BufferAllocator allocator, Consumer<VectorSchemaRoot> batches) {
    if (state.length < HEADER_BYTES || state[0] != VERSION) {
      throw new IllegalArgumentException(
          "not a per-window state of version "
              + VERSION
              + ": "
              + (state.length == 0 ? "empty" : "version " + state[0] + ", " + state.length)
              + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(state);
    in.position(1);
    long watermark = in.getLong();
    long late = in.getLong();
    long nulls = in.getLong();
    boolean finished = in.get() != 0;
    BatchStreams.read(in, schema, allocator, batches, NAMES);
    return new Header(watermark, late, nulls, finished);
  }
}
