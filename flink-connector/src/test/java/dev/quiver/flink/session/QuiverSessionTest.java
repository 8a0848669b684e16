package dev.quiver.flink.session;

import static dev.quiver.flink.session.DuckDbReference.normalize;
import static dev.quiver.flink.session.DuckDbReference.sorted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.sql.CatalogTable;
import dev.quiver.stage.Stage;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SQL over files end to end on one local session: the same orders rows stored as Parquet (three
 * files) and as CSV (two files, declared schema), queried through Quiver and checked against DuckDB
 * on the Parquet files.
 */
@ExtendWith(ArrowLeakCheck.class)
class QuiverSessionTest {
  private static final int FILES = 3;
  private static final int ROWS_PER_FILE = 1000;

  @TempDir static Path dir;
  private static QuiverSession session;
  private static DuckDbReference duckdb;

  @BeforeAll
  static void start() throws Exception {
    Path parquet = dir.resolve("orders");
    Path csv = Files.createDirectories(dir.resolve("orders_csv"));
    try (BufferAllocator allocator = Allocators.newChild("write orders")) {
      OrdersFiles.writeParquet(parquet, FILES, ROWS_PER_FILE, allocator);
      int half = FILES * ROWS_PER_FILE / 2;
      OrdersFiles.write(csv.resolve("a.csv"), FileFormat.CSV, OrdersFiles.rows(0, half), allocator);
      OrdersFiles.write(
          csv.resolve("b.csv"), FileFormat.CSV, OrdersFiles.rows(half, half), allocator);
    }
    session = QuiverSession.builder().parallelism(2).build();
    session.registerTable("orders", parquet.toString());
    session.registerTable(
        "orders_csv",
        csv.toString(),
        Optional.of(FileFormat.CSV),
        CsvOptions.DEFAULT,
        Optional.of(OrdersFiles.SCHEMA));
    duckdb = new DuckDbReference();
    duckdb.view("orders", "read_parquet('" + parquet + "/*.parquet')");
  }

  @AfterAll
  static void stop() throws Exception {
    if (session != null) {
      session.close();
    }
    if (duckdb != null) {
      duckdb.close();
    }
  }

  @Test
  void filterAndProject() throws Exception {
    String sql =
        "SELECT id, customer, amount * 2 AS doubled, order_date FROM %s"
            + " WHERE status = 'F' AND quantity > 20 AND customer IS NOT NULL";
    assertSameRowsAsDuckDb(sql, false);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"orders", "orders_csv"})
  void groupByWithAggregates(String table) throws Exception {
    String sql =
        "SELECT status, count(*) AS n, count(customer) AS customers, sum(amount) AS total,"
            + " sum(quantity) AS qty, avg(discount) AS avg_discount, avg(quantity) AS avg_qty,"
            + " min(order_date) AS first_day, max(amount) AS top"
            + " FROM %s GROUP BY status";
    assertThat(rows(sql.formatted(table)))
        .hasSize(3)
        .containsExactlyElementsOf(sorted(duckdb.rows(sql.formatted("orders"))));
  }

  @Test
  void orderByWithLimit() throws Exception {
    assertSameRowsAsDuckDb(
        "SELECT id, amount, discount FROM %s WHERE priority" + " ORDER BY amount DESC, id LIMIT 12",
        true);
    assertSameRowsAsDuckDb(
        "SELECT customer, sum(amount) AS total FROM %s GROUP BY customer"
            + " ORDER BY total DESC, customer NULLS FIRST LIMIT 5",
        true);
  }

  @Test
  void globalAggregateOverCsv() throws Exception {
    String sql =
        "SELECT count(*) AS n, sum(amount) AS total, count(DISTINCT customer) AS customers"
            + " FROM %s WHERE order_date >= DATE '2024-06-01' AND NOT priority";
    assertThat(rows(sql.formatted("orders_csv")))
        .containsExactlyElementsOf(duckdb.rows(sql.formatted("orders")));
  }

  @Test
  void resultsHaveTheQueryColumnNamesAndJavaValues() {
    try (SqlResult result = session.sql("SELECT * FROM orders WHERE id < 15 ORDER BY id")) {
      assertThat(result.schema().getFields())
          .extracting(Field::getName)
          .containsExactly(
              "id",
              "customer",
              "status",
              "amount",
              "quantity",
              "order_date",
              "discount",
              "priority");
      List<List<Object>> rows = new ArrayList<>();
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          assertThat(batch.getSchema().getFields())
              .extracting(Field::getName)
              .isEqualTo(result.schema().getFields().stream().map(Field::getName).toList());
          rows.addAll(ResultValues.rows(batch));
        }
      }
      // Long, String, BigDecimal of scale 2, Integer, LocalDate, Double, Boolean, null: exactly.
      assertThat(rows).isEqualTo(OrdersFiles.rows(0, 15));
    }
    try (SqlResult result =
        session.sql("SELECT status AS s, amount * 2 AS \"Doubled\" FROM orders WHERE id < 3")) {
      assertThat(result.schema().getFields())
          .extracting(Field::getName)
          .containsExactly("s", "Doubled");
      assertThat(result.rows()).hasSize(3);
    }
  }

  @Test
  void scansReadOnlyTheColumnsTheQueryUses() {
    List<Scan> scans =
        scans(
            session.stageGraph("SELECT status, sum(amount) FROM orders GROUP BY status").stages());

    assertThat(scans).singleElement();
    assertThat(scans.get(0).source().schema().columns())
        .extracting(Column::name)
        .containsExactlyInAnyOrder("status", "amount");
  }

  @Test
  void registeredDirectoryTablesCanBeQueriedTogetherWithOthers() throws Exception {
    Path tables = Files.createDirectories(dir.resolve("tables"));
    try (BufferAllocator allocator = Allocators.newChild("write tables")) {
      OrdersFiles.write(
          tables.resolve("recent.arrow"), FileFormat.ARROW_IPC, OrdersFiles.rows(0, 40), allocator);
    }

    List<CatalogTable> registered = session.registerDirectory(tables);

    assertThat(registered).extracting(CatalogTable::name).containsExactly("recent");
    assertThat(session.catalog().table("RECENT")).isPresent();
    assertThat(session.sql("SELECT count(*), max(id) FROM recent WHERE status = 'O'").rows())
        .containsExactly(List.of(14L, 39L));
  }

  @Test
  void explainShowsThePlanAndItsStages() {
    String sql = "SELECT status, count(*) FROM orders WHERE quantity > 3 GROUP BY status";

    String explain = session.explain(sql);

    assertThat(explain)
        .contains(
            "Stage 0",
            "Scan[orders [status, quantity], filter=(quantity > 3), units=3",
            "Stage 1 (final)");
    assertThat(session.explainDot(sql)).startsWith("digraph");
  }

  private static void assertSameRowsAsDuckDb(String sql, boolean ordered) throws Exception {
    List<List<Object>> expected = duckdb.rows(sql.formatted("orders"));
    assertThat(expected).isNotEmpty();
    for (String table : List.of("orders", "orders_csv")) {
      List<List<Object>> actual = rows(sql.formatted(table));
      if (ordered) {
        assertThat(actual).as(table).containsExactlyElementsOf(expected);
      } else {
        assertThat(actual).as(table).containsExactlyElementsOf(sorted(expected));
      }
    }
  }

  /** Quiver's rows, normalized like DuckDB's; sorted unless the query orders them. */
  private static List<List<Object>> rows(String sql) {
    List<List<Object>> rows = normalize(session.sql(sql).rows());
    return sql.contains("ORDER BY") ? rows : sorted(rows);
  }

  static List<Scan> scans(List<Stage> stages) {
    List<Scan> scans = new ArrayList<>();
    for (Stage stage : stages) {
      stage.plan().accept(new ScanCollector(scans));
    }
    return scans;
  }

  private static final class ScanCollector extends DefaultPlanVisitor<Void> {
    private final List<Scan> scans;

    ScanCollector(List<Scan> scans) {
      this.scans = scans;
    }

    @Override
    protected Void visitDefault(PlanNode node) {
      node.children().forEach(child -> child.accept(this));
      return null;
    }

    @Override
    public Void visitScan(Scan scan) {
      scans.add(scan);
      return null;
    }
  }
}
