package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.plan.aggregate.AggregateCall;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of a {@link WindowAggregateOperator}, one byte array:
 *
 * <pre>
 *   version                 1 byte: {@value #VERSION}
 *   watermark               int64, ms since the epoch (Long.MIN_VALUE: none yet)
 *   late rows               int64
 *   rows without a window   int64
 *   groups                  Arrow IPC stream: group keys, then the partial states of every call
 *                           (the columns a PARTIAL aggregate emits); the groups of every open
 *                           window, window after window in order of end: each window's groups in
 *                           memory in the order they were made, then those of its spilled runs
 * </pre>
 *
 * The window end is one of the keys, so one stream holds every window. Version 2 (spilling windows)
 * may hold a group more than once, in memory and in one or more runs; version 1 held each once and
 * is read as well (the layout is the same). A restore merges the states into empty groups as a
 * FINAL aggregate merges its input, repeated groups included, spilling again when the budget
 * refuses: every accumulator state comes back as it was, so the restored operator emits the rows
 * the snapshotted one would have, at the same watermarks.
 *
 * <p>The snapshot is one byte array: the spilled groups are read from disk batch by batch, but the
 * whole snapshot is still held on the heap, spilled windows included. Writing it to Flink's
 * checkpoint streams instead is the next step. Only the order of the groups within a window may
 * differ: the key table numbers the new keys of one batch in the order its vectorized probe settles
 * them, not in row order (the order of an aggregate's output is not part of its result, as in
 * Flink, whose timers fire in heap order). A later format gets a new version; {@link #read} refuses
 * versions it does not know.
 */
final class WindowSnapshot {
  static final byte VERSION = 2;
  private static final byte FIRST_VERSION = 1; // no repeated groups: read as version 2
  private static final int HEADER_BYTES = 1 + 3 * Long.BYTES;

  /** The scalar part of the state. */
  record Header(long watermark, long lateRows, long rowsWithoutWindow) {}

  private WindowSnapshot() {}

  /**
   * The schema of the groups: {@code keys}, then the partial states of every call.
   *
   * @throws QuiverException UNSUPPORTED_FEATURE for a call without partial states (DISTINCT, MEDIAN
   *     and percentiles), which a window aggregate therefore cannot take
   */
  static Schema groupsSchema(List<Field> keys, List<AggregateCall> calls, String owner) {
    List<Field> fields = new ArrayList<>(keys);
    for (AggregateCall call : calls) {
      if (!call.hasPartialState()) {
        throw new QuiverException(
            ErrorCode.UNSUPPORTED_FEATURE,
            owner
                + ": "
                + call
                + " has no partial state, which a window aggregate keeps its windows in (for"
                + " checkpoints); plan DISTINCT as a two-level aggregate");
      }
      fields.addAll(AggregateCall.stateFields(call));
    }
    return new Schema(fields);
  }

  /** The state of {@code header} and the groups of {@code windows}, written as {@code schema}. */
  static byte[] write(Header header, Schema schema, OpenWindows windows) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ByteBuffer scalars = ByteBuffer.allocate(HEADER_BYTES);
    scalars.put(VERSION);
    scalars.putLong(header.watermark()).putLong(header.lateRows());
    scalars.putLong(header.rowsWithoutWindow());
    bytes.write(scalars.array(), 0, HEADER_BYTES);
    WriteChannel channel = new WriteChannel(Channels.newChannel(bytes));
    try {
      MessageSerializer.serialize(channel, schema);
      windows.writeStates(groups -> append(channel, groups));
      ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  private static void append(WriteChannel channel, VectorSchemaRoot groups) {
    try (ArrowRecordBatch record = new VectorUnloader(groups).getRecordBatch()) {
      MessageSerializer.serialize(channel, record);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads {@code state}: passes each batch of groups (valid during the call only) to {@code groups}
   * and returns the header.
   *
   * @throws IllegalArgumentException if {@code state} is not a snapshot of this format or its
   *     groups are not of {@code schema}'s types (the snapshot of another aggregate)
   */
  static Header read(
      byte[] state, Schema schema, BufferAllocator allocator, Consumer<VectorSchemaRoot> groups) {
    if (state.length < HEADER_BYTES || state[0] < FIRST_VERSION || state[0] > VERSION) {
      throw new IllegalArgumentException(
          "not a window aggregate state of versions "
              + FIRST_VERSION
              + " to "
              + VERSION
              + ": "
              + (state.length == 0 ? "empty" : "version " + state[0] + ", " + state.length)
              + " bytes");
    }
    ByteBuffer scalars = ByteBuffer.wrap(state, 1, HEADER_BYTES - 1);
    Header header = new Header(scalars.getLong(), scalars.getLong(), scalars.getLong());
    ByteArrayInputStream in =
        new ByteArrayInputStream(state, HEADER_BYTES, state.length - HEADER_BYTES);
    try (ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      if (!BatchTransfer.sameTypes(root, schema)) {
        throw new IllegalArgumentException(
            "a window aggregate state of groups "
                + root.getSchema()
                + " cannot restore an aggregate of groups "
                + schema);
      }
      while (reader.loadNextBatch()) {
        groups.accept(root);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("a window aggregate state is corrupt: " + e, e);
    }
    return header;
  }
}
