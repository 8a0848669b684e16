package dev.quiver.flink.catalog;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.compiler.JobRunner;
import dev.quiver.flink.compiler.QueryResult;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.plan.distribute.SplitAssigner;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.ScanFilter;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TableSource;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.CatalogTable;
import dev.quiver.stage.StageGraph;
import dev.quiver.stage.StagePlanner;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans of catalog file tables: only the scan's columns are read, each task reads its planned
 * files, and files that changed since registration are reported with the table's name.
 */
@ExtendWith(ArrowLeakCheck.class)
class FileScanSourcesTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  @TempDir Path dir;

  @Test
  void readsExactlyTheScanColumnsFromThePlannedFiles(BufferAllocator allocator) throws Exception {
    Path orders = OrdersFiles.writeParquet(dir.resolve("orders"), 3, 200, allocator);
    CatalogTable table = FileCatalogTables.open("orders", FileTableSpec.of(orders.toString()));
    // What the SQL planner leaves of the table when a query uses two columns (projection pushdown).
    RowSchema twoColumns =
        new RowSchema(List.of(table.schema().column(2), table.schema().column(0)));
    Scan scan = planned(table, twoColumns, 2);

    List<List<Object>> rows = new ArrayList<>();
    DataStream<BatchRecord> stream =
        new FileScanSources()
            .source(batchEnvironment(), scan, BatchTypeInfo.of(scan.arrowSchema(), "test"));
    assertThat(stream.getParallelism()).isEqualTo(2);
    try (CloseableIterator<BatchRecord> records = BatchResults.collect(stream, allocator, "scan")) {
      while (records.hasNext()) {
        try (BatchRecord record = records.next()) {
          assertThat(record.batch().getSchema().getFields())
              .extracting(f -> f.getName())
              .containsExactly("status", "id");
          rows.addAll(BatchRows.rows(record.batch()));
        }
      }
    }
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> row : OrdersFiles.rows(0, 600)) {
      expected.add(List.of(row.get(2), row.get(0)));
    }
    assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void scansOfOtherTablesAreRejected() {
    TableSource source =
        new TableSource("mem", RowSchema.of(Column.of("x", SqlType.BIGINT)), List.of());
    Scan scan = new Scan(source, 1).withAssignment(List.of(List.of()));

    assertThatThrownBy(() -> new FileScanSources().source(batchEnvironment(), scan, type(scan)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table 'mem' is not stored in files");
  }

  @Test
  void aColumnWhoseTypeChangedSinceRegistrationIsASchemaMismatch(BufferAllocator allocator) {
    Path file = dir.resolve("orders.csv");
    OrdersFiles.write(file, FileFormat.CSV, OrdersFiles.rows(0, 20), allocator);
    CatalogTable table = FileCatalogTables.open("orders", FileTableSpec.of(file.toString()));
    Scan scan = planned(table, table.schema(), 1);
    // The file is replaced by one whose amount column no longer parses as a number.
    rewrite(file, "id,amount\n1,cheap\n");

    assertThatThrownBy(() -> new FileScanSources().source(batchEnvironment(), scan, type(scan)))
        .isInstanceOf(QuiverException.class)
        .matches(e -> ((QuiverException) e).code() == ErrorCode.SCHEMA_MISMATCH)
        .hasMessageContaining("table 'orders'")
        .hasMessageContaining("Column 'customer'")
        .hasMessageContaining("no such column");

    rewrite(file, "id,customer,status,amount\n1,a,O,cheap\n");
    Scan narrow = planned(table, new RowSchema(table.schema().columns().subList(0, 4)), 1);
    assertThatThrownBy(() -> new FileScanSources().source(batchEnvironment(), narrow, type(narrow)))
        .matches(e -> ((QuiverException) e).code() == ErrorCode.SCHEMA_MISMATCH)
        .hasMessageContaining("Column 'amount' of table 'orders'")
        .hasMessageContaining("now store it as Utf8");
  }

  @Test
  void deletedFilesAreReportedWithTheTable(BufferAllocator allocator) throws Exception {
    Path orders = OrdersFiles.writeParquet(dir.resolve("orders"), 2, 10, allocator);
    CatalogTable table = FileCatalogTables.open("orders", FileTableSpec.of(orders.toString()));
    Scan scan = planned(table, table.schema(), 2);

    Files.delete(orders.resolve("part-1.parquet"));
    assertThatThrownBy(() -> new FileScanSources().source(batchEnvironment(), scan, type(scan)))
        .matches(e -> ((QuiverException) e).code() == ErrorCode.FILE_NOT_FOUND)
        .hasMessageContaining("part-1.parquet")
        .hasMessageContaining("table 'orders'");

    Files.delete(orders.resolve("part-0.parquet"));
    assertThatThrownBy(() -> new FileScanSources().source(batchEnvironment(), scan, type(scan)))
        .matches(e -> ((QuiverException) e).code() == ErrorCode.FILE_NOT_FOUND)
        .hasMessageContaining("Table 'orders'");
  }

  /** A scan of {@code schema} of {@code table}, its units spread over {@code tasks} tasks. */
  @Test
  void aFilteredScanIsPlannedAndReadWithoutTheFilesTheFilterRulesOut(BufferAllocator allocator)
      throws Exception {
    Path orders = OrdersFiles.writeParquet(dir.resolve("orders"), 3, 200, allocator);
    CatalogTable table = FileCatalogTables.open("orders", FileTableSpec.of(orders.toString()));
    ScanFilter filter =
        ScanFilter.of(
            new ScanFilter.Comparison("id", ScanFilter.Op.GE, new Literal(250L, SqlType.BIGINT)),
            new ScanFilter.Comparison("id", ScanFilter.Op.LT, new Literal(300L, SqlType.BIGINT)));
    RowSchema idOnly = new RowSchema(List.of(table.schema().column(0)));

    List<SplitUnit> units = table.units(filter);
    assertThat(units)
        .extracting(SplitUnit::path)
        .containsExactly(orders.resolve("part-1.parquet").toString());
    List<Long> pruned = ids(filtered(table, idOnly, filter, units), allocator);
    // Planned without statistics (every unit): the reader drops what the filter rules out.
    List<Long> unpruned = ids(filtered(table, idOnly, filter, table.units()), allocator);

    for (List<Long> ids : List.of(pruned, unpruned)) {
      assertThat(ids).allSatisfy(id -> assertThat(id).isBetween(200L, 399L));
      assertThat(ids).containsAll(LongStream.range(250, 300).boxed().toList());
    }
  }

  private static Scan filtered(
      CatalogTable table, RowSchema schema, ScanFilter filter, List<SplitUnit> units) {
    TableSource source =
        new TableSource(table.name(), schema, table.units(), table.options())
            .withFilter(filter, units);
    return new Scan(source, 2).withAssignment(SplitAssigner.assign(units, 2));
  }

  private static List<Long> ids(Scan scan, BufferAllocator allocator) throws Exception {
    List<Long> ids = new ArrayList<>();
    DataStream<BatchRecord> stream =
        new FileScanSources().source(batchEnvironment(), scan, type(scan));
    try (CloseableIterator<BatchRecord> records = BatchResults.collect(stream, allocator, "scan")) {
      while (records.hasNext()) {
        try (BatchRecord record = records.next()) {
          BatchRows.rows(record.batch()).forEach(row -> ids.add((Long) row.get(0)));
        }
      }
    }
    return ids;
  }

  /**
   * A stage that reads a broadcast input and scans a file table runs the scan's source in its own
   * task (source chaining): the scanned rows never pass through a blocking partition, and only the
   * broadcast input is an edge of the stage's job vertex.
   */
  @Test
  void aScanBesideABroadcastInputIsChainedIntoTheStageTask(BufferAllocator allocator)
      throws Exception {
    Path orders = OrdersFiles.writeParquet(dir.resolve("orders"), 3, 200, allocator);
    CatalogTable table = FileCatalogTables.open("orders", FileTableSpec.of(orders.toString()));
    RowSchema ids = new RowSchema(List.of(table.schema().column(0)));
    PlanBuilder probe = PlanBuilder.scan(planned(table, ids, 2).source(), 2);
    PlanBuilder scanned = PlanBuilder.scan(planned(table, ids, 1).source(), 1);
    PlanBuilder build =
        scanned.filter(Exprs.call(ScalarFunction.LESS_THAN, scanned.col(0), Exprs.lit(50L)));
    PlanNode plan =
        probe
            .hashJoin(
                JoinType.LEFT_SEMI,
                build,
                PlanBuilder.keys(0),
                PlanBuilder.keys(0),
                JoinDistribution.BROADCAST)
            .build();
    StageGraphCompiler compiler = new StageGraphCompiler().withScanSources(new FileScanSources());
    StageGraph graph = StagePlanner.withDefaultRewrites().plan(plan);
    StreamExecutionEnvironment env = batchEnvironment();
    compiler.compile(env, graph).sinkTo(new DiscardingSink<>());
    JobGraph job = env.getStreamGraph().getJobGraph();
    JobVertex joined = null;
    for (JobVertex vertex : job.getVertices()) {
      if (vertex.getName().contains("HashJoin")) {
        joined = vertex;
      }
    }
    assertThat(joined).as("the join's vertex").isNotNull();
    assertThat(joined.getName()).contains("[Source: scan ");
    assertThat(joined.getInputs()).as("only the broadcast edge").hasSize(1);

    List<List<Object>> rows = new ArrayList<>();
    try (QueryResult result =
        new JobRunner(StagePlanner.withDefaultRewrites(), compiler)
            .run(batchEnvironment(), plan, allocator, "chained-scan")) {
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          rows.addAll(BatchRows.rows(batch));
        }
      }
    }
    assertThat(rows)
        .containsExactlyInAnyOrderElementsOf(
            LongStream.range(0, 50).mapToObj(i -> List.<Object>of(i)).toList());
  }

  private static Scan planned(CatalogTable table, RowSchema schema, int tasks) {
    TableSource source = new TableSource(table.name(), schema, table.units(), table.options());
    return new Scan(source, tasks).withAssignment(SplitAssigner.assign(table.units(), tasks));
  }

  private static BatchTypeInfo type(Scan scan) {
    return BatchTypeInfo.of(scan.arrowSchema(), "test");
  }

  private static void rewrite(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
