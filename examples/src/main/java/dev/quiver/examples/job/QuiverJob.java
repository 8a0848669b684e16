package dev.quiver.examples.job;

import dev.quiver.flink.session.JobFailures;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The main class of {@code quiver-job.jar}: runs one SQL query over files as a Flink batch job
 * whose tasks write the result to a directory ({@link JobOptions} lists the arguments). For {@code
 * flink run quiver-job.jar ...} or a REST submission ({@code POST /jars/upload}, then {@code POST
 * /jars/:id/run} with {@code programArgsList}); the jar holds Quiver and its dependencies but not
 * Flink, which the cluster provides.
 *
 * <pre>
 *   main (flink run client, or the JobManager for REST) ─ plan ─► job graph ─► cluster
 *   TaskManagers: scan files ─► stages ─► FileSink ─► DIR/part-*.ext
 * </pre>
 *
 * The environment is the one Flink gives a submitted program ({@link
 * StreamExecutionEnvironment#getExecutionEnvironment(Configuration)}) with Quiver's settings: BATCH
 * execution, no adaptive auto-parallelism (the plan fixes every stage's task count), no silent Kryo
 * fallback, object reuse. Attached ({@code flink run}), the method returns when the job has ended;
 * detached ({@code flink run -d}, REST), once the job is submitted.
 */
public final class QuiverJob {
  private QuiverJob() {}

  public static void main(String[] args) throws Exception {
    Optional<JobOptions> parsed = JobOptions.parse(args);
    if (parsed.isEmpty()) {
      return; // --help
    }
    JobOptions options = parsed.get();
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(
            flinkConfiguration(options.parallelism()));
    ResultJob job = ResultJob.build(env, options);
    System.out.printf(
        Locale.ROOT,
        "quiver-job: %d stages, writing %s to %s%n",
        job.graph().stages().size(),
        job.format().name().toLowerCase(Locale.ROOT),
        job.output());
    long start = System.nanoTime();
    JobExecutionResult result = execute(env, job);
    if (result.isJobExecutionResult()) {
      System.out.printf(
          Locale.ROOT,
          "quiver-job: job %s finished in %.3f s; the result is in %s%n",
          result.getJobID(),
          (System.nanoTime() - start) / 1e9,
          job.output());
    } else {
      System.out.printf(
          Locale.ROOT,
          "quiver-job: submitted job %s; the result appears in %s when it finishes%n",
          result.getJobID(),
          job.output());
    }
  }

  /**
   * Runs {@code job}; when it fails, the failure is one line (a task's Quiver error, or {@code
   * [TASK_FAILED] ... (stage S, task T of N)} with the failed task from the cluster's REST API:
   * {@link JobFailures}), which {@code flink run} prints after "The main method caused an error:".
   */
  static JobExecutionResult execute(StreamExecutionEnvironment env, ResultJob job)
      throws Exception {
    try {
      return env.execute(job.name());
    } catch (Exception e) {
      throw JobFailures.describe(e, env.getConfiguration());
    }
  }

  /** Quiver's settings for the job (see {@code SessionBuilder}); the rest is the cluster's. */
  static Configuration flinkConfiguration(OptionalInt parallelism) {
    Configuration flink = new Configuration();
    flink.set(PipelineOptions.GENERIC_TYPES, false);
    flink.set(PipelineOptions.OBJECT_REUSE, true);
    flink.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
    flink.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    parallelism.ifPresent(p -> flink.set(CoreOptions.DEFAULT_PARALLELISM, p));
    return flink;
  }
}
