package dev.quiver.flink.session;

import dev.quiver.flink.compiler.StageOutputHook;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Test access to what {@link SessionBuilder} keeps package-private: the hook that adds a fault or a
 * probe after a stage's output, and the status of a query's job (used by the fault matrix in {@code
 * dev.quiver.flink.faults}).
 */
public final class SessionHooks {
  private SessionHooks() {}

  /** The status of {@code result}'s job on {@code session}'s local MiniCluster. */
  public static JobStatus jobStatus(QuiverSession session, SqlResult result) throws Exception {
    return session.localCluster().orElseThrow().miniCluster().getJobStatus(result.jobId()).get();
  }

  /**
   * A new BATCH environment on {@code session}'s local cluster, with the session's configuration.
   */
  public static StreamExecutionEnvironment environment(QuiverSession session) {
    return session.localCluster().orElseThrow().environment();
  }

  /** {@code builder} with {@code hook} applied to every stage the session compiles. */
  public static SessionBuilder withHook(SessionBuilder builder, StageOutputHook hook) {
    return builder.stageOutputHook(hook);
  }
}
