package dev.quiver.flink.file;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The committable of a {@link FileSink} writer: one complete part file in the job's staging
 * directory, waiting for the global commit.
 *
 * @param task the writer task that wrote it
 * @param tasks the number of writer tasks (the commit waits for a part of each)
 * @param path the absolute path of the staged part
 * @param rows the number of rows in it
 */
public record FilePart(int task, int tasks, String path, long rows) {
  public FilePart {
    requireNonNull(path, "path is null");
    if (task < 0 || task >= tasks || rows < 0) {
      throw new IllegalArgumentException("bad part " + task + "/" + tasks + ", rows " + rows);
    }
  }

  /** Version 1: task, tasks, path (length-prefixed UTF-8), rows. */
  public static final class Serializer implements SimpleVersionedSerializer<FilePart> {
    public static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(FilePart part) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(64);
      out.writeInt(part.task());
      out.writeInt(part.tasks());
      byte[] path = part.path().getBytes(UTF_8);
      out.writeInt(path.length);
      out.write(path);
      out.writeLong(part.rows());
      return out.getCopyOfBuffer();
    }

    @Override
    public FilePart deserialize(int version, byte[] serialized) throws IOException {
      if (version != 1) {
        throw new IOException("unknown file part version " + version + " (expected 1)");
      }
      DataInputDeserializer in = new DataInputDeserializer(serialized);
      int task = in.readInt();
      int tasks = in.readInt();
      byte[] path = new byte[in.readInt()];
      in.readFully(path);
      return new FilePart(task, tasks, new String(path, UTF_8), in.readLong());
    }
  }
}
