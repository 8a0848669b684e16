package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchSerializer;
import dev.quiver.stage.StageGraph;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.util.CloseableIterator;

/**
 * The result of a running query: its data batches in arrival order, each owned by the caller (who
 * closes it), decoded into the caller's allocator.
 *
 * <p>{@link #close()} ends the job: a job that is still running (the caller stopped early) is
 * cancelled, and the call waits until the job has reached a terminal state, so that every task has
 * closed its operators and released its Arrow memory by the time it returns. Closing is idempotent.
 * Not thread-safe.
 */
public final class QueryResult implements CloseableIterator<VectorSchemaRoot> {
  /** How long {@link #close()} waits for a cancelled job to end. */
  static final Duration TERMINATION_TIMEOUT = Duration.ofSeconds(60);

  private final StageGraph graph;
  private final JobClient client;
  private final CloseableIterator<byte[]> bytes;
  private final BatchSerializer serializer;
  private final BufferAllocator allocator;
  private boolean closed;
  private JobStatus finalStatus;

  QueryResult(
      StageGraph graph,
      JobClient client,
      CloseableIterator<byte[]> bytes,
      BatchSerializer serializer,
      BufferAllocator allocator) {
    this.graph = requireNonNull(graph, "graph is null");
    this.client = requireNonNull(client, "client is null");
    this.bytes = requireNonNull(bytes, "bytes is null");
    this.serializer = requireNonNull(serializer, "serializer is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  /** The stage graph the job runs (its {@code explain()} is the query's EXPLAIN). */
  public StageGraph graph() {
    return graph;
  }

  /** The Flink job. */
  public JobClient jobClient() {
    return client;
  }

  @Override
  public boolean hasNext() {
    return !closed && bytes.hasNext();
  }

  /** The next data batch; the caller owns it. */
  @Override
  public VectorSchemaRoot next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    BatchRecord record;
    try {
      record = serializer.deserialize(new DataInputDeserializer(bytes.next()), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return record.batch(); // the job encodes data records only
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
      finalStatus = awaitTermination();
    }
  }

  private JobStatus awaitTermination() throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + TERMINATION_TIMEOUT.toNanos();
    boolean cancelled = false;
    while (true) {
      JobStatus status;
      try {
        status = client.getJobStatus().get(TERMINATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        return null; // no longer known to the cluster: long gone
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
