package dev.quiver.operators.exec;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One operator's state inside a task's state stream ({@link
 * TaskPipeline#snapshotState(OutputStream)}) whose length is not known before it is written:
 * chunks, each an int32 length (1 or more) and that many bytes, then an int32 0.
 *
 * <pre>
 *   │ 65536 │ 64 KiB of state │ 65536 │ ... │ 812 │ 812 bytes │ 0 │
 * </pre>
 *
 * The writer holds one chunk ({@value #CHUNK_BYTES} bytes) and passes a larger write through as a
 * chunk of its own; the reader gives the operator a stream that ends where its state ends, so an
 * operator reads its state to its end and never into the next one's.
 */
final class StateFrames {
  static final int CHUNK_BYTES = 64 << 10;

  private StateFrames() {}

  /** Frames what is written to it as chunks on {@code out}; {@link #finish} writes the end. */
  static final class Writer extends OutputStream {
    private final DataOutputStream out;
    private final byte[] chunk = new byte[CHUNK_BYTES];
    private int size;
    private long written;

    Writer(DataOutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      if (size == chunk.length) {
        flushChunk();
      }
      chunk[size++] = (byte) b;
      written++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (len <= chunk.length - size) {
        System.arraycopy(b, off, chunk, size, len);
        size += len;
      } else {
        flushChunk();
        if (len < chunk.length) {
          System.arraycopy(b, off, chunk, 0, len);
          size = len;
        } else {
          out.writeInt(len);
          out.write(b, off, len);
        }
      }
      written += len;
    }

    private void flushChunk() throws IOException {
      if (size > 0) {
        out.writeInt(size);
        out.write(chunk, 0, size);
        size = 0;
      }
    }

    /** Writes the last chunk and the end; returns the bytes of the state. */
    long finish() throws IOException {
      flushChunk();
      out.writeInt(0);
      return written;
    }

    /** Does not close {@code out}: the task's stream goes on. */
    @Override
    public void close() {}
  }

  /** The state of one operator, read from {@code in}: ends where its last chunk ends. */
  static final class Reader extends InputStream {
    private final DataInputStream in;
    private int remaining; // in the current chunk
    private boolean ended;

    Reader(DataInputStream in) {
      this.in = in;
    }

    private boolean next() throws IOException {
      while (remaining == 0 && !ended) {
        int length = in.readInt();
        if (length < 0) {
          throw new IOException("a task state is corrupt: a chunk of " + length + " bytes");
        }
        remaining = length;
        ended = length == 0;
      }
      return !ended;
    }

    @Override
    public int read() throws IOException {
      if (!next()) {
        return -1;
      }
      int b = in.read();
      if (b < 0) {
        throw new EOFException("a task state is truncated");
      }
      remaining--;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (!next()) {
        return -1;
      }
      int n = in.read(b, off, Math.min(len, remaining));
      if (n < 0) {
        throw new EOFException("a task state is truncated");
      }
      remaining -= n;
      return n;
    }

    @Override
    public int available() {
      return ended ? 0 : remaining;
    }

    /** Reads past what is left of this state; returns how many bytes that was. */
    long drain() throws IOException {
      long skipped = 0;
      while (next()) {
        in.skipNBytes(remaining);
        skipped += remaining;
        remaining = 0;
      }
      return skipped;
    }

    /** Does not close the task's stream. */
    @Override
    public void close() {}
  }
}
