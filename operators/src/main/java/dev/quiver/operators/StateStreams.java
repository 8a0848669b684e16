package dev.quiver.operators;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * The byte-array forms of the stream snapshots ({@link Operator#snapshotState(OutputStream)},
 * {@link Operator#restoreState(InputStream)}), for the operators that write their state as a stream
 * and still answer {@link Operator#snapshotState()} (tests, and a savepoint written before the
 * streams, whose states are arrays), and streams that ignore {@code close()}: Arrow's IPC readers
 * and writers close what they are given, and a snapshot stream belongs to its caller.
 */
public final class StateStreams {
  private StateStreams() {}

  /** {@code operator}'s state as one array: its stream snapshot into memory. */
  public static byte[] toBytes(Operator operator) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      operator.snapshotState(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * Restores {@code operator} from {@code state}, an array {@link #toBytes} (or older code) made.
   */
  public static void fromBytes(Operator operator, byte[] state) {
    try {
      operator.restoreState(new ByteArrayInputStream(state));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
  }

  /** {@code in}, whose {@code close()} does nothing. */
  public static InputStream unclosable(InputStream in) {
    return new FilterInputStream(in) {
      @Override
      public void close() {}
    };
  }

  /** {@code out}, whose {@code close()} only flushes, and whose bulk writes are passed on whole. */
  public static OutputStream unclosable(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        out.flush();
      }
    };
  }

  /**
   * A snapshot's writer over {@code out}: buffered in 64 KiB (the size of a state frame), never
   * closing {@code out}. The caller flushes it when done.
   */
  public static DataOutputStream snapshotWriter(OutputStream out) {
    return new DataOutputStream(new BufferedOutputStream(unclosable(out), 1 << 16));
  }
}
