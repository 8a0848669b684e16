package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.runtime.ResultRecords;
import dev.quiver.stage.StageGraph;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.util.CloseableIterator;

/**
 * The result of a running query: its data batches in arrival order, each owned by the caller (who
 * closes it), decoded into the caller's allocator, and the stage graph the job runs.
 *
 * <p>{@link #close()} ends the job: a job that is still running (the caller stopped early) is
 * cancelled, and the call waits until the job has ended, so that every task has released its Arrow
 * memory by the time it returns (see {@link ResultRecords}). Closing is idempotent.
 */
public final class QueryResult implements CloseableIterator<VectorSchemaRoot> {
  private final StageGraph graph;
  private final ResultRecords records;

  QueryResult(StageGraph graph, ResultRecords records) {
    this.graph = requireNonNull(graph, "graph is null");
    this.records = requireNonNull(records, "records is null");
  }

  /** The stage graph the job runs (its {@code explain()} is the query's EXPLAIN). */
  public StageGraph graph() {
    return graph;
  }

  /** The Flink job. */
  public JobClient jobClient() {
    return records.jobClient();
  }

  @Override
  public boolean hasNext() {
    return records.hasNext();
  }

  /** The next data batch; the caller owns it. */
  @Override
  public VectorSchemaRoot next() {
    return records.next().batch();
  }

  /** The job's terminal state once closed; null while open or when the cluster forgot the job. */
  public JobStatus finalStatus() {
    return records.finalStatus();
  }

  /**
   * Ends the job (cancelling it if it still runs) and waits until it has; idempotent. Throws no
   * checked exception, so a caller's try-with-resources needs none: an interrupt while waiting sets
   * the thread's interrupt flag again and ends in an {@link IllegalStateException}, as does a job
   * that does not end in time.
   */
  @Override
  public void close() {
    try {
      records.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while ending job " + jobId(), e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("job " + jobId() + " did not end", e);
    }
  }

  private JobID jobId() {
    return records.jobClient().getJobID();
  }
}
