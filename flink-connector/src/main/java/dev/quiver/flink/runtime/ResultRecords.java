package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

/**
 * The data records of a running job, in arrival order, decoded into the caller's allocator; each
 * belongs to the caller (who closes it). Each record keeps the partition of the task that produced
 * it. When the job may restart tasks, each result task's output is handed out once that task has
 * sent all of it, so that no row is seen twice or lost ({@link ResultCommits}).
 *
 * <p>{@link #close()} ends the job: a job that is still running (the caller stopped early) is
 * cancelled, and the call waits until the job has reached a terminal state, so that every task has
 * closed its operators and released its Arrow memory by the time it returns. Closing is idempotent.
 * Not thread-safe.
 */
// close() waits for the job to end, so it may throw InterruptedException: the caller sees it.
@SuppressWarnings("try")
public final class ResultRecords implements CloseableIterator<BatchRecord> {
  /** How long {@link #close()} waits for a cancelled job to end. */
  static final Duration TERMINATION_TIMEOUT = Duration.ofSeconds(60);

  /** How long a failed read waits for the job's failure ({@link #withJobFailure}). */
  static final Duration FAILURE_TIMEOUT = Duration.ofSeconds(10);

  private final JobClient client;
  private final CloseableIterator<byte[]> bytes;
  private final BatchSerializer serializer;
  private final BufferAllocator allocator;
  private final ResultCommits commits;
  private final ClientHeartbeat heartbeat;
  private ResultFrame next;
  private boolean closed;
  private JobStatus finalStatus;

  ResultRecords(
      JobClient client,
      CloseableIterator<byte[]> bytes,
      BatchSerializer serializer,
      BufferAllocator allocator,
      boolean restartable,
      ClientHeartbeat heartbeat) {
    this.client = requireNonNull(client, "client is null");
    this.heartbeat = requireNonNull(heartbeat, "heartbeat is null");
    this.bytes = requireNonNull(bytes, "bytes is null");
    this.serializer = requireNonNull(serializer, "serializer is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.commits = new ResultCommits(restartable);
  }

  /** The Flink job. */
  public JobClient jobClient() {
    return client;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      return false;
    }
    while (next == null) {
      next = commits.poll();
      if (next == null) {
        byte[] frame;
        try {
          if (!bytes.hasNext()) {
            heartbeat.close(); // the job has sent everything
            commits.checkComplete();
            return false;
          }
          frame = bytes.next();
        } catch (RuntimeException e) {
          throw withJobFailure(e);
        }
        commits.accept(ResultFrame.read(frame));
      }
    }
    return true;
  }

  /**
   * {@code e}, a failure of Flink's result fetcher, with the job's own failure as its cause when
   * {@code e} does not carry it. The fetcher usually fails with the job's failure (and so with the
   * task's {@link QuiverException}, the error a user can act on); when the job fails before the
   * fetcher's first request, it fails with a message of its own, and the task's error would be
   * lost. The job's result is asked for at most {@link #FAILURE_TIMEOUT}.
   */
  private RuntimeException withJobFailure(RuntimeException e) {
    if (ExceptionUtils.findThrowable(e, QuiverException.class).isPresent()) {
      return e;
    }
    try {
      client.getJobExecutionResult().get(FAILURE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException failed) {
      if (ExceptionUtils.findThrowable(failed, QuiverException.class).isPresent()) {
        RuntimeException withCause = new RuntimeException(e.getMessage(), failed.getCause());
        withCause.addSuppressed(e);
        return withCause;
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    } catch (TimeoutException | RuntimeException other) {
      e.addSuppressed(other);
    }
    return e;
  }

  /** The next data record (the job sends data records only); the caller owns it. */
  @Override
  public BatchRecord next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ResultFrame frame = next;
    next = null;
    try {
      return serializer.deserialize(frame.batchInput(), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The job's terminal state once closed (FINISHED, or CANCELED after an early close); null while
   * open, or when the cluster no longer knows the job.
   */
  public JobStatus finalStatus() {
    return finalStatus;
  }

  @Override
  public void close() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    try {
      bytes.close(); // cancels the job when it has not ended
    } finally {
      try {
        finalStatus = awaitTermination();
      } finally {
        heartbeat.close();
      }
    }
  }

  private JobStatus awaitTermination() throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + TERMINATION_TIMEOUT.toNanos();
    boolean cancelled = false;
    while (true) {
      JobStatus status;
      try {
        status = client.getJobStatus().get(TERMINATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | IllegalStateException e) {
        // No longer known to the cluster, or the cluster itself has shut down (a per-job
        // MiniCluster ends with its only job): either way the job is long gone.
        return null;
      }
      if (status.isGloballyTerminalState()) {
        return status;
      }
      if (!cancelled) {
        client.cancel(); // normally the iterator's close did this already
        cancelled = true;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(
            "job " + client.getJobID() + " did not end within " + TERMINATION_TIMEOUT);
      }
      Thread.sleep(20);
    }
  }
}
