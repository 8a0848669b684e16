package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The checkpointed state of a {@link FileScanEnumerator}: the splits it has not handed to their
 * task's reader yet (each split names its task, so the plan survives a restore unchanged).
 *
 * @param unassigned splits not yet given to a reader
 */
public record FileScanEnumeratorState(List<FileScanSplit> unassigned) {
  public FileScanEnumeratorState {
    unassigned = List.copyOf(requireNonNull(unassigned, "unassigned is null"));
  }

  /** Serializes the state; version 1 is a count followed by splits in split format 1. */
  public static final class Serializer
      implements SimpleVersionedSerializer<FileScanEnumeratorState> {
    public static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return FileScanSplitSerializer.INSTANCE.getVersion();
    }

    @Override
    public byte[] serialize(FileScanEnumeratorState state) throws IOException {
      return FileScanSplitSerializer.serializeAll(state.unassigned());
    }

    @Override
    public FileScanEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
      return new FileScanEnumeratorState(
          FileScanSplitSerializer.deserializeAll(version, serialized));
    }
  }
}
