package dev.quiver.examples.plan;

import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.node.PlanBuilder.hash;
import static dev.quiver.plan.node.PlanBuilder.keys;

import dev.quiver.flink.catalog.FileCatalogTables;
import dev.quiver.flink.catalog.FileScanSources;
import dev.quiver.flink.catalog.FileTableSpec;
import dev.quiver.flink.compiler.JobRunner;
import dev.quiver.flink.compiler.QueryResult;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.CatalogTable;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A physical plan written by hand, without SQL, run on a local Flink MiniCluster:
 *
 * <pre>
 *   SELECT c.region, count(*) AS orders, sum(o.amount) AS revenue
 *   FROM orders o JOIN customers c ON o.customer_id = c.customer_id
 *   WHERE o.status = 'F' GROUP BY c.region ORDER BY revenue DESC
 * </pre>
 *
 * {@code orders} is a directory of Parquet files this example writes first; {@code customers} is a
 * small VALUES table. The plan spells out what a SQL planner would choose: the small side of the
 * join is broadcast, the aggregation runs in two phases around a hash shuffle, and the sorted
 * partitions are merged into one. {@link StagePlanner} cuts the plan into stages at those
 * exchanges; {@link JobRunner} compiles the stages into one Flink job and streams the result back.
 *
 * <p>Run: {@code PlanExample [directory]} (default: a new temporary directory).
 */
public final class PlanExample {
  /** Two Flink tasks per distributed stage: enough to see the shuffle and the merge. */
  static final int PARALLELISM = 2;

  static final int FILES = 4;
  static final int ROWS_PER_FILE = 2_500;
  static final int CUSTOMERS = 40;
  static final List<String> STATUSES = List.of("O", "F", "P");
  static final List<String> REGIONS = List.of("AFRICA", "AMERICA", "ASIA", "EUROPE");

  /** The stored orders: order_id, customer_id, status, amount. */
  static final RowSchema ORDERS =
      RowSchema.of(
          Column.notNull("order_id", SqlType.BIGINT),
          Column.notNull("customer_id", SqlType.BIGINT),
          Column.notNull("status", SqlType.VARCHAR),
          Column.notNull("amount", SqlType.decimal(12, 2)));

  private PlanExample() {}

  public static void main(String[] args) throws Exception {
    Path dir =
        args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("quiver-plan-example");
    run(dir, System.out);
  }

  /** Writes the orders under {@code dir}, prints the stages, runs them; returns the result rows. */
  static List<List<Object>> run(Path dir, PrintStream out) throws Exception {
    try (BufferAllocator allocator = Allocators.newChild("plan example")) {
      Path orders = writeOrders(dir.resolve("orders"), allocator);
      PlanNode plan = plan(orders);

      // Cut at the exchanges: every stage is a chain of operators that runs as one Flink task per
      // partition. EXPLAIN shows each stage's tasks, how it reads its inputs and its operators.
      StagePlanner planner = StagePlanner.withDefaultRewrites();
      StageGraph graph = planner.plan(plan);
      out.println(graph.explain());

      // Scans of files need a scan source factory: FileScanSources turns each planned scan into a
      // Flink source whose task t reads exactly the files the stage planner gave task t.
      JobRunner runner =
          new JobRunner(planner, new StageGraphCompiler().withScanSources(new FileScanSources()));
      List<List<Object>> rows = new ArrayList<>();
      try (QueryResult result = runner.run(environment(), graph, allocator, "plan example")) {
        while (result.hasNext()) {
          try (VectorSchemaRoot batch = result.next()) { // the caller owns (and closes) each batch
            rows.addAll(rows(batch));
          }
        }
      }
      out.printf("%-8s %7s %12s%n", "region", "orders", "revenue");
      for (List<Object> row : rows) {
        out.printf("%-8s %7d %12s%n", row.get(0), row.get(1), row.get(2));
      }
      return rows;
    }
  }

  /** The query of the class comment as a physical plan. */
  static PlanNode plan(Path orders) {
    // The catalog entry gives the file table's schema, one split unit per file and the options
    // FileScanSources reads it back with.
    CatalogTable table = FileCatalogTables.open("orders", FileTableSpec.of(orders.toString()));
    TableSource source =
        new TableSource(table.name(), table.schema(), table.units(), table.options());
    PlanBuilder scan = PlanBuilder.scan(source, PARALLELISM);
    PlanBuilder finished = scan.filter(call(ScalarFunction.EQUAL, scan.col(2), lit("F")));

    // Joins are called on the probe side. BROADCAST sends every customer row to every task that
    // reads orders, so the (large) orders never move; the planner adds the Broadcast exchange.
    // Joined rows are [probe columns][build columns]: 0 order_id, 1 customer_id, 2 status,
    // 3 amount, 4 customer_id, 5 region.
    PlanBuilder joined =
        finished.hashJoin(
            JoinType.INNER, customers(), keys(0), keys(1), JoinDistribution.BROADCAST);

    // Two-phase aggregation: each task pre-aggregates its rows, the partial states are shuffled
    // by region (hash of the key, so one task sees all of a region) and finished there.
    List<AggregateCall> calls =
        List.of(
            AggregateCall.countStar("orders"), joined.call(AggregateFunction.SUM, 3, "revenue"));
    return joined
        .aggregate(AggregateMode.PARTIAL, keys(5), calls)
        .repartition(hash(0), PARALLELISM)
        .aggregate(AggregateMode.FINAL, keys(5), calls) // output: region, orders, revenue
        .sort(SortKey.desc(2)) // each task sorts its regions ...
        .merge() // ... and one task merges the sorted partitions
        .build();
  }

  /** customer_id, region: customer c lives in region {@code c % 4}. */
  static PlanBuilder customers() {
    RowSchema schema =
        RowSchema.of(
            Column.notNull("customer_id", SqlType.BIGINT),
            Column.notNull("region", SqlType.VARCHAR));
    List<List<Object>> rows = new ArrayList<>();
    for (long c = 0; c < CUSTOMERS; c++) {
      rows.add(List.of(c, REGIONS.get((int) (c % REGIONS.size()))));
    }
    return PlanBuilder.values(schema, rows);
  }

  /**
   * Order {@code i}: customer {@code i % 40}, status O, F, P in turn, amount from 0.00 to 99.99.
   */
  static List<Object> order(long i) {
    return List.of(
        i,
        i % CUSTOMERS,
        STATUSES.get((int) (i % STATUSES.size())),
        BigDecimal.valueOf(i * 37 % 10_000, 2));
  }

  /** {@code FILES} Parquet files of {@code ROWS_PER_FILE} orders each, written atomically. */
  static Path writeOrders(Path dir, BufferAllocator allocator) throws Exception {
    Files.createDirectories(dir);
    Schema schema = ORDERS.toArrow();
    for (int f = 0; f < FILES; f++) {
      Path file = dir.resolve("part-" + f + ".parquet");
      if (Files.exists(file)) {
        continue; // written by an earlier run into the same directory
      }
      try (BatchFileWriter writer =
              BatchFileWriter.open(file, FileFormat.PARQUET, schema, allocator);
          VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
        batch.allocateNew();
        for (int r = 0; r < ROWS_PER_FILE; r++) {
          List<Object> order = order((long) f * ROWS_PER_FILE + r);
          ((BigIntVector) batch.getVector(0)).setSafe(r, (Long) order.get(0));
          ((BigIntVector) batch.getVector(1)).setSafe(r, (Long) order.get(1));
          ((VarCharVector) batch.getVector(2))
              .setSafe(r, ((String) order.get(2)).getBytes(StandardCharsets.UTF_8));
          ((DecimalVector) batch.getVector(3)).setSafe(r, (BigDecimal) order.get(3));
        }
        batch.setRowCount(ROWS_PER_FILE);
        writer.write(batch);
        writer.commit();
      }
    }
    return dir;
  }

  /**
   * A local MiniCluster in BATCH mode, as Quiver jobs run: no silent Kryo fallback, batches passed
   * between chained operators without copies, and exactly the task counts the stages ask for.
   */
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

  /** The rows of {@code batch} as Java values (strings as String, decimals as BigDecimal). */
  static List<List<Object>> rows(VectorSchemaRoot batch) {
    List<List<Object>> rows = new ArrayList<>();
    for (int r = 0; r < batch.getRowCount(); r++) {
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < batch.getFieldVectors().size(); c++) {
        Object value = batch.getVector(c).getObject(r);
        row.add(value instanceof Text text ? text.toString() : value);
      }
      rows.add(row);
    }
    return rows;
  }
}
