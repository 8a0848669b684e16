package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes batches pushed one at a time to one file, atomically (see {@link FileWriters}): the file
 * appears under its name only after {@link #commit()}; {@link #close()} without a commit, or any
 * failure, leaves nothing behind.
 *
 * <p>Arrow's dataset writer pulls its input, so it runs on a thread of this writer and takes the
 * batches from a small queue; {@link #write} blocks while the queue is full, which bounds the
 * memory in flight to a few batches. Not thread-safe: one producer calls {@code write}, {@code
 * commit} and {@code close}.
 */
public final class BatchFileWriter implements AutoCloseable {
  private static final VectorSchemaRoot END = new VectorSchemaRoot(List.of(), List.of(), 0);
  private static final int QUEUE_BATCHES = 2;

  private final Path target;
  private final Schema schema;
  private final BufferAllocator allocator;
  private final BlockingQueue<VectorSchemaRoot> queue = new ArrayBlockingQueue<>(QUEUE_BATCHES);
  private final Thread thread;

  /** How long {@link #close} waits for the writing thread, interrupted or not. */
  static final long CLOSE_WAIT_MILLIS = 10_000;

  private static final Logger LOG = LoggerFactory.getLogger(BatchFileWriter.class);

  /** How long the writing thread waits for a batch before it looks at {@link #abandoned}. */
  private static final long POLL_MILLIS = 100;

  private volatile RuntimeException failure;
  private volatile boolean abandoned;
  private volatile boolean renamed; // the thread wrote the file and renamed it to the target
  private volatile long rows;
  // The producer's side, touched only by the thread calling write, commit and close.
  private boolean endQueued;
  private boolean committed;
  private boolean closed;

  private BatchFileWriter(
      Path target, FileFormat format, Schema schema, BufferAllocator allocator) {
    this.target = target;
    this.schema = schema;
    this.allocator = allocator;
    QueueReader reader = new QueueReader(allocator);
    this.thread =
        new Thread(
            () -> {
              try {
                rows = FileWriters.write(reader, format, target, allocator);
                renamed = true;
                if (abandoned) {
                  FileWriters.deleteRecursively(target);
                }
              } catch (RuntimeException e) {
                failure = e;
              }
            },
            "quiver-file-writer:" + target.getFileName());
    thread.setDaemon(true);
    thread.start();
  }

  /** Starts writing a file of {@code format} with batches of {@code schema} to {@code target}. */
  public static BatchFileWriter open(
      Path target, FileFormat format, Schema schema, BufferAllocator allocator) {
    return new BatchFileWriter(
        requireNonNull(target, "target is null"),
        requireNonNull(format, "format is null"),
        requireNonNull(schema, "schema is null"),
        requireNonNull(allocator, "allocator is null"));
  }

  /**
   * Queues {@code batch} for writing. Its buffers move to the writer: {@code batch} is left empty
   * and the caller still closes it.
   */
  public void write(VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    checkOpen();
    if (!batch.getSchema().equals(schema)) {
      throw new IllegalArgumentException(
          "batch schema " + batch.getSchema() + " is not the file's schema " + schema);
    }
    if (batch.getRowCount() == 0) {
      return;
    }
    List<FieldVector> vectors = new ArrayList<>();
    for (FieldVector vector : batch.getFieldVectors()) {
      TransferPair pair = vector.getTransferPair(allocator);
      pair.transfer();
      vectors.add((FieldVector) pair.getTo());
    }
    VectorSchemaRoot owned = new VectorSchemaRoot(schema.getFields(), vectors, batch.getRowCount());
    batch.setRowCount(0);
    put(owned);
  }

  /**
   * Finishes the file and renames it to its target. A commit that throws (the writer failed, or the
   * caller was interrupted) committed nothing: {@link #close()} then abandons the file.
   *
   * @return the number of rows written
   */
  public long commit() {
    checkOpen();
    put(END);
    endQueued = true;
    join();
    if (failure != null) {
      throw failure;
    }
    committed = true;
    return rows;
  }

  /**
   * Abandons the file unless it was committed; waits until its temporary data is deleted and the
   * writing thread has ended, also when the caller is interrupted (a cancelled task closes its
   * writer on an interrupted thread, and the thread still holds batches of the caller's allocator,
   * which the caller closes next), but at most {@link #CLOSE_WAIT_MILLIS}: a thread that has not
   * ended by then is left behind with a warning (it still deletes the file when it ends), and the
   * caller's allocator reports what it still holds. The interrupt is kept for the caller.
   *
   * <p>The end of the stream reaches the writing thread whatever was interrupted before: a commit
   * interrupted while it waited for room in the queue never queued its end, and Arrow's writer,
   * waiting for a batch on one of Arrow's own threads, would otherwise wait forever (that thread
   * then also blocks the JVM's exit: Arrow's thread pool waits for it).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (!committed) {
      abandoned = true;
      if (!endQueued) {
        drain();
        endQueued = queue.offer(END); // room after the drain: only this thread puts
      }
    }
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
    while (thread.isAlive()) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        LOG.warn("the writer of {} did not end within {} ms of close", target, CLOSE_WAIT_MILLIS);
        break;
      }
      try {
        thread.join(left);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    drain();
    if (!committed && renamed && !thread.isAlive()) {
      try { // the thread may have renamed the file before it saw the abandonment
        FileWriters.deleteRecursively(target);
      } catch (UncheckedIOException e) {
        LOG.warn("could not delete the abandoned file {}", target, e);
      }
    }
  }

  /** Whether the writing thread still runs (for tests). */
  boolean writing() {
    return thread.isAlive();
  }

  private void checkOpen() {
    if (closed || endQueued) {
      throw new IllegalStateException("writer of " + target + " is already committed or closed");
    }
    if (failure != null) {
      throw failure;
    }
  }

  // Waits for room, but gives up as soon as the writing thread has died (it no longer takes).
  private void put(VectorSchemaRoot batch) {
    try {
      while (!queue.offer(batch, 50, TimeUnit.MILLISECONDS)) {
        if (!thread.isAlive()) {
          closeUnlessEnd(batch);
          throw failure != null ? failure : new IllegalStateException("file writer thread ended");
        }
      }
    } catch (InterruptedException e) {
      closeUnlessEnd(batch);
      Thread.currentThread().interrupt();
      throw new QuiverException(ErrorCode.FILE_WRITE_FAILED, "Interrupted writing " + target, e);
    }
  }

  private void join() {
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QuiverException(ErrorCode.FILE_WRITE_FAILED, "Interrupted writing " + target, e);
    }
  }

  private void drain() {
    VectorSchemaRoot batch;
    while ((batch = queue.poll()) != null) {
      closeUnlessEnd(batch);
    }
  }

  private static void closeUnlessEnd(VectorSchemaRoot batch) {
    if (batch != END) {
      batch.close();
    }
  }

  /** The dataset writer's input: batches from the queue, moved into this reader's root. */
  private final class QueueReader extends ArrowReader {
    private volatile boolean
        ended; // Arrow calls from one thread at a time, maybe not always the same one

    QueueReader(BufferAllocator readerAllocator) {
      super(readerAllocator);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (ended) {
        return false;
      }
      VectorSchemaRoot batch = next();
      if (batch == null) {
        ended = true;
        return false;
      }
      if (batch == END || abandoned) {
        // Also when abandoned: the stream ends normally and the file is deleted once written.
        // Failing the stream instead (an exception out of this callback of Arrow's native
        // writer) sometimes left the native writer stuck, holding exported batches.
        closeUnlessEnd(batch);
        ended = true;
        return false;
      }
      try (batch) {
        VectorSchemaRoot root = getVectorSchemaRoot();
        // Fresh buffers per batch: Arrow still holds the previous batch's.
        for (int i = 0; i < root.getFieldVectors().size(); i++) {
          batch.getVector(i).makeTransferPair(root.getVector(i)).transfer();
        }
        root.setRowCount(batch.getRowCount());
      }
      return true;
    }

    // The next batch, or null once abandoned: polls rather than waits, so an abandoned writer ends
    // its stream even if no end was queued.
    private VectorSchemaRoot next() throws IOException {
      try {
        VectorSchemaRoot batch;
        while ((batch = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS)) == null) {
          if (abandoned) {
            return null;
          }
        }
        return batch;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}
