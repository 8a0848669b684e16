package dev.quiver.flink.watch;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The checkpointed state of a {@link WatchedDirectoryEnumerator}: every file path it has found
 * (handed out or not, so none is ever read twice) and the files found but not yet handed to a
 * reader. Files being read are in their readers' state.
 *
 * @param seen the paths of all files found so far
 * @param pending found files not yet assigned
 */
public record WatchedDirectoryState(List<String> seen, List<WatchedFileSplit> pending) {
  public WatchedDirectoryState {
    seen = List.copyOf(requireNonNull(seen, "seen is null"));
    pending = List.copyOf(requireNonNull(pending, "pending is null"));
  }

  /** Version 1: the seen paths (count, then each), then the pending splits in split format 1. */
  public static final class Serializer implements SimpleVersionedSerializer<WatchedDirectoryState> {
    public static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(WatchedDirectoryState state) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(64 + 96 * state.seen().size());
      out.writeInt(state.seen().size());
      for (String path : state.seen()) {
        WatchedFileSplit.Serializer.writeString(path, out);
      }
      WatchedFileSplit.Serializer.writeAll(state.pending(), out);
      return out.getCopyOfBuffer();
    }

    @Override
    public WatchedDirectoryState deserialize(int version, byte[] serialized) throws IOException {
      WatchedFileSplit.Serializer.check(version);
      DataInputDeserializer in = new DataInputDeserializer(serialized);
      int count = in.readInt();
      List<String> seen = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        seen.add(WatchedFileSplit.Serializer.readString(in));
      }
      return new WatchedDirectoryState(seen, WatchedFileSplit.Serializer.readAll(in));
    }
  }
}
