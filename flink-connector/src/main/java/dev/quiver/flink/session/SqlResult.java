package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.compiler.QueryResult;
import dev.quiver.flink.runtime.WriteJob;
import dev.quiver.flink.stage.TaskStats;
import dev.quiver.stage.StageGraph;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

/**
 * The result of one SQL query while its Flink job runs: the output schema (the query's column
 * names) and its batches in arrival order. Each batch belongs to the caller, who closes it; batches
 * live in the session's allocator, so close them before the session.
 *
 * <pre>{@code
 * try (SqlResult result = session.sql("SELECT status, count(*) FROM orders GROUP BY status")) {
 *   while (result.hasNext()) {
 *     try (VectorSchemaRoot batch = result.next()) { ... }
 *   }
 * }
 * }</pre>
 *
 * <p>{@link #close()} ends the job: closing before the last batch cancels it, and the call waits
 * until the job has ended, so that its tasks have released their memory. A query that fails while
 * running (bad data, a division by zero) throws from {@link #hasNext()} or {@link #next()}, with
 * the {@link QuiverException} of the failing task when there is one. Not thread-safe.
 *
 * <p>An {@code INSERT INTO} has a result too ({@link #insertInto()}): the handle of the job that
 * writes the table, with no rows while it runs and one, the rows written, when it has ended.
 */
public final class SqlResult implements CloseableIterator<VectorSchemaRoot> {
  private final Schema schema;
  private final CloseableIterator<VectorSchemaRoot> batches;
  private final StageGraph graph;
  private final JobClient client;
  private final Optional<String> insertInto;

  private final Consumer<SqlResult> onClose;
  private final Function<JobID, Optional<String>> failedTask;
  private final boolean streaming;
  private boolean closed;

  /**
   * The result of a query.
   *
   * @param failedTask the Flink task (name and subtask) whose failure ended a failed job, where the
   *     cluster can say
   * @param streaming whether the query reads an unbounded table (a STREAMING job)
   * @param changelog whether the result is updating: {@code schema} and the batches end with the
   *     row kind code, which this result shows first, spelled ({@link ChangelogBatches})
   */
  SqlResult(
      Schema schema,
      QueryResult result,
      Consumer<SqlResult> onClose,
      Function<JobID, Optional<String>> failedTask,
      boolean streaming,
      boolean changelog) {
    this(
        changelog ? ChangelogBatches.schema(schema) : schema,
        changelog ? new ChangelogBatches(result, schema) : result,
        result.graph(),
        result.jobClient(),
        Optional.empty(),
        onClose,
        failedTask,
        streaming);
  }

  /** The result of an {@code INSERT INTO table}: its job's count of rows written, at its end. */
  SqlResult(
      String table,
      WriteJob job,
      StageGraph graph,
      Consumer<SqlResult> onClose,
      Function<JobID, Optional<String>> failedTask,
      boolean streaming) {
    this(
        WriteJob.SCHEMA,
        job,
        graph,
        job.jobClient(),
        Optional.of(table),
        onClose,
        failedTask,
        streaming);
  }

  private SqlResult(
      Schema schema,
      CloseableIterator<VectorSchemaRoot> batches,
      StageGraph graph,
      JobClient client,
      Optional<String> insertInto,
      Consumer<SqlResult> onClose,
      Function<JobID, Optional<String>> failedTask,
      boolean streaming) {
    this.schema = requireNonNull(schema, "schema is null");
    this.batches = requireNonNull(batches, "batches is null");
    this.graph = requireNonNull(graph, "graph is null");
    this.client = requireNonNull(client, "client is null");
    this.insertInto = insertInto;
    this.onClose = requireNonNull(onClose, "onClose is null");
    this.failedTask = requireNonNull(failedTask, "failedTask is null");
    this.streaming = streaming;
  }

  /**
   * The table an {@code INSERT INTO} writes, or empty for a query. The result of an INSERT has no
   * rows while its job runs; when the job has ended it has one, of one BIGINT column {@value
   * WriteJob#ROWS_WRITTEN}: the rows written. A streaming INSERT runs until it is cancelled ({@link
   * #cancel()}, {@link #close()}) or stopped with a savepoint, so {@link #hasNext()} waits for as
   * long as it runs and then fails with the cancellation.
   */
  public Optional<String> insertInto() {
    return insertInto;
  }

  /**
   * Whether the query reads an unbounded table: its job is a STREAMING one whose batches arrive as
   * checkpoints complete, and whose result does not end while the stream does not (a caller that
   * prints it prints batch by batch, and stops it with {@link #cancel()}).
   */
  public boolean streaming() {
    return streaming;
  }

  /**
   * Whether the result is updating (a changelog: a GROUP BY over a stream without an event-time
   * window): its first column is then {@code op}, VARCHAR NOT NULL, the row kind as Flink's SQL
   * client shows it: {@code +I} a new row, {@code -U} the old row of an update, {@code +U} its new
   * row, {@code -D} a row removed. Applying the rows in order (adding +I and +U rows, removing -U
   * and -D rows) gives the result so far.
   */
  public boolean changelog() {
    return batches instanceof ChangelogBatches;
  }

  /** The output columns, named as the query names them (after {@code op} for a changelog). */
  public Schema schema() {
    return schema;
  }

  /** The stage graph the job runs (its {@code explain()} is the query's EXPLAIN). */
  public StageGraph graph() {
    return graph;
  }

  /** The Flink job's id (to find it in the web UI or logs). */
  public JobID jobId() {
    return client.getJobID();
  }

  @Override
  public boolean hasNext() {
    try {
      return !closed && batches.hasNext();
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /** The next batch; the caller owns it and closes it. */
  @Override
  public VectorSchemaRoot next() {
    try {
      return batches.next();
    } catch (RuntimeException e) {
      throw failed(e);
    }
  }

  /**
   * The remaining rows as Java values (see {@link ResultValues}); closes every batch and then this
   * result. Meant for small results.
   */
  public List<List<Object>> rows() {
    List<List<Object>> rows = new ArrayList<>();
    try {
      while (hasNext()) {
        try (VectorSchemaRoot batch = next()) {
          rows.addAll(ResultValues.rows(batch));
        }
      }
    } finally {
      close();
    }
    return rows;
  }

  /**
   * What each task of each stage did (rows and batches in and out, bytes sent, busy time), by stage
   * id, once the job has finished: read the whole result first. This is EXPLAIN ANALYZE's data.
   *
   * @throws IllegalStateException if the job has not finished successfully
   */
  public Map<Integer, List<TaskStats.Task>> taskStats() {
    try {
      JobExecutionResult done = client.getJobExecutionResult().get(30, TimeUnit.SECONDS);
      return TaskStats.fromAccumulators(done.getAllAccumulatorResults());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading job " + jobId(), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "job " + jobId() + " has no statistics: it has not finished successfully", e);
    }
  }

  /**
   * Asks the cluster to cancel the job and returns without waiting; callable from any thread (a
   * server cancels a query that another thread reads). The reader's {@link #hasNext()} or {@link
   * #next()} then fails, and {@link #close()} still waits until the job's tasks have ended. Does
   * nothing once the job has ended.
   */
  public void cancel() {
    client.cancel();
  }

  /**
   * Stops this streaming query's job with a savepoint in {@code directory} and returns the
   * savepoint's path, from which {@link QuiverSession#sqlFromSavepoint} starts the same query again
   * where it stopped: the sources' read positions (Kafka offsets), the windows still open, the rows
   * waiting in each stage.
   *
   * <p>The job is not drained: open windows are not emitted but kept in the savepoint (Flink's
   * {@code stop-with-savepoint} without {@code --drain}), and the job then ends. The reader goes on
   * reading to the end of this result: every row the job emitted before the savepoint, each once;
   * the restored query emits the rest, so the two results together are the answer without a row
   * lost or repeated. Callable from any thread, as {@link #cancel()}; returns once the savepoint is
   * complete.
   *
   * <p>The savepoint is in Flink's canonical format: the format every state backend reads, and the
   * one that survives a change of Flink version or state backend.
   *
   * @param directory where the cluster writes the savepoint (a directory of its own is made in it):
   *     a local path for a local session, a path every node of a remote cluster reaches (a shared
   *     file system, {@code s3://...}) otherwise
   * @throws IllegalStateException if the query is not a streaming one
   * @throws QuiverException if the savepoint cannot be taken (the job has ended, or failed, or the
   *     directory cannot be written)
   */
  public String stopWithSavepoint(String directory) {
    requireNonNull(directory, "directory is null");
    if (!streaming) {
      throw new IllegalStateException(
          "only a streaming query stops with a savepoint: job " + jobId() + " is a batch job");
    }
    try {
      return client.stopWithSavepoint(false, directory, SavepointFormatType.CANONICAL).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping job " + jobId(), e);
    } catch (ExecutionException e) {
      throw new QuiverException(
          ErrorCode.FILE_WRITE_FAILED,
          "cannot stop job "
              + jobId()
              + " with a savepoint in "
              + directory
              + ": "
              + JobFailures.rootMessage(e),
          e);
    }
  }

  /** {@link #stopWithSavepoint(String)} into a directory of this machine's file system. */
  public String stopWithSavepoint(Path directory) {
    return stopWithSavepoint(directory.toAbsolutePath().toUri().toString());
  }

  /** Ends the job (cancelling it if it still runs) and waits until it has. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      batches.close();
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while ending job " + jobId(), e);
    } catch (Exception e) {
      throw new IllegalStateException("job " + jobId() + " did not end", e);
    } finally {
      onClose.accept(this);
    }
  }

  /**
   * The error to throw for a failure while reading: the job has failed, so it is ended first; then
   * the failure becomes one line ({@link JobFailures#describe(Throwable, JobID, Optional)}): a
   * task's QuiverException (what the user can act on) with this stack, any other failure (Flink's
   * collect client wraps it four levels deep under "Failed to fetch next result") one {@link
   * ErrorCode#TASK_FAILED} line with the original error and the stage and task that failed, as the
   * cluster reports them; a cancelled job's error is passed on as it is.
   */
  private RuntimeException failed(RuntimeException e) {
    try {
      close();
    } catch (RuntimeException suppressed) {
      e.addSuppressed(suppressed);
    }
    if (ExceptionUtils.findThrowable(e, QuiverException.class).isPresent()
        || ExceptionUtils.findThrowable(e, JobCancellationException.class).isPresent()) {
      return JobFailures.describe(e, jobId(), Optional.empty());
    }
    return JobFailures.describe(e, jobId(), failedTask.apply(jobId()));
  }
}
