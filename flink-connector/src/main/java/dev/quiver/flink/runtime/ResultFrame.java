package dev.quiver.flink.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * One result record on its way from the job to the client, as the collect sink carries it: a header
 * that says which result task sent it, in which execution attempt, at which position, then (for
 * data) the batch's wire bytes.
 *
 * <pre>
 *   DATA: [kind=0][task int][attempt int][seq long][BatchSerializer bytes of the batch]
 *   END:  [kind=1][task int][attempt int][seq long = the number of DATA frames before it]
 * </pre>
 *
 * The header is what lets the client hand out each row exactly once when Flink restarts tasks
 * ({@link ResultCommits}).
 */
record ResultFrame(boolean end, int task, int attempt, long seq, byte[] bytes) {
  static final int HEADER_BYTES = 1 + 4 + 4 + 8;

  /** Writes a frame's header into {@code out}; a DATA frame's batch follows it. */
  static void writeHeader(DataOutputSerializer out, boolean end, int task, int attempt, long seq)
      throws IOException {
    out.writeByte(end ? 1 : 0);
    out.writeInt(task);
    out.writeInt(attempt);
    out.writeLong(seq);
  }

  /** The header of {@code bytes}; {@link #bytes()} keeps them whole. */
  static ResultFrame read(byte[] bytes) {
    DataInputDeserializer in = new DataInputDeserializer(bytes);
    try {
      byte kind = in.readByte();
      if (kind != 0 && kind != 1) {
        throw new IllegalStateException("not a result frame: kind " + kind);
      }
      return new ResultFrame(kind == 1, in.readInt(), in.readInt(), in.readLong(), bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("a result frame shorter than its header", e);
    }
  }

  /** A reader positioned at the batch of this DATA frame. */
  DataInputDeserializer batchInput() {
    return new DataInputDeserializer(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES);
  }
}
