package dev.quiver.operators.aggregate;

import dev.quiver.operators.StateStreams;
import dev.quiver.operators.kernel.BatchStreams;
import dev.quiver.plan.aggregate.AggregateCall;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of an {@link UpdatingAggregateOperator} (FINAL, SINGLE), written as a
 * stream ({@link #write}) and read back as one ({@link #read}):
 *
 * <pre>
 *   version   1 byte: {@value #VERSION}
 *   flags     1 byte: bit 0 set once a global aggregate has written its row (0 with group keys)
 *   groups    an Arrow IPC stream ({@link BatchStreams}, no length) of the group keys and the
 *             partial states of every call (the columns a PARTIAL aggregate emits) of the groups in
 *             memory, in group id order, batches of at most the target batch size
 *   cold      the groups that left memory ({@link ColdGroups}), the store's entries as it holds
 *             them: per entry int32 key length, key bytes, int32 value length, value bytes
 *             ({@link dev.quiver.operators.kernel.RowCodec} of the keys, of the states); then
 *             int32 -1
 * </pre>
 *
 * A group appears once. The cold entries go from the store's {@code forEach} to the stream as they
 * come, and a restore puts them back into the new task's store in chunks of at most {@value
 * #CHUNK_BYTES} bytes (or the target batch size of entries): however many groups left memory, the
 * snapshot path holds a batch of groups or a chunk of entries at a time, never the whole state.
 * Version 1 (every group, cold ones decoded, in one length-prefixed IPC stream) is still read.
 *
 * <p>A restore merges the in-memory groups' states into empty groups as a FINAL aggregate merges
 * its input: every accumulator comes back as it was, and every restored group counts as written
 * (its next change is -U/+U). A later format gets a new version; {@link #read} refuses versions it
 * does not know.
 */
final class UpdatingSnapshot {
  static final byte VERSION = 2;
  private static final byte FIRST_VERSION = 1;
  private static final int GLOBAL_WRITTEN = 1;
  private static final int END = -1;
  static final int CHUNK_BYTES = 4 << 20;
  private static final BatchStreams.Names NAMES =
      new BatchStreams.Names("an updating aggregate state", "groups", "an aggregate of groups");

  /** Takes a chunk of the snapshot's cold entries: {@code keys[i] -> values[i]}, {@code i < n}. */
  @FunctionalInterface
  interface ColdChunks {
    void accept(byte[][] keys, byte[][] values, int count);
  }

  private UpdatingSnapshot() {}

  /** The schema of the groups: {@code keys}, then the partial states of every call. */
  static Schema groupsSchema(List<Field> keys, List<AggregateCall> calls) {
    List<Field> fields = new ArrayList<>(keys);
    for (AggregateCall call : calls) {
      fields.addAll(AggregateCall.stateFields(call));
    }
    return new Schema(fields);
  }

  /**
   * Writes the state to {@code out}: the flag, every group of {@code groups} (none if null) as keys
   * and partial states of {@code schema} in batches of {@code target} groups, then every entry of
   * {@code cold} (none if null) as its store holds it.
   */
  static void write(
      OutputStream out,
      boolean globalWritten,
      Schema schema,
      GroupStates groups,
      ColdGroups cold,
      int target,
      BufferAllocator allocator)
      throws IOException {
    DataOutputStream data = StateStreams.snapshotWriter(out);
    data.write(VERSION);
    data.write(globalWritten ? GLOBAL_WRITTEN : 0);
    BatchStreams.write(
        data, schema, batches -> writeGroups(schema, groups, target, allocator, batches));
    if (cold != null) {
      cold.writeEntries(data);
    }
    data.writeInt(END);
    data.flush();
  }

  private static void writeGroups(
      Schema schema,
      GroupStates groups,
      int target,
      BufferAllocator allocator,
      Consumer<VectorSchemaRoot> out) {
    int count = groups == null ? 0 : groups.groupCount();
    for (int from = 0; from < count; from += target) {
      try (VectorSchemaRoot states =
          AggregateOutput.states(
              schema,
              groups.table(),
              groups.accumulators(),
              groups.layout().stateCounts,
              from,
              Math.min(target, count - from),
              allocator)) {
        out.accept(states);
      }
    }
  }

  /**
   * Reads a state from {@code in} to its end: passes each batch of in-memory groups, in {@code
   * allocator}, to {@code groups}, which takes it, then the cold entries in chunks of at most
   * {@code target} entries to {@code cold}; returns whether a global aggregate had written its row.
   * A version 1 state has its cold groups among the batches.
   *
   * @throws IllegalArgumentException if {@code in} is not a state of this format or its groups are
   *     not of {@code schema}'s types (the state of another aggregate)
   * @throws IOException if {@code in} fails
   */
  static boolean read(
      InputStream in,
      Schema schema,
      BufferAllocator allocator,
      int target,
      Consumer<VectorSchemaRoot> groups,
      ColdChunks cold)
      throws IOException {
    int version = in.read();
    int flags = in.read();
    if (flags < 0 || (version != VERSION && version != FIRST_VERSION)) {
      throw new IllegalArgumentException(
          "not an updating aggregate state of versions "
              + FIRST_VERSION
              + " to "
              + VERSION
              + ": "
              + (version < 0 ? "empty" : flags < 0 ? "1 byte" : "version " + version));
    }
    DataInputStream data = new DataInputStream(StateStreams.unclosable(in));
    try {
      if (version == FIRST_VERSION) {
        data.readInt(); // the groups' length: the stream ends itself
        BatchStreams.read(data, schema, allocator, groups, NAMES);
      } else {
        BatchStreams.read(data, schema, allocator, groups, NAMES);
        readEntries(data, Math.max(1, target), cold);
      }
    } catch (EOFException e) {
      throw new IllegalArgumentException("an updating aggregate state is truncated", e);
    }
    long after = data.transferTo(OutputStream.nullOutputStream());
    if (after > 0) {
      throw new IllegalArgumentException(
          "an updating aggregate state has " + after + " bytes after its groups");
    }
    return (flags & GLOBAL_WRITTEN) != 0;
  }

  private static void readEntries(DataInputStream in, int target, ColdChunks cold)
      throws IOException {
    byte[][] keys = new byte[target][];
    byte[][] values = new byte[target][];
    int count = 0;
    long bytes = 0;
    for (int length = in.readInt(); length != END; length = in.readInt()) {
      keys[count] = bytes(in, length);
      values[count] = bytes(in, in.readInt());
      bytes += keys[count].length + values[count].length;
      if (++count == target || bytes >= CHUNK_BYTES) {
        cold.accept(keys, values, count);
        Arrays.fill(keys, 0, count, null);
        Arrays.fill(values, 0, count, null);
        count = 0;
        bytes = 0;
      }
    }
    if (count > 0) {
      cold.accept(keys, values, count);
    }
  }

  private static byte[] bytes(DataInputStream in, int length) throws IOException {
    if (length < 0) {
      throw new IllegalArgumentException(
          "an updating aggregate state is corrupt: an entry of " + length + " bytes");
    }
    byte[] bytes = in.readNBytes(length);
    if (bytes.length != length) {
      throw new IllegalArgumentException("an updating aggregate state is truncated in its entries");
    }
    return bytes;
  }
}
