package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import dev.quiver.nexmark.EventSplit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * One task's share of a Nexmark stream ({@link EventSplit}) and how far it has been generated: the
 * next event number to look at. Generation is deterministic per event number, so a split restored
 * from a checkpoint continues with exactly the events not yet emitted.
 *
 * @param events the share
 * @param position the next event number to look at ({@code >= events.events()}: done)
 */
public record NexmarkSplit(EventSplit events, long position) implements SourceSplit {
  public NexmarkSplit {
    requireNonNull(events, "events is null");
    if (position < 0) {
      throw new IllegalArgumentException("position must be >= 0: " + position);
    }
  }

  /** The split of task {@code task} of {@code tasks}, not started. */
  public static NexmarkSplit of(long events, int task, int tasks, int blockEvents) {
    return new NexmarkSplit(new EventSplit(events, task, tasks, blockEvents), 0);
  }

  public NexmarkSplit at(long newPosition) {
    return new NexmarkSplit(events, newPosition);
  }

  @Override
  public String splitId() {
    return "nexmark-" + events.task() + "-of-" + events.tasks();
  }

  /** Version 1: events, task, tasks, block events, position. */
  public static final class Serializer implements SimpleVersionedSerializer<NexmarkSplit> {
    public static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(NexmarkSplit split) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(32);
      write(split, out);
      return out.getCopyOfBuffer();
    }

    @Override
    public NexmarkSplit deserialize(int version, byte[] serialized) throws IOException {
      check(version);
      return read(new DataInputDeserializer(serialized));
    }

    static void check(int version) throws IOException {
      if (version != 1) {
        throw new IOException("unknown Nexmark split format version " + version);
      }
    }

    static void write(NexmarkSplit split, DataOutputView out) throws IOException {
      EventSplit events = split.events();
      out.writeLong(events.events());
      out.writeInt(events.task());
      out.writeInt(events.tasks());
      out.writeInt(events.blockEvents());
      out.writeLong(split.position());
    }

    static NexmarkSplit read(DataInputView in) throws IOException {
      long events = in.readLong();
      int task = in.readInt();
      int tasks = in.readInt();
      int block = in.readInt();
      return new NexmarkSplit(new EventSplit(events, task, tasks, block), in.readLong());
    }

    static void writeAll(List<NexmarkSplit> splits, DataOutputView out) throws IOException {
      out.writeInt(splits.size());
      for (NexmarkSplit split : splits) {
        write(split, out);
      }
    }

    static List<NexmarkSplit> readAll(DataInputView in) throws IOException {
      int count = in.readInt();
      List<NexmarkSplit> splits = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        splits.add(read(in));
      }
      return splits;
    }
  }
}
