package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * The committable of an {@link AppendFileSink} writer: one complete part file under its hidden
 * pending name, to be renamed to its visible name when the checkpoint that carries it completes.
 *
 * @param pending the absolute path of the complete, still hidden file
 * @param target the absolute path it is published at
 * @param rows the number of rows in it
 */
public record PendingFile(String pending, String target, long rows) {
  public PendingFile {
    requireNonNull(pending, "pending is null");
    requireNonNull(target, "target is null");
    if (rows < 0) {
      throw new IllegalArgumentException("negative rows " + rows);
    }
  }

  /** Version 1: pending and target (UTF), rows. */
  public static final class Serializer implements SimpleVersionedSerializer<PendingFile> {
    public static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(PendingFile file) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(128);
      out.writeUTF(file.pending());
      out.writeUTF(file.target());
      out.writeLong(file.rows());
      return out.getCopyOfBuffer();
    }

    @Override
    public PendingFile deserialize(int version, byte[] serialized) throws IOException {
      if (version != 1) {
        throw new IOException("unknown pending file version " + version + " (expected 1)");
      }
      DataInputDeserializer in = new DataInputDeserializer(serialized);
      return new PendingFile(in.readUTF(), in.readUTF(), in.readLong());
    }
  }
}
