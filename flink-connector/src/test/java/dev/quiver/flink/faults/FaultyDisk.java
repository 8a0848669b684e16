package dev.quiver.flink.faults;

import dev.quiver.state.spill.SpillChannels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spill files on a disk that fills up: writes succeed until {@code free} bytes have been written
 * over all spill files of the JVM, then fail with "No space left on device" as a full disk does
 * (or, if {@code block}, wait until the writing thread is interrupted, like a hung disk). A
 * transient disk fails one write and has room again afterwards. Deterministic: the trigger is a
 * byte count, never a time.
 */
final class FaultyDisk implements SpillChannels {
  private final AtomicLong free;
  private final boolean transient_;
  private final boolean block;
  private final AtomicBoolean failed = new AtomicBoolean();
  final CountDownLatch reached = new CountDownLatch(1);

  private FaultyDisk(long free, boolean transientFault, boolean block) {
    this.free = new AtomicLong(free);
    this.transient_ = transientFault;
    this.block = block;
  }

  /** Full for good once {@code free} bytes are written. */
  static FaultyDisk full(long free) {
    return new FaultyDisk(free, false, false);
  }

  /** Full once, at byte {@code free}, then with room again (space another job freed). */
  static FaultyDisk fullOnce(long free) {
    return new FaultyDisk(free, true, false);
  }

  /** Hangs at byte {@code free} until the writing thread is interrupted. */
  static FaultyDisk hangs(long free) {
    return new FaultyDisk(free, false, true);
  }

  @Override
  public FileChannel create(Path file) throws IOException {
    return new Channel(SpillChannels.FILES.create(file));
  }

  private void take(int bytes) throws IOException {
    if (transient_ && failed.get()) {
      return;
    }
    if (free.addAndGet(-bytes) >= 0) {
      return;
    }
    reached.countDown();
    if (block) {
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClosedByInterruptException();
      }
    }
    failed.set(true);
    throw new IOException("No space left on device");
  }

  /** A file channel that asks the disk for room before each write. */
  private final class Channel extends FileChannel {
    private final FileChannel file;

    Channel(FileChannel file) {
      this.file = file;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      take(src.remaining());
      return file.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long bytes = 0;
      for (int i = offset; i < offset + length; i++) {
        bytes += srcs[i].remaining();
      }
      take((int) bytes);
      return file.write(srcs, offset, length);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      take(src.remaining());
      return file.write(src, position);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return file.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return file.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return file.read(dst, position);
    }

    @Override
    public long position() throws IOException {
      return file.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      file.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      file.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      file.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target)
        throws IOException {
      return file.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count)
        throws IOException {
      throw new IOException("not used by spill writers");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      return file.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return file.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return file.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      file.close();
    }
  }
}
