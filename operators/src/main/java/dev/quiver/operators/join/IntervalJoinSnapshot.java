package dev.quiver.operators.join;

import dev.quiver.operators.memory.BatchTransfer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.BitSet;
import java.util.function.Consumer;
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
 * The checkpointed state of an {@link IntervalJoinOperator}, one byte array:
 *
 * <pre>
 *   version                       1 byte: {@value #VERSION}
 *   watermark                     int64, ms since the epoch (Long.MIN_VALUE: none yet)
 *   late build rows, late probe rows, build rows without time, probe rows without time: 4 × int64
 *   finished inputs               1 byte: bit 0 build, bit 1 probe
 *   build rows                    int64 length, then an Arrow IPC stream of the build rows not
 *                                 joined yet, in arrival order
 *   probe rows                    int64 length, then an Arrow IPC stream of the probe rows held
 *   matched probe rows            int32 batches, then per held probe batch in order: int32 words,
 *                                 that many int64 words of its matched bits (LEFT / FULL joins;
 *                                 no words when none matched)
 * </pre>
 *
 * A restore admits the rows again as they were (no lateness check: they were on time when they
 * came), so the restored operator joins and evicts them at the same watermarks, and pads the same
 * unmatched probe rows. A later format gets a new version; {@link #read} refuses versions it does
 * not know and reads version 1 (before outer joins: no matched bits) as nothing matched.
 */
final class IntervalJoinSnapshot {
  static final byte VERSION = 2;
  private static final int HEADER_BYTES = 1 + 5 * Long.BYTES + 1;

  /** What the operator keeps beyond its buffers. */
  record Header(long watermark, boolean buildFinished, boolean probeFinished) {}

  private IntervalJoinSnapshot() {}

  /** The state of {@code header} and of both buffers: their counters and pending rows. */
  static byte[] write(
      Header header,
      Schema buildSchema,
      IntervalJoinBuffer build,
      Schema probeSchema,
      IntervalJoinBuffer probe) {
    ByteBuffer scalars = ByteBuffer.allocate(HEADER_BYTES);
    scalars.put(VERSION).putLong(header.watermark());
    scalars.putLong(build.late()).putLong(probe.late());
    scalars.putLong(build.withoutTime()).putLong(probe.withoutTime());
    scalars.put((byte) ((header.buildFinished() ? 1 : 0) | (header.probeFinished() ? 2 : 0)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(scalars.array(), 0, HEADER_BYTES);
    stream(bytes, buildSchema, build);
    stream(bytes, probeSchema, probe);
    ByteArrayOutputStream marks = new ByteArrayOutputStream();
    marks.write(ByteBuffer.allocate(Integer.BYTES).putInt(probe.held().size()).array(), 0, 4);
    for (IntervalJoinBuffer.Held held : probe.held()) {
      long[] words = held.matched.toLongArray();
      ByteBuffer buffer = ByteBuffer.allocate(Integer.BYTES + words.length * Long.BYTES);
      buffer.putInt(words.length);
      for (long word : words) {
        buffer.putLong(word);
      }
      marks.write(buffer.array(), 0, buffer.capacity());
    }
    bytes.write(marks.toByteArray(), 0, marks.size());
    return bytes.toByteArray();
  }

  private static void stream(ByteArrayOutputStream out, Schema schema, IntervalJoinBuffer rows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WriteChannel channel = new WriteChannel(Channels.newChannel(bytes));
    try {
      MessageSerializer.serialize(channel, schema);
      rows.forEachPending(batch -> append(channel, batch));
      ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    out.write(ByteBuffer.allocate(Long.BYTES).putLong(bytes.size()).array(), 0, Long.BYTES);
    out.write(bytes.toByteArray(), 0, bytes.size());
  }

  private static void append(WriteChannel channel, VectorSchemaRoot batch) {
    try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
      MessageSerializer.serialize(channel, record);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Restores {@code state} into the empty buffers {@code build} and {@code probe} (their rows are
   * admitted again, not checked for lateness: they were on time when they came) and returns the
   * header.
   *
   * @throws IllegalArgumentException if {@code state} is not a snapshot of this format or its rows
   *     are not of the schemas' types (the snapshot of another join)
   */
  static Header read(
      byte[] state,
      Schema buildSchema,
      IntervalJoinBuffer build,
      Schema probeSchema,
      IntervalJoinBuffer probe,
      BufferAllocator allocator) {
    if (state.length < HEADER_BYTES || (state[0] != VERSION && state[0] != 1)) {
      throw new IllegalArgumentException(
          "not an interval join state of version "
              + VERSION
              + ": "
              + (state.length == 0 ? "empty" : "version " + state[0] + ", " + state.length)
              + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(state, 1, state.length - 1);
    long watermark = in.getLong();
    long lateBuild = in.getLong();
    long lateProbe = in.getLong();
    long buildWithoutTime = in.getLong();
    long probeWithoutTime = in.getLong();
    byte finished = in.get();
    read(state, in, buildSchema, allocator, rows -> build.admit(rows, Long.MIN_VALUE));
    read(state, in, probeSchema, allocator, rows -> probe.admit(rows, Long.MIN_VALUE));
    if (state[0] >= 2) {
      readMarks(in, probe);
    }
    build.counters(lateBuild, buildWithoutTime);
    probe.counters(lateProbe, probeWithoutTime);
    return new Header(watermark, (finished & 1) != 0, (finished & 2) != 0);
  }

  /** Sets the matched bits of the restored probe batches, which are the snapshot's, in order. */
  private static void readMarks(ByteBuffer in, IntervalJoinBuffer probe) {
    try {
      int batches = in.getInt();
      if (batches != probe.held().size()) {
        throw new IllegalArgumentException(
            "an interval join state is corrupt: matched bits of "
                + batches
                + " probe batches for "
                + probe.held().size());
      }
      for (IntervalJoinBuffer.Held held : probe.held()) {
        int count = in.getInt();
        if (count < 0 || count > in.remaining() / Long.BYTES) {
          throw new IllegalArgumentException("an interval join state is truncated");
        }
        long[] words = new long[count];
        for (int i = 0; i < count; i++) {
          words[i] = in.getLong();
        }
        held.matched.or(BitSet.valueOf(words));
      }
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("an interval join state is truncated", e);
    }
  }

  private static void read(
      byte[] state,
      ByteBuffer in,
      Schema schema,
      BufferAllocator allocator,
      Consumer<VectorSchemaRoot> batches) {
    if (in.remaining() < Long.BYTES) {
      throw new IllegalArgumentException("an interval join state is truncated");
    }
    long length = in.getLong();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("an interval join state is truncated");
    }
    ByteArrayInputStream bytes = new ByteArrayInputStream(state, in.position(), (int) length);
    in.position(in.position() + (int) length);
    try (ArrowStreamReader reader = new ArrowStreamReader(bytes, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      if (!BatchTransfer.sameTypes(root, schema)) {
        throw new IllegalArgumentException(
            "an interval join state of rows "
                + root.getSchema()
                + " cannot restore a join of rows "
                + schema);
      }
      while (reader.loadNextBatch()) {
        batches.accept(BatchTransfer.withSchema(BatchTransfer.move(root, allocator), schema));
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("an interval join state is corrupt: " + e, e);
    }
  }
}
