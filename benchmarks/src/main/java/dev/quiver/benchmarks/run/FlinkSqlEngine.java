package dev.quiver.benchmarks.run;

import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.flink.session.LocalCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Flink 2.3 batch SQL: a table environment in batch mode on its own MiniCluster (the same settings
 * as Quiver's, {@link ClusterSettings}), the workload's tables declared over the same Parquet files
 * ({@link FlinkSqlTables}), each query's rows collected with {@code executeSql(q).collect()}.
 * Flink's planner and runtime options stay at their defaults unless {@code --flink-sql} sets them.
 */
// close() stops the MiniCluster, which waits and may throw InterruptedException.
@SuppressWarnings("try")
final class FlinkSqlEngine implements Engine {
  private final LocalCluster cluster;
  private final StreamTableEnvironment tables;
  private volatile TableResult running;

  FlinkSqlEngine(BenchmarkOptions options, Workload workload) throws Exception {
    this.cluster =
        LocalCluster.create(
            ClusterSettings.configuration(options, ClusterSettings.freePort()),
            options.parallelism());
    try {
      StreamExecutionEnvironment env = cluster.environment();
      env.setRuntimeMode(RuntimeExecutionMode.BATCH);
      env.setParallelism(options.parallelism());
      tables = StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
      for (Map.Entry<String, String> option : options.flinkSql().entrySet()) {
        tables.getConfig().set(option.getKey(), option.getValue());
      }
      FlinkSqlTables.ddl(workload, options.data()).forEach(tables::executeSql);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** Declares one more table (the fixed-cost measurement's empty one). */
  void executeDdl(List<String> statements) {
    statements.forEach(tables::executeSql);
  }

  @Override
  public Kind kind() {
    return Kind.FLINK;
  }

  @SuppressWarnings("try") // Flink's CloseableIterator.close() declares Exception
  @Override
  public List<List<Object>> execute(String sql) throws Exception {
    TableResult result = tables.executeSql(sql);
    running = result;
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<Row> iterator = result.collect()) {
      while (iterator.hasNext()) {
        Row row = iterator.next();
        List<Object> values = new ArrayList<>(row.getArity());
        for (int i = 0; i < row.getArity(); i++) {
          values.add(row.getField(i));
        }
        rows.add(ResultComparison.row(values));
      }
    } finally {
      running = null;
    }
    return rows;
  }

  @Override
  public void cancel() {
    TableResult result = running;
    if (result != null) {
      result.getJobClient().ifPresent(JobClient::cancel);
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
