package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.flink.runtime.RowCountSink;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Runs a physical plan as one Flink job and streams its result batches back to the caller.
 *
 * <pre>
 *   plan ─► StagePlanner (rewrites, cut) ─► StageGraphCompiler ─► final stage
 *        ─► encode (bytes) ─► Flink collect sink ─► client: decode into the caller's allocator
 * </pre>
 *
 * The job runs on the given environment (a MiniCluster in tests and local runs, a remote cluster
 * otherwise), which should be in BATCH mode. The returned {@link QueryResult} is the only handle on
 * the job: iterating it reads the result, closing it early cancels the job and waits until the job
 * has ended, so every task has released its Arrow memory when {@code close()} returns.
 */
public final class JobRunner {
  private final StagePlanner planner;
  private final StageGraphCompiler compiler;

  public JobRunner(StagePlanner planner, StageGraphCompiler compiler) {
    this.planner = requireNonNull(planner, "planner is null");
    this.compiler = requireNonNull(compiler, "compiler is null");
  }

  /** The default rewrites, no compression, no scan sources. */
  public static JobRunner withDefaults() {
    return new JobRunner(StagePlanner.withDefaultRewrites(), new StageGraphCompiler());
  }

  public StagePlanner planner() {
    return planner;
  }

  public StageGraphCompiler compiler() {
    return compiler;
  }

  /**
   * Plans {@code plan}, then runs it as {@link #run(StreamExecutionEnvironment, StageGraph,
   * BufferAllocator, String)}.
   */
  public QueryResult run(
      StreamExecutionEnvironment env, PlanNode plan, BufferAllocator allocator, String jobName)
      throws Exception {
    return run(env, planner.plan(requireNonNull(plan, "plan is null")), allocator, jobName);
  }

  /**
   * Submits the job of {@code graph} to {@code env} and returns its result; batches are decoded
   * into {@code allocator} and belong to the caller.
   */
  public QueryResult run(
      StreamExecutionEnvironment env, StageGraph graph, BufferAllocator allocator, String jobName)
      throws Exception {
    requireNonNull(allocator, "allocator is null");
    requireNonNull(jobName, "jobName is null");
    return new QueryResult(
        graph, BatchResults.collect(compiler.compile(env, graph), allocator, jobName));
  }

  /**
   * Submits the job of {@code graph} with its final stage's rows counted and dropped inside the job
   * ({@link RowCountSink}: nothing reaches the caller but the count), and returns at once; {@code
   * client.getJobExecutionResult()} waits for the job's end and {@link
   * RowCountSink#rows(org.apache.flink.api.common.JobExecutionResult)} reads the count from it.
   */
  public JobClient count(
      StreamExecutionEnvironment env, StageGraph graph, RowCountSink.Probe probe, String jobName)
      throws Exception {
    requireNonNull(jobName, "jobName is null");
    RowCountSink.attach(compiler.compile(env, graph), probe);
    return env.executeAsync(jobName);
  }
}
