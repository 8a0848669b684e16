package dev.quiver.operators.join;

import dev.quiver.operators.memory.BatchTransfer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.function.ObjIntConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
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
 *                           order of end, each window's batches in the order they came
 *   probe rows              the same for the probe side
 * </pre>
 *
 * Every row carries its window end, so a stream needs no window boundaries: a restore splits the
 * batches by window end again, and each window gets back its batches in their order, so it joins
 * exactly as it would have. A later format gets a new version; {@link #read} refuses versions it
 * does not know. The streams are written with Arrow's IPC classes, as the window aggregate's
 * snapshot does: the {@code state} module's BatchBytes is out of reach (that module depends on this
 * one).
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
  static byte[] write(Header header, Schema build, Schema probe, JoinWindows windows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ByteBuffer scalars = ByteBuffer.allocate(HEADER_BYTES);
    scalars.put(VERSION);
    scalars.putLong(header.watermark()).putLong(header.lateRows());
    scalars.putLong(header.rowsWithoutWindow());
    scalars.put((byte) ((header.buildFinished() ? 1 : 0) | (header.probeFinished() ? 2 : 0)));
    bytes.write(scalars.array(), 0, HEADER_BYTES);
    writeSide(bytes, build, windows, 0);
    writeSide(bytes, probe, windows, 1);
    return bytes.toByteArray();
  }

  private static void writeSide(
      ByteArrayOutputStream out, Schema schema, JoinWindows windows, int side) {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    WriteChannel channel = new WriteChannel(Channels.newChannel(stream));
    try {
      MessageSerializer.serialize(channel, schema);
      windows.forEachBatch(side, batch -> append(channel, batch));
      ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    out.write(ByteBuffer.allocate(Integer.BYTES).putInt(stream.size()).array(), 0, Integer.BYTES);
    out.writeBytes(stream.toByteArray());
  }

  private static void append(WriteChannel channel, VectorSchemaRoot batch) {
    try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
      MessageSerializer.serialize(channel, record);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    readSide(in, state, build, 0, "build", allocator, batches);
    readSide(in, state, probe, 1, "probe", allocator, batches);
    return new Header(watermark, late, nulls, (finished & 1) != 0, (finished & 2) != 0);
  }

  private static void readSide(
      ByteBuffer in,
      byte[] state,
      Schema schema,
      int side,
      String name,
      BufferAllocator allocator,
      ObjIntConsumer<VectorSchemaRoot> batches) {
    if (in.remaining() < Integer.BYTES) {
      throw new IllegalArgumentException("a window join state is truncated before its " + name);
    }
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("a window join state is truncated in its " + name);
    }
    ByteArrayInputStream stream = new ByteArrayInputStream(state, in.position(), length);
    in.position(in.position() + length);
    try (ArrowStreamReader reader = new ArrowStreamReader(stream, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      if (!BatchTransfer.sameTypes(root, schema)) {
        throw new IllegalArgumentException(
            "a window join state of "
                + name
                + " rows "
                + root.getSchema()
                + " cannot restore a join of "
                + name
                + " rows "
                + schema);
      }
      while (reader.loadNextBatch()) {
        batches.accept(BatchTransfer.move(root, allocator), side);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("a window join state is corrupt: " + e, e);
    }
  }
}
