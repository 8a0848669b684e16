package dev.quiver.operators.aggregate;

import dev.quiver.operators.kernel.BatchStreams;
import dev.quiver.plan.aggregate.AggregateCall;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The checkpointed state of an {@link UpdatingAggregateOperator} (FINAL, SINGLE), one byte array:
 *
 * <pre>
 *   version   1 byte: {@value #VERSION}
 *   flags     1 byte: bit 0 set once a global aggregate has written its row (0 with group keys)
 *   groups    {@link BatchStreams}: an int32 length, then an Arrow IPC stream of the group keys
 *             and the partial states of every call (the columns a PARTIAL aggregate emits), in
 *             group id order, then the groups that left memory ({@link ColdGroups}), batches of at
 *             most the target batch size; a group appears once
 * </pre>
 *
 * A restore merges the states into empty groups as a FINAL aggregate merges its input: every
 * accumulator comes back as it was, and every restored group counts as written (its next change is
 * -U/+U). A later format gets a new version; {@link #read} refuses versions it does not know.
 */
final class UpdatingSnapshot {
  static final byte VERSION = 1;
  private static final int GLOBAL_WRITTEN = 1;
  private static final BatchStreams.Names NAMES =
      new BatchStreams.Names("an updating aggregate state", "groups", "an aggregate of groups");

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
   * The state: the flag, and every group of {@code groups} (none if null) as keys and partial
   * states of {@code schema}, in batches of {@code target} groups, then the batches {@code cold}
   * (if not null) passes on: the groups that left memory, in the same schema.
   */
  static byte[] write(
      boolean globalWritten,
      Schema schema,
      GroupStates groups,
      Consumer<Consumer<VectorSchemaRoot>> cold,
      int target,
      BufferAllocator allocator) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write(VERSION);
    bytes.write(globalWritten ? GLOBAL_WRITTEN : 0);
    BatchStreams.write(
        bytes,
        schema,
        out -> {
          writeGroups(schema, groups, target, allocator, out);
          if (cold != null) {
            cold.accept(
                batch -> {
                  try (batch) {
                    out.accept(batch);
                  }
                });
          }
        });
    return bytes.toByteArray();
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
   * Reads {@code state}: passes each batch of groups, in {@code allocator}, to {@code groups},
   * which takes it; returns whether a global aggregate had written its row.
   *
   * @throws IllegalArgumentException if {@code state} is not a state of this format or its groups
   *     are not of {@code schema}'s types (the state of another aggregate)
   */
  static boolean read(
      byte[] state, Schema schema, BufferAllocator allocator, Consumer<VectorSchemaRoot> groups) {
    if (state.length < 2 || state[0] != VERSION) {
      throw new IllegalArgumentException(
          "not an updating aggregate state of version "
              + VERSION
              + ": "
              + (state.length == 0 ? "empty" : "version " + state[0] + ", " + state.length)
              + " bytes");
    }
    ByteBuffer in = ByteBuffer.wrap(state, 2, state.length - 2);
    BatchStreams.read(in, schema, allocator, groups, NAMES);
    if (in.hasRemaining()) {
      throw new IllegalArgumentException(
          "an updating aggregate state has " + in.remaining() + " bytes after its groups");
    }
    return (state[1] & GLOBAL_WRITTEN) != 0;
  }
}
