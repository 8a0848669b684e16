package dev.quiver.benchmarks.run;

import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.ResultValues;
import dev.quiver.flink.session.SqlResult;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Quiver: one session on its own local MiniCluster ({@link ClusterSettings}) with the workload's
 * tables registered; each query streams its result batches back, which are converted to rows.
 */
final class QuiverEngine implements Engine {
  private final QuiverSession session;
  private final JobCanceller canceller;
  private volatile String runningJob;

  QuiverEngine(BenchmarkOptions options, Workload workload) {
    int port = ClusterSettings.freePort();
    this.session =
        QuiverSession.builder()
            .parallelism(options.parallelism())
            .configuration(ClusterSettings.configuration(options, port))
            .build();
    this.canceller = new JobCanceller(port);
    try {
      workload.register(session, options.data());
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  QuiverSession session() {
    return session;
  }

  @Override
  public Kind kind() {
    return Kind.QUIVER;
  }

  @Override
  public List<List<Object>> execute(String sql) {
    List<List<Object>> rows = new ArrayList<>();
    try (SqlResult result = session.sql(sql)) {
      runningJob = result.jobId().toHexString();
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          for (List<Object> row : ResultValues.rows(batch)) {
            rows.add(ResultComparison.row(row));
          }
        }
      }
    } finally {
      runningJob = null;
    }
    return rows;
  }

  @Override
  public void cancel() {
    String job = runningJob;
    if (job != null) {
      canceller.cancel(job);
    }
  }

  @Override
  public void close() {
    session.close();
  }
}
