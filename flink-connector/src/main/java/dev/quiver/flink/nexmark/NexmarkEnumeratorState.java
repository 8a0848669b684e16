package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The checkpointed state of a {@link NexmarkEnumerator}: whether it has made its splits, and those
 * not yet assigned to a reader (assigned ones are in their readers' state).
 *
 * @param created whether the splits have been made (at the first reader's registration)
 * @param pending splits not yet assigned
 */
public record NexmarkEnumeratorState(boolean created, List<NexmarkSplit> pending) {
  public NexmarkEnumeratorState {
    pending = List.copyOf(requireNonNull(pending, "pending is null"));
  }

  /** Version 1: created, then the pending splits in split format 1. */
  public static final class Serializer
      implements SimpleVersionedSerializer<NexmarkEnumeratorState> {
    public static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(NexmarkEnumeratorState state) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(8 + 32 * state.pending().size());
      out.writeBoolean(state.created());
      NexmarkSplit.Serializer.writeAll(state.pending(), out);
      return out.getCopyOfBuffer();
    }

    @Override
    public NexmarkEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
      NexmarkSplit.Serializer.check(version);
      DataInputDeserializer in = new DataInputDeserializer(serialized);
      boolean created = in.readBoolean();
      return new NexmarkEnumeratorState(created, NexmarkSplit.Serializer.readAll(in));
    }
  }
}
