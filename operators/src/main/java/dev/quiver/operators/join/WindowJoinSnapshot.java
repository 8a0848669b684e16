package dev.quiver.operators.join;

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
import java.util.function.ObjIntConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of a {@link WindowJoinOperator}, written to a stream batch by batch:
 *
 * <pre>
 *   version                 1 byte: {@value #VERSION}
 *   watermark               int64, ms since the epoch (Long.MIN_VALUE: none yet)
 *   late rows               int64
 *   rows without a window   int64
 *   finished inputs         1 byte: bit 0 build, bit 1 probe
 *   build rows              an Arrow IPC stream of the build schema (no length: its end-of-stream
 *                           marker ends it): the buffered build batches of every open window,
 *                           window after window in order of end, each window's batches in the
 *                           order they came (spilled ones first, read from their files, which
 *                           stay as they are)
 *   probe rows              the same for the probe side
 * </pre>
 *
 * Every row carries its window end, so a stream needs no window boundaries: a restore splits the
 * batches by window end again, and each window gets back its batches in their order, so it joins
 * exactly as it would have. Neither the write nor the read holds more than a batch of rows at once
 * (and a 64 KiB buffer). A later format gets a new version; {@link #read} refuses versions it does
 * not know and reads version 1, one byte array with an int32 length before each stream (savepoints
 * of the operator before it wrote streams). The streams are {@link BatchStreams}.
 */
final class WindowJoinSnapshot {
  static final byte VERSION = 2;
  private static final byte LENGTHS_VERSION = 1; // an int32 length before each stream

  /** The scalar part of the state. */
  record Header(
      long watermark,
      long lateRows,
      long rowsWithoutWindow,
      boolean buildFinished,
      boolean probeFinished) {}

  private WindowJoinSnapshot() {}

  /** Writes to {@code out} the state of {@code header} and the rows of {@code windows}. */
  static void write(
      OutputStream out, Header header, Schema build, Schema probe, WindowBuffers windows)
      throws IOException {
    DataOutputStream data = StateStreams.snapshotWriter(out);
    data.write(VERSION);
    data.writeLong(header.watermark());
    data.writeLong(header.lateRows());
    data.writeLong(header.rowsWithoutWindow());
    data.write((header.buildFinished() ? 1 : 0) | (header.probeFinished() ? 2 : 0));
    BatchStreams.write(data, build, batches -> windows.forEachBatch(0, batches));
    BatchStreams.write(data, probe, batches -> windows.forEachBatch(1, batches));
    data.flush();
  }

  /**
   * Reads a state from {@code in} to its end: passes each buffered batch with its side (0 build, 1
   * probe) to {@code batches}, which takes ownership of it, and returns the header.
   *
   * @throws IllegalArgumentException if {@code in} is not a snapshot of this format or its rows are
   *     not of the schemas' types (the snapshot of another join)
   * @throws IOException if {@code in} fails
   */
  static Header read(
      InputStream in,
      Schema build,
      Schema probe,
      BufferAllocator allocator,
      ObjIntConsumer<VectorSchemaRoot> batches)
      throws IOException {
    int version = in.read();
    if (version != LENGTHS_VERSION && version != VERSION) {
      throw new IllegalArgumentException(
          "not a window join state of versions "
              + LENGTHS_VERSION
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
      byte finished = data.readByte();
      readRows(data, version, build, allocator, batch -> batches.accept(batch, 0), "build");
      readRows(data, version, probe, allocator, batch -> batches.accept(batch, 1), "probe");
      return new Header(watermark, late, nulls, (finished & 1) != 0, (finished & 2) != 0);
    } catch (EOFException e) {
      throw new IllegalArgumentException("a window join state is truncated", e);
    }
  }

  private static void readRows(
      DataInputStream in,
      int version,
      Schema schema,
      BufferAllocator allocator,
      Consumer<VectorSchemaRoot> batches,
      String side)
      throws IOException {
    if (version == LENGTHS_VERSION && in.readInt() < 0) { // the stream ends itself
      throw new IllegalArgumentException(
          "a window join state is truncated in its " + side + " rows");
    }
    BatchStreams.read(in, schema, allocator, batches, names(side));
  }

  private static BatchStreams.Names names(String side) {
    return new BatchStreams.Names(
        "a window join state", side + " rows", "a join of " + side + " rows");
  }
}
