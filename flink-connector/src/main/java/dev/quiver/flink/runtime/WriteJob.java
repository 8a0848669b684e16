package dev.quiver.flink.runtime;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * A running job that writes its rows into a table ({@code INSERT INTO}) rather than to the caller,
 * seen as a result: no batch while the job runs, then, when it has ended, one row of one column,
 * {@value #ROWS_WRITTEN}: the rows written ({@link InsertRowsOperator}). A streaming job runs until
 * it is cancelled, so its result never ends ({@link #hasNext()} waits for as long as the job runs)
 * and fails with the cancellation.
 *
 * <p>{@link #close()} ends the job as a query's result does: a job still running is cancelled, and
 * the call waits until it has ended. A job that failed throws from {@link #hasNext()}.
 */
// close() waits for the job to end, so it may throw InterruptedException: the caller sees it.
@SuppressWarnings("try")
public final class WriteJob implements CloseableIterator<VectorSchemaRoot> {
  /** The name of the result's only column. */
  public static final String ROWS_WRITTEN = "rows_written";

  /** The result's schema: one BIGINT NOT NULL column, {@value #ROWS_WRITTEN}. */
  public static final Schema SCHEMA =
      new Schema(List.of(Field.notNullable(ROWS_WRITTEN, new ArrowType.Int(64, true))));

  private static final Duration TERMINATION_TIMEOUT = ResultRecords.TERMINATION_TIMEOUT;

  private final JobClient client;
  private final BufferAllocator allocator;
  private final ClientHeartbeat heartbeat;
  private VectorSchemaRoot row; // the count, once the job has ended and until next() takes it
  private boolean ended;
  private boolean closed;

  private WriteJob(JobClient client, BufferAllocator allocator, ClientHeartbeat heartbeat) {
    this.client = client;
    this.allocator = allocator;
    this.heartbeat = heartbeat;
  }

  /**
   * Submits the job built in {@code env} (its sinks attached) and returns at once; its count is
   * made in {@code allocator}.
   */
  public static WriteJob submit(
      StreamExecutionEnvironment env, String jobName, BufferAllocator allocator) throws Exception {
    requireNonNull(allocator, "allocator is null");
    JobClient client = env.executeAsync(requireNonNull(jobName, "jobName is null"));
    return new WriteJob(client, allocator, ClientHeartbeat.start(client, env.getConfiguration()));
  }

  /** The Flink job. */
  public JobClient jobClient() {
    return client;
  }

  /**
   * Waits for the job's end: true with the count to take, false once it is taken.
   *
   * @throws CompletionException if the job failed or was cancelled (the cause is Flink's)
   */
  @Override
  public boolean hasNext() {
    if (closed || ended && row == null) {
      return false;
    }
    if (row == null) {
      JobExecutionResult result;
      try {
        result = client.getJobExecutionResult().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while job " + client.getJobID() + " ran", e);
      } catch (ExecutionException e) {
        ended = true;
        throw new CompletionException(e.getCause());
      }
      ended = true;
      heartbeat.close();
      row = VectorSchemaRoot.create(SCHEMA, allocator);
      ((BigIntVector) row.getVector(0)).setSafe(0, InsertRowsOperator.rowsWritten(result));
      row.setRowCount(1);
    }
    return true;
  }

  /** The count; the caller owns it and closes it. */
  @Override
  public VectorSchemaRoot next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    VectorSchemaRoot taken = row;
    row = null;
    return taken;
  }

  /** Ends the job (cancelling it if it still runs) and waits until it has. Idempotent. */
  @Override
  public void close() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (row != null) {
        row.close();
        row = null;
      }
      awaitTermination();
    } finally {
      heartbeat.close();
    }
  }

  private void awaitTermination() throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + TERMINATION_TIMEOUT.toNanos();
    boolean cancelled = false;
    while (true) {
      JobStatus status;
      try {
        status = client.getJobStatus().get(TERMINATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException | IllegalStateException e) {
        return; // the cluster no longer knows the job, or has shut down: it is long gone
      }
      if (status.isGloballyTerminalState()) {
        return;
      }
      if (!cancelled) {
        client.cancel();
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
