package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.kernel.BatchStreams;
import dev.quiver.plan.aggregate.AggregateCall;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of a {@link WindowAggregateOperator}, written to a stream batch by batch:
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
 * <p>The groups go to the stream as they come, spilled runs read back from disk batch by batch, so
 * the snapshot path holds one batch at a time however many windows are open (the stream layout is
 * the one the byte arrays of earlier releases had: they read as they are). Only the order of the
 * groups within a window may differ: the key table numbers the new keys of one batch in the order
 * its vectorized probe settles them, not in row order (the order of an aggregate's output is not
 * part of its result, as in Flink, whose timers fire in heap order). A later format gets a new
 * version; {@link #read} refuses versions it does not know.
 */
final class WindowSnapshot {
  static final byte VERSION = 2;
  private static final byte FIRST_VERSION = 1; // no repeated groups: read as version 2
  private static final int HEADER_BYTES = 1 + 3 * Long.BYTES;
  private static final BatchStreams.Names NAMES =
      new BatchStreams.Names("a window aggregate state", "groups", "an aggregate of groups");

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

  /**
   * Writes to {@code out} the state of {@code header} and the groups of {@code windows}, as {@code
   * schema}: each batch of groups as the windows pass it on (spilled runs read back batch by
   * batch).
   */
  static void write(OutputStream out, Header header, Schema schema, OpenWindows windows)
      throws IOException {
    ByteBuffer scalars = ByteBuffer.allocate(HEADER_BYTES);
    scalars.put(VERSION);
    scalars.putLong(header.watermark()).putLong(header.lateRows());
    scalars.putLong(header.rowsWithoutWindow());
    out.write(scalars.array(), 0, HEADER_BYTES);
    BatchStreams.write(out, schema, windows::writeStates);
  }

  /**
   * Reads a state from {@code in} to its end: passes each batch of groups (valid during the call
   * only) to {@code groups} and returns the header.
   *
   * @throws IllegalArgumentException if {@code in} is not a snapshot of this format or its groups
   *     are not of {@code schema}'s types (the snapshot of another aggregate)
   * @throws IOException if {@code in} fails
   */
  static Header read(
      InputStream in, Schema schema, BufferAllocator allocator, Consumer<VectorSchemaRoot> groups)
      throws IOException {
    byte[] scalars = in.readNBytes(HEADER_BYTES);
    if (scalars.length < HEADER_BYTES || scalars[0] < FIRST_VERSION || scalars[0] > VERSION) {
      throw new IllegalArgumentException(
          "not a window aggregate state of versions "
              + FIRST_VERSION
              + " to "
              + VERSION
              + ": "
              + (scalars.length == 0
                  ? "empty"
                  : "version " + scalars[0] + ", " + scalars.length + " bytes or more"));
    }
    ByteBuffer buffer = ByteBuffer.wrap(scalars, 1, HEADER_BYTES - 1);
    Header header = new Header(buffer.getLong(), buffer.getLong(), buffer.getLong());
    BatchStreams.readRoots(in, schema, allocator, groups, NAMES);
    return header;
  }
}
