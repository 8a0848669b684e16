package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.runtime.client.JobExecutionException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.util.ExceptionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one line a user gets for a failed job: the failing task's {@link QuiverException} when there
 * is one (the error a user can act on), and otherwise one {@link ErrorCode#TASK_FAILED} line with
 * the root error's class and first line and the place that failed, {@code (stage 2, task 0 of 2)}
 * when the cluster can say which task it was. A TaskManager that died under a task (no restarts
 * left) gives, for example:
 *
 * <pre>
 * [TASK_FAILED] TaskManager 127.0.0.1:35567-3e6b2e was lost (JobMasterException: TaskManager with
 * id 127.0.0.1:35567-3e6b2e is no longer reachable.) (stage 3, task 0 of 2)
 * </pre>
 *
 * (on one line). Used for query results ({@link SqlResult}) and for jobs that write their result
 * themselves ({@code quiver-job.jar}): where the cluster is remote, the failed task is read from
 * its REST API ({@link #failedTask(URI, JobID)}).
 */
public final class JobFailures {
  private static final Logger LOG = LoggerFactory.getLogger(JobFailures.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern STAGE = Pattern.compile("\\bstage (\\d+): ");
  // "name (1/2)", in the exception history also "name (1/2) - execution #0": the last one.
  private static final Pattern SUBTASK = Pattern.compile(" \\((\\d+)/(\\d+)\\)");

  /**
   * Flink's words for a task lost with its TaskManager: the JobMaster's (heartbeats or RPC), and a
   * task's that read from it.
   */
  private static final Pattern LOST =
      Pattern.compile(
          "TaskManager with id (\\S+?) is no longer reachable"
              + "|Heartbeat of TaskManager with id (\\S+?) timed out"
              + "|task manager '[^']*?\\[ *(\\S+?) *\\] *'");

  private JobFailures() {}

  /**
   * The error to throw for {@code failure}, the failure of job {@code job}: a task's {@link
   * QuiverException} with this stack, a cancelled job's error as it is, anything else one {@link
   * ErrorCode#TASK_FAILED} line naming {@code failedTask} (the Flink task whose failure ended the
   * job, as the cluster names it; empty when it cannot say).
   */
  public static RuntimeException describe(
      Throwable failure, JobID job, Optional<String> failedTask) {
    requireNonNull(failure, "failure is null");
    Optional<QuiverException> quiver = ExceptionUtils.findThrowable(failure, QuiverException.class);
    if (quiver.isPresent()) {
      if (quiver.get() == failure) {
        return quiver.get();
      }
      String message = quiver.get().getMessage();
      String withoutCode = message.substring(quiver.get().code().name().length() + 3);
      return new QuiverException(quiver.get().code(), withoutCode, failure);
    }
    if (ExceptionUtils.findThrowable(failure, JobCancellationException.class).isPresent()) {
      return failure instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(failure.getMessage(), failure);
    }
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String what = firstLine(root);
    Optional<String> lost = lostTaskManager(failure);
    if (lost.isPresent()) {
      what = "TaskManager " + lost.get() + " was lost (" + what + ")";
    }
    return new QuiverException(ErrorCode.TASK_FAILED, what + " " + where(job, failedTask), failure);
  }

  /**
   * {@link #describe} for the failure of a job that ran on the cluster whose REST endpoint {@code
   * cluster} names ({@code rest.address} or {@code jobmanager.rpc.address}, and {@code rest.port},
   * as a Flink client's configuration has them); {@code failure} itself when it is not the failure
   * of a submitted job (then Flink's message is the clearest there is).
   */
  public static Exception describe(Exception failure, ReadableConfig cluster) {
    Optional<JobID> job =
        ExceptionUtils.findThrowable(failure, JobExecutionException.class)
            .map(JobExecutionException::getJobID);
    if (job.isEmpty()) {
      return failure;
    }
    String host =
        cluster
            .getOptional(RestOptions.ADDRESS)
            .orElse(cluster.getOptional(JobManagerOptions.ADDRESS).orElse("localhost"));
    URI rest = URI.create("http://" + host + ":" + cluster.get(RestOptions.PORT));
    return describe(failure, job.get(), failedTask(rest, job.get()));
  }

  /**
   * The Flink task whose failure ended job {@code job} (for example {@code stage 2: Project[...] ->
   * encode result (1/2) - execution #0}), from the exception history of the cluster whose REST
   * endpoint is {@code rest}: its latest entry. Empty when the cluster cannot say.
   */
  public static Optional<String> failedTask(URI rest, JobID job) {
    URI uri = rest.resolve("/jobs/" + job + "/exceptions");
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
      HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (true) {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
          throw new IOException("HTTP " + response.statusCode() + ": " + response.body());
        }
        Optional<String> task =
            failedTask(new ObjectMapper().readTree(response.body()).path("exceptionHistory"));
        // The history of a job that has just failed may not be there yet: ask again, shortly.
        if (task.isPresent() || System.nanoTime() > deadline) {
          return task;
        }
        Thread.sleep(100);
      }
    } catch (IOException e) {
      LOG.warn("no failed task of job {} from {}: {}", job, uri, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Optional.empty();
  }

  /**
   * The failed task of an exception history: of its entries (and the failures concurrent with them)
   * that name a task, the earliest, whose failure the others followed.
   */
  private static Optional<String> failedTask(JsonNode history) {
    String task = null;
    long first = Long.MAX_VALUE;
    for (JsonNode entry : history.path("entries")) {
      List<JsonNode> failures = new ArrayList<>();
      failures.add(entry);
      entry.path("concurrentExceptions").forEach(failures::add);
      for (JsonNode failure : failures) {
        String name = failure.path("taskName").asText("");
        long time = failure.path("timestamp").asLong(Long.MAX_VALUE);
        if (!name.isEmpty() && !name.equals("null") && (task == null || time < first)) {
          task = name;
          first = time;
        }
      }
    }
    return Optional.ofNullable(task);
  }

  /**
   * Where job {@code job} failed: {@code (stage 2, task 0 of 2)} when the failed Flink task is a
   * stage's (its chain's name has the stage operator's "stage N: "), the task's Flink name when it
   * is not, the job when the cluster cannot say.
   */
  static String where(JobID job, Optional<String> task) {
    if (task.isEmpty()) {
      return "(job " + job + ")";
    }
    Matcher stage = STAGE.matcher(task.get());
    Matcher subtask = SUBTASK.matcher(task.get());
    boolean found = false;
    int index = 0;
    int tasks = 0;
    while (subtask.find()) {
      found = true;
      index = Integer.parseInt(subtask.group(1)) - 1;
      tasks = Integer.parseInt(subtask.group(2));
    }
    if (stage.find() && found) {
      return "(stage " + stage.group(1) + ", task " + index + " of " + tasks + ")";
    }
    return "(task '" + task.get() + "' of job " + job + ")";
  }

  /** The TaskManager whose loss {@code failure} reports, when it reports one. */
  private static Optional<String> lostTaskManager(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      Matcher lost = LOST.matcher(String.valueOf(t.getMessage()));
      if (lost.find()) {
        for (int g = 1; g <= lost.groupCount(); g++) {
          if (lost.group(g) != null) {
            return Optional.of(lost.group(g));
          }
        }
        return Optional.of("(unknown)");
      }
    }
    return Optional.empty();
  }

  /**
   * The first line of {@code failure}'s root cause, with the cause's class: for one-line errors.
   */
  static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return firstLine(root);
  }

  private static String firstLine(Throwable root) {
    String message = root.getMessage() == null ? "" : root.getMessage().strip();
    int end = message.indexOf('\n');
    return root.getClass().getSimpleName()
        + (message.isEmpty() ? "" : ": " + (end < 0 ? message : message.substring(0, end)));
  }
}
