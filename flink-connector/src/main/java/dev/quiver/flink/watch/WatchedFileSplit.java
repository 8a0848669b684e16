package dev.quiver.flink.watch;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileVersion;
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
 * One file of a watched directory as a Flink source split: the file as it was when it was found
 * (its version is checked when it is read) and how many of its rows have been emitted, so that a
 * reader restored from a checkpoint resumes after them.
 *
 * @param file the file
 * @param rowsRead rows already emitted
 */
public record WatchedFileSplit(FileSplit file, long rowsRead) implements SourceSplit {
  public WatchedFileSplit {
    requireNonNull(file, "file is null");
    if (rowsRead < 0) {
      throw new IllegalArgumentException("negative rowsRead: " + rowsRead);
    }
  }

  /** The file's path: a file is found once, so its path identifies it. */
  @Override
  public String splitId() {
    return file.path();
  }

  /** This split after {@code rows} more rows were emitted. */
  WatchedFileSplit advance(long rows) {
    return new WatchedFileSplit(file, rowsRead + rows);
  }

  /** Version 1: path (length-prefixed UTF-8), format, bytes, rows, size, modified, rows read. */
  public static final class Serializer implements SimpleVersionedSerializer<WatchedFileSplit> {
    public static final Serializer INSTANCE = new Serializer();

    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(WatchedFileSplit split) throws IOException {
      DataOutputSerializer out = new DataOutputSerializer(128);
      write(split, out);
      return out.getCopyOfBuffer();
    }

    @Override
    public WatchedFileSplit deserialize(int version, byte[] serialized) throws IOException {
      check(version);
      return read(new DataInputDeserializer(serialized));
    }

    static void check(int version) throws IOException {
      if (version != 1) {
        throw new IOException("unknown watched file split version " + version + " (expected 1)");
      }
    }

    static void write(WatchedFileSplit split, DataOutputView out) throws IOException {
      writeString(split.file().path(), out);
      out.writeUTF(split.file().format().name());
      out.writeLong(split.file().bytes());
      out.writeLong(split.file().rows());
      out.writeLong(split.file().version().size());
      out.writeLong(split.file().version().modifiedMicros());
      out.writeLong(split.rowsRead());
    }

    static WatchedFileSplit read(DataInputView in) throws IOException {
      String path = readString(in);
      FileFormat format = FileFormat.valueOf(in.readUTF());
      long bytes = in.readLong();
      long rows = in.readLong();
      FileVersion version = new FileVersion(in.readLong(), in.readLong());
      return new WatchedFileSplit(new FileSplit(path, format, bytes, rows, version), in.readLong());
    }

    static void writeAll(List<WatchedFileSplit> splits, DataOutputView out) throws IOException {
      out.writeInt(splits.size());
      for (WatchedFileSplit split : splits) {
        write(split, out);
      }
    }

    static List<WatchedFileSplit> readAll(DataInputView in) throws IOException {
      int count = in.readInt();
      List<WatchedFileSplit> splits = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        splits.add(read(in));
      }
      return splits;
    }

    // writeUTF is limited to 64 KiB; paths are written as length-prefixed UTF-8 instead.
    static void writeString(String value, DataOutputView out) throws IOException {
      byte[] bytes = value.getBytes(UTF_8);
      out.writeInt(bytes.length);
      out.write(bytes);
    }

    static String readString(DataInputView in) throws IOException {
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      return new String(bytes, UTF_8);
    }
  }
}
