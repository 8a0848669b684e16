package dev.quiver.examples.table;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.compiler.StreamScans;
import dev.quiver.flink.table.TableBridge;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.sql.Catalog;
import dev.quiver.sql.SqlPlanner;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Quiver SQL in the middle of a Flink Table API program, all in one Flink job:
 *
 * <pre>
 *   Flink SQL: datagen orders, VALUES customers ─► TableBridge.toBatches (Arrow batches)
 *   ─► Quiver SQL: join, filter, two-phase aggregate (vectorized, in Flink tasks)
 *   ─► TableBridge.toTable ─► Flink SQL: a further filter and a computed column ─► collect
 * </pre>
 *
 * The Flink tables stay Flink's: Flink's planner produces their rows, Quiver receives them as Arrow
 * batches through {@link StreamScans} (the streams as tables a Quiver SQL query can name), and the
 * Quiver result is a Flink {@link Table} again, with exact types (DECIMAL precision and scale, NOT
 * NULL), that Flink SQL continues with. Use this where a Flink program has a heavy batch join or
 * aggregation and wants Quiver's vectorized operators for just that part.
 */
public final class TableExample {
  static final int PARALLELISM = 2;
  static final int ORDERS = 10_000;
  static final int CUSTOMERS = 40;

  /** What Quiver runs: both tables are Flink tables, registered with Quiver under these names. */
  static final String QUIVER_SQL =
      "SELECT c.region, count(*) AS orders, sum(o.amount) AS revenue"
          + " FROM orders o JOIN customers c ON o.customer_id = c.customer_id"
          + " WHERE o.status = 'F' GROUP BY c.region";

  /** What Flink SQL does with Quiver's result. */
  static final String FLINK_SQL =
      "SELECT region, orders, revenue, CAST(revenue / orders AS DECIMAL(10, 2)) AS average"
          + " FROM quiver_totals WHERE region <> 'AFRICA' ORDER BY revenue DESC";

  private TableExample() {}

  public static void main(String[] args) throws Exception {
    run(System.out);
  }

  /** Runs the program and prints the rows Flink SQL returns; returns them too. */
  @SuppressWarnings("try") // Flink's CloseableIterator.close() declares Exception
  static List<Row> run(PrintStream out) throws Exception {
    StreamExecutionEnvironment env = environment();
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);

    // The user's Flink tables: generated orders, and a small customers table.
    tables.executeSql(
        "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen',"
            + " 'number-of-rows' = '"
            + ORDERS
            + "', 'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence',"
            + " 'fields.id.start' = '0', 'fields.id.end' = '"
            + (ORDERS - 1)
            + "')");
    Table orders =
        tables.sqlQuery(
            "SELECT id AS order_id, MOD(id, "
                + CUSTOMERS
                + ") AS customer_id,"
                + " CAST(CASE MOD(id, 3) WHEN 0 THEN 'O' WHEN 1 THEN 'F' ELSE 'P' END AS STRING)"
                + "   AS status,"
                + " CAST(MOD(id * 37, 10000) / 100.0 AS DECIMAL(12, 2)) AS amount FROM ids");
    Table customers =
        tables.sqlQuery(
            "SELECT CAST(id AS BIGINT) AS customer_id,"
                + " CAST(CASE MOD(id, 4) WHEN 0 THEN 'AFRICA' WHEN 1 THEN 'AMERICA'"
                + "   WHEN 2 THEN 'ASIA' ELSE 'EUROPE' END AS STRING) AS region"
                + " FROM (SELECT * FROM ids WHERE id < "
                + CUSTOMERS
                + ")");

    // Into Quiver: each table as a stream of Arrow batches, registered under a name. The row
    // estimates are what Quiver's planner sizes joins with (a stream has no statistics).
    StreamScans streams = new StreamScans();
    streams.add("orders", TableBridge.toBatches(tables, orders));
    streams.add("customers", TableBridge.toBatches(tables, customers));
    Catalog catalog =
        new Catalog()
            .add(streams.catalogTable("orders", ORDERS))
            .add(streams.catalogTable("customers", CUSTOMERS));

    // Quiver SQL → physical plan → stage graph → Flink operators in this same environment.
    PlanNode plan = new SqlPlanner(catalog).plan(QUIVER_SQL, PARALLELISM);
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);
    out.println(graph.explain());
    DataStream<BatchRecord> totals =
        new StageGraphCompiler().withScanSources(streams).compile(env, graph);

    // Back into Flink SQL: the result is a Table like any other.
    tables.createTemporaryView("quiver_totals", TableBridge.toTable(tables, totals));
    Table result = tables.sqlQuery(FLINK_SQL);
    out.println(result.getResolvedSchema());
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = result.execute().collect()) { // runs the whole program
      it.forEachRemaining(rows::add);
    }
    rows.forEach(out::println);
    return rows;
  }

  /** A local MiniCluster in BATCH mode, set up as Quiver jobs need (see the plan example). */
  static StreamExecutionEnvironment environment() {
    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(PARALLELISM, conf);
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    return env;
  }
}
