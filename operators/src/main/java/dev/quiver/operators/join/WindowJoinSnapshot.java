package dev.quiver.operators.join;

import dev.quiver.operators.kernel.BatchStreams;
import dev.quiver.operators.kernel.WindowBuffers;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.function.ObjIntConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of a {@link WindowJoinOperator}, one byte array:
 *
 * <pre>
 *   version                 1 byte: {@value #VERSION}
 *   watermark               int64, ms since the epoch (Long.MIN_VALUE: none yet)
 *   late rows               int64
 *   rows without a window   int64
 *   finished inputs         1 byte: bit 0 build, bit 1 probe
 *   build rows              int32 length, then an Arrow IPC stream of the build schema: the
 *                           buffered build batches of every open window, window after window in
 *                           order of end, each window's batches in the order they came (spilled
 *                           ones first, read back from their files and copied to new ones)
 *   probe rows              the same for the probe side
 * </pre>
 *
 * Every row carries its window end, so a stream needs no window boundaries: a restore splits the
 * batches by window end again, and each window gets back its batches in their order, so it joins
 * exactly as it would have. A later format gets a new version; {@link #read} refuses versions it
 * does not know. The streams are {@link BatchStreams}.
 */
final class WindowJoinSnapshot {
  static final byte VERSION = 1;
  private static final int HEADER_BYTES = 1 + 3 * Long.BYTES + 1;

  /** The scalar part of the state. */
  record Header(
      long watermark,
      long lateRows,
      long rowsWithoutWindow,
      boolean buildFinished,
      boolean probeFinished) {}

  private WindowJoinSnapshot() {}

  /** The state of {@code header} and the rows of {@code windows}. */
  static byte[] write(Header header, Schema build, Schema probe, WindowBuffers windows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ByteBuffer scalars = ByteBuffer.allocate(HEADER_BYTES);
    scalars.put(VERSION);
    scalars.putLong(header.watermark()).putLong(header.lateRows());
    scalars.putLong(header.rowsWithoutWindow());
    scalars.put((byte) ((header.buildFinished() ? 1 : 0) | (header.probeFinished() ? 2 : 0)));
    bytes.write(scalars.array(), 0, HEADER_BYTES);
    BatchStreams.write(bytes, build, out -> windows.forEachBatch(0, out));
    BatchStreams.write(bytes, probe, out -> windows.forEachBatch(1, out));
    return bytes.toByteArray();
  }

  /**
   * Reads {@code state}: passes each buffered batch with its side (0 build, 1 probe) to {@code
   * batches}, which takes ownership of it, and returns the header.
   *
   * @throws IllegalArgumentException if {@code state} is not a snapshot of this format or its rows
   *     are not of the schemas' types (the snapshot of another join)
   */
  static Header read(
      byte[] state,
      Schema build,
      Schema probe,
      BufferAllocator allocator,
      ObjIntConsumer<VectorSchemaRoot> batches) {
    if (state.length < HEADER_BYTES || state[0] != VERSION) {
      throw new IllegalArgumentException(
          "not a window join state of version "
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
    byte finished = in.get();
    BatchStreams.read(in, build, allocator, batch -> batches.accept(batch, 0), names("build"));
    BatchStreams.read(in, probe, allocator, batch -> batches.accept(batch, 1), names("probe"));
    return new Header(watermark, late, nulls, (finished & 1) != 0, (finished & 2) != 0);
  }

  private static BatchStreams.Names names(String side) {
    return new BatchStreams.Names(
        "a window join state", side + " rows", "a join of " + side + " rows");
  }
}
