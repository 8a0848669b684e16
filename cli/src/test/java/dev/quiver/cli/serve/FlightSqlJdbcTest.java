package dev.quiver.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.cli.tpch.TpchCatalog;
import dev.quiver.cli.tpch.TpchDuckDbViews;
import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.formats.FileFormat;
import dev.quiver.server.Authentication;
import dev.quiver.server.QuiverFlightServer;
import dev.quiver.testing.ArrowLeakCheck;
import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver serve}'s server from a plain JDBC program through the Arrow Flight SQL JDBC driver
 * 18.3, as a BI tool connects: over TPC-H SF 0.01 Parquet files, the answers compared with DuckDB's
 * on the same files; metadata, 8 connections at once, a wrong password, bad SQL, and a cancelled
 * statement whose Flink job ends. Loopback only.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FlightSqlJdbcTest {
  /** Queries with joins, aggregates, subqueries, dates and decimals; each a Flink job. */
  static final List<Integer> QUERIES = List.of(1, 3, 5, 6, 10, 12, 14, 18);

  /** About 3 M rows: more than Flink and gRPC buffer, so its job runs until read or cancelled. */
  static final String LONG =
      "select l.l_orderkey, l.l_comment, n.n_name from lineitem l join nation n"
          + " on l.l_linenumber = n.n_regionkey + 1 or l.l_linenumber = n.n_regionkey + 3";

  @TempDir static Path dir;
  static QuiverSession session;
  static QuiverFlightServer server;
  static Connection duckdb;
  static String url;
  static final Map<Integer, List<List<Object>>> expected = new HashMap<>();

  @BeforeAll
  static void start() throws Exception {
    new TpchGenerator(dir, 0.01, FileFormat.PARQUET, 2, 20_000).generate();
    session = QuiverSession.builder().parallelism(2).build();
    TpchCatalog.register(session, dir);
    server =
        QuiverFlightServer.builder(session)
            .port(0)
            .authentication(Authentication.password("alice", "s3cret"))
            .maxConcurrentQueries(2)
            .start();
    url =
        "jdbc:arrow-flight-sql://127.0.0.1:"
            + server.port()
            + "/?useEncryption=false&user=alice&password=s3cret";
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = duckdb.createStatement()) {
      TpchDuckDbViews.create(statement, dir);
      for (int query : QUERIES) {
        try (ResultSet rs = statement.executeQuery(TpchQueries.text(query))) {
          expected.put(query, ResultComparison.rows(rs));
        }
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (duckdb != null) {
      duckdb.close();
    }
    if (server != null) {
      server.close();
    }
    if (session != null) {
      session.close();
    }
  }

  @AfterEach
  void nothingLeftRunning() throws InterruptedException {
    awaitIdle();
  }

  static void awaitIdle() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline
        && (server.activeQueries() > 0
            || session.openQueries() > 0
            || session.unfinishedJobs().orElseThrow() > 0)) {
      Thread.sleep(20);
    }
    assertThat(server.activeQueries()).as("queries still read").isZero();
    assertThat(session.openQueries()).as("results still open").isZero();
    assertThat(session.unfinishedJobs().orElseThrow()).as("Flink jobs not ended").isZero();
  }

  @Test
  void databaseMetaDataListsTheCatalog() throws Exception {
    try (Connection connection = DriverManager.getConnection(url)) {
      DatabaseMetaData meta = connection.getMetaData();
      assertThat(meta.getDatabaseProductName()).isEqualTo("Quiver");
      assertThat(meta.getIdentifierQuoteString()).isEqualTo("\"");
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = meta.getTables(null, null, "%", null)) {
        while (rs.next()) {
          assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("quiver");
          assertThat(rs.getString("TABLE_TYPE")).isEqualTo("TABLE");
          tables.add(rs.getString("TABLE_NAME"));
        }
      }
      assertThat(tables)
          .containsExactlyInAnyOrderElementsOf(
              TpchTable.getTables().stream().map(TpchTable::getTableName).toList());
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = meta.getColumns(null, null, "nation", null)) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME"));
        }
      }
      assertThat(columns).containsExactly("n_nationkey", "n_name", "n_regionkey", "n_comment");
      try (ResultSet rs = meta.getSchemas()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("TABLE_SCHEM")).isEqualTo("quiver");
      }
    }
  }

  @Test
  void tpchQueriesGiveDuckDbsAnswers() throws Exception {
    try (Connection connection = DriverManager.getConnection(url)) {
      for (int query : QUERIES) {
        assertThat(ResultComparison.difference(expected.get(query), run(connection, query)))
            .as("q%d over JDBC", query)
            .isNull();
      }
      // A warm server: the same small query again, as a JDBC tool sends it.
      List<Long> millis = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        long start = System.nanoTime();
        try (Statement statement = connection.createStatement();
            ResultSet rs = statement.executeQuery("select count(*) from nation")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(25);
        }
        millis.add((System.nanoTime() - start) / 1_000_000);
      }
      System.out.printf(Locale.ROOT, "select count(*) from nation over JDBC, ms: %s%n", millis);
    }
  }

  @Test
  void eightConnectionsAtOnceAllGetTheirAnswers() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> clients = new ArrayList<>();
      for (int c = 0; c < 8; c++) {
        int client = c;
        clients.add(
            pool.submit(
                () -> {
                  try (Connection connection = DriverManager.getConnection(url)) {
                    for (int i = 0; i < 3; i++) {
                      int query = QUERIES.get((client + i * 3) % QUERIES.size());
                      assertThat(
                              ResultComparison.difference(
                                  expected.get(query), run(connection, query)))
                          .as("client %d, q%d", client, query)
                          .isNull();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> client : clients) {
        client.get(100, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWrongPasswordIsRefused() {
    assertThatThrownBy(() -> DriverManager.getConnection(url.replace("s3cret", "wrong")).close())
        .isInstanceOf(SQLException.class)
        .hasStackTraceContaining("UNAUTHENTICATED");
  }

  @Test
  void badSqlIsAnSqlExceptionNamingTheProblem() throws Exception {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeQuery("select n_name from natoin"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("natoin")
          .hasMessageContaining("nation");
      assertThatThrownBy(() -> statement.executeQuery("select n_name frm nation"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("SYNTAX_ERROR");
      // The connection still works.
      try (ResultSet rs = statement.executeQuery("select count(*) from region")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(5);
      }
    }
  }

  @Test
  void aCancelledStatementEndsItsJob() throws Exception {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      long cancelled = server.cancelledQueries();
      ResultSet rs = statement.executeQuery(LONG);
      for (int i = 0; i < 10; i++) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(session.unfinishedJobs().orElseThrow()).as("the job runs").isEqualTo(1);
      statement.cancel();
      awaitIdle(); // the job was cancelled: nobody reads the rest
      assertThat(server.cancelledQueries()).as("queries cancelled").isEqualTo(cancelled + 1);
      try {
        rs.close();
      } catch (SQLException expected) {
        // the driver may report the cancellation when the result set closes
      }
      try (Statement again = connection.createStatement();
          ResultSet count = again.executeQuery("select count(*) from region")) {
        assertThat(count.next()).isTrue();
        assertThat(count.getLong(1)).isEqualTo(5);
      }
    }
  }

  private static List<List<Object>> run(Connection connection, int query) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(TpchQueries.text(query))) {
      return ResultComparison.rows(rs);
    }
  }
}
