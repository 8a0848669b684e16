package dev.quiver.flink.file;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileVersion;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes {@link FileScanSplit}s for checkpoints and for the trip from the enumerator to the
 * readers. Version 1: task, index, path, format name, bytes, rows, rows read.
 */
public final class FileScanSplitSerializer implements SimpleVersionedSerializer<FileScanSplit> {
  public static final FileScanSplitSerializer INSTANCE = new FileScanSplitSerializer();

  // 2: the file's version (size, modification time) follows each split; 1 had none.
  private static final int VERSION = 2;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(FileScanSplit split) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(128);
    write(split, out);
    return out.getCopyOfBuffer();
  }

  @Override
  public FileScanSplit deserialize(int version, byte[] serialized) throws IOException {
    checkVersion(version);
    return read(new DataInputDeserializer(serialized), version);
  }

  /** Writes a list of splits (for the enumerator's checkpoint). */
  static byte[] serializeAll(List<FileScanSplit> splits) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64 + 128 * splits.size());
    out.writeInt(splits.size());
    for (FileScanSplit split : splits) {
      write(split, out);
    }
    return out.getCopyOfBuffer();
  }

  static List<FileScanSplit> deserializeAll(int version, byte[] serialized) throws IOException {
    checkVersion(version);
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    int count = in.readInt();
    List<FileScanSplit> splits = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      splits.add(read(in, version));
    }
    return splits;
  }

  private static void checkVersion(int version) throws IOException {
    if (version != 1 && version != VERSION) {
      throw new IOException(
          "unknown file scan split version " + version + " (expected 1 or " + VERSION + ")");
    }
  }

  private static void write(FileScanSplit split, DataOutputView out) throws IOException {
    out.writeInt(split.task());
    out.writeInt(split.index());
    // writeUTF is limited to 64 KiB; paths are written as length-prefixed UTF-8 instead.
    byte[] path = split.file().path().getBytes(UTF_8);
    out.writeInt(path.length);
    out.write(path);
    out.writeUTF(split.file().format().name());
    out.writeLong(split.file().bytes());
    out.writeLong(split.file().rows());
    out.writeLong(split.rowsRead());
    out.writeLong(split.file().version().size());
    out.writeLong(split.file().version().modifiedMicros());
  }

  private static FileScanSplit read(DataInputView in, int version) throws IOException {
    int task = in.readInt();
    int index = in.readInt();
    byte[] path = new byte[in.readInt()];
    in.readFully(path);
    FileFormat format = FileFormat.valueOf(in.readUTF());
    long bytes = in.readLong();
    long rows = in.readLong();
    long rowsRead = in.readLong();
    FileVersion fileVersion =
        version == 1 ? FileVersion.UNKNOWN : new FileVersion(in.readLong(), in.readLong());
    FileSplit file = new FileSplit(new String(path, UTF_8), format, bytes, rows, fileVersion);
    return new FileScanSplit(task, index, file, rowsRead);
  }
}
