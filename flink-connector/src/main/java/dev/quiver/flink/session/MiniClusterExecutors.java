package dev.quiver.flink.session;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Submits the jobs of a {@code StreamExecutionEnvironment} to one running {@link MiniCluster},
 * directly (no REST round trip, no job graph upload).
 *
 * <p>Flink's own local environment starts a new MiniCluster for every job, which costs seconds;
 * Flink's test utilities solve this the same way as here (their {@code
 * MiniClusterPipelineExecutorServiceLoader}), but they are a test dependency. An environment uses
 * this loader when it is created with it and its configuration has {@code execution.target} =
 * {@link #TARGET}.
 */
final class MiniClusterExecutors implements PipelineExecutorServiceLoader {
  /** The {@code execution.target} of environments that submit to the session's MiniCluster. */
  static final String TARGET = "quiver-session-minicluster";

  private final MiniCluster cluster;

  MiniClusterExecutors(MiniCluster cluster) {
    this.cluster = requireNonNull(cluster, "cluster is null");
  }

  @Override
  public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
    return new PipelineExecutorFactory() {
      @Override
      public String getName() {
        return TARGET;
      }

      @Override
      public boolean isCompatibleWith(Configuration configuration) {
        return true;
      }

      @Override
      public PipelineExecutor getExecutor(Configuration configuration) {
        return MiniClusterExecutors.this::execute;
      }
    };
  }

  @Override
  public Stream<String> getExecutorNames() {
    return Stream.of(TARGET);
  }

  private CompletableFuture<JobClient> execute(
      Pipeline pipeline, Configuration configuration, ClassLoader userCodeClassLoader)
      throws Exception {
    StreamGraph graph = PipelineExecutorUtils.getStreamGraph(pipeline, configuration);
    return cluster
        .submitJob(graph)
        .thenApply(
            submitted ->
                new MiniClusterJobClient(
                    submitted.getJobID(),
                    cluster,
                    userCodeClassLoader,
                    // The session owns the cluster: a finished job must not shut it down.
                    MiniClusterJobClient.JobFinalizationBehavior.NOTHING));
  }
}
