package dev.quiver.examples.job;

import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.stage.StageGraph;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Test access to what {@code quiver-job.jar} does, with a hook in its stages: the job {@link
 * QuiverJob#main} builds ({@link ResultJob}) and runs ({@link QuiverJob#execute}), on an
 * environment the test chooses (the cluster tests kill a TaskManager under it).
 */
public final class JobJarHooks {
  private final StreamExecutionEnvironment env;
  private final ResultJob job;

  private JobJarHooks(StreamExecutionEnvironment env, ResultJob job) {
    this.env = env;
    this.job = job;
  }

  /** The stage graph the job of {@code quiver-job.jar ARGS} runs (ARGS with a --parallelism). */
  public static StageGraph plan(String... args) {
    return ResultJob.plan(JobOptions.parse(args).orElseThrow(), 1);
  }

  /** The job of {@code quiver-job.jar ARGS} in {@code env}, with {@code hook} in its stages. */
  public static JobJarHooks build(
      StreamExecutionEnvironment env, StageOutputHook hook, String... args) {
    return new JobJarHooks(env, ResultJob.build(env, JobOptions.parse(args).orElseThrow(), hook));
  }

  /** Quiver's settings for the job, as {@code QuiverJob} gives them to its environment. */
  public static Configuration flinkConfiguration(int parallelism) {
    return QuiverJob.flinkConfiguration(OptionalInt.of(parallelism));
  }

  /** Runs the job as {@code QuiverJob.main} does: its failure is one line. */
  public JobExecutionResult execute() throws Exception {
    return QuiverJob.execute(env, job);
  }

  public Path output() {
    return job.output();
  }
}
