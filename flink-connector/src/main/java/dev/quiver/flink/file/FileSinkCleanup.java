package dev.quiver.flink.file;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.FileWriters;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a {@link FileSink}'s staging directory when the job that writes it fails or is cancelled,
 * on the client that submitted it.
 *
 * <p>Writer tasks delete their own unfinished files, but parts that finished tasks staged wait for
 * the global commit; when the job ends without it, only the client knows. The job is the first one
 * submitted after this listener was registered (the sink belongs to the next job built in its
 * environment). The deletion runs when its result future fails ({@code executeAsync}, collect) and
 * also, synchronously, before {@code execute()} rethrows the failure.
 */
final class FileSinkCleanup implements JobListener {
  private static final Logger LOG = LoggerFactory.getLogger(FileSinkCleanup.class);

  private final Path staging;
  private JobID job; // the sink's job, once submitted
  private JobID last; // the job submitted last in this environment

  FileSinkCleanup(Path staging) {
    this.staging = requireNonNull(staging, "staging is null");
  }

  @Override
  public synchronized void onJobSubmitted(JobClient client, Throwable failure) {
    if (client == null) {
      return; // nothing was staged by a job that was never submitted
    }
    last = client.getJobID();
    if (job == null) {
      job = last;
      CompletableFuture<JobExecutionResult> result;
      try {
        result = client.getJobExecutionResult();
      } catch (FlinkRuntimeException e) {
        // A web (REST) submission runs main() in the JobManager, whose job client cannot follow
        // the job: nobody here can clean up after a failure, as after any detached submission.
        LOG.info("job {}: a failed run would keep its staged files ({})", job, e.getMessage());
        return;
      }
      result.whenComplete(
          (done, error) -> {
            if (error != null) {
              delete();
            }
          });
    }
  }

  @Override
  public void onJobExecuted(JobExecutionResult result, Throwable failure) {
    boolean ours;
    synchronized (this) {
      ours = job != null && job.equals(last); // execute() runs one job at a time
    }
    if (failure != null && ours) {
      delete();
    }
  }

  private synchronized void delete() {
    try {
      FileWriters.deleteRecursively(staging);
      LOG.info("the job writing {} failed; deleted its staged files", staging);
    } catch (RuntimeException e) {
      LOG.warn("cannot delete the staged files {}: {}", staging, e.getMessage());
    }
  }
}
