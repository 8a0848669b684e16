package dev.quiver.cli.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionBuilder;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.formats.FileFormat;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries, unchanged, on a local MiniCluster at parallelism 1 and 2 over SF 0.01
 * Parquet files, each answer compared with DuckDB's on the same files: every row in order, every
 * column (decimals exact, doubles within 1e-9 relative). Other scales run the same way:
 *
 * <pre>
 *   mvn -B test -pl cli -Dtest=TpchQueriesTest -Dquiver.tpch.scale=1 -Dquiver.tpch.dir=/tmp/tpch-sf1
 * </pre>
 *
 * <p>{@code -Dquiver.tpch.queries=1,9,18} runs only those queries, {@code
 * -Dquiver.tpch.parallelism=2} only that parallelism, and {@code -Dquiver.tpch.memoryBudget=64m}
 * gives every task that memory budget (sorts, aggregations and joins spill beyond it).
 */
@ExtendWith(ArrowLeakCheck.class)
class TpchQueriesTest {
  private static final double SCALE =
      Double.parseDouble(System.getProperty("quiver.tpch.scale", "0.01"));

  @TempDir static Path tempDir;
  private static Path dir;
  private static QuiverSession[] sessions;
  private static Connection duckdb;

  @BeforeAll
  static void setUp() throws Exception {
    String given = System.getProperty("quiver.tpch.dir");
    dir = given == null ? tempDir : Path.of(given);
    long rowsPerFile = SCALE < 0.1 ? 20_000 : TpchGenerator.DEFAULT_ROWS_PER_FILE;
    new TpchGenerator(dir, SCALE, FileFormat.PARQUET, 2, rowsPerFile).generate();
    sessions = new QuiverSession[] {session(1), session(2)};
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = duckdb.createStatement()) {
      TpchDuckDbViews.create(statement, dir);
    }
  }

  private static QuiverSession session(int parallelism) {
    SessionBuilder builder = QuiverSession.builder().parallelism(parallelism);
    String budget = System.getProperty("quiver.tpch.memoryBudget");
    if (budget != null) {
      builder.taskMemoryBudget(bytes(budget));
    }
    QuiverSession session = builder.build();
    TpchCatalog.register(session, dir);
    return session;
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (duckdb != null) {
      duckdb.close();
    }
    if (sessions != null) {
      for (QuiverSession session : sessions) {
        if (session != null) {
          session.close();
        }
      }
    }
  }

  static Stream<Arguments> queries() {
    String only = System.getProperty("quiver.tpch.queries");
    List<Integer> queries =
        only == null
            ? TpchQueries.all()
            : Stream.of(only.split(",")).map(q -> Integer.valueOf(q.trim())).toList();
    String parallelism = System.getProperty("quiver.tpch.parallelism");
    Stream<Integer> parallelisms =
        parallelism == null ? Stream.of(1, 2) : Stream.of(Integer.valueOf(parallelism));
    return parallelisms.flatMap(p -> queries.stream().map(q -> Arguments.of(q, p)));
  }

  /** {@code 64m}, {@code 2g}, {@code 512k} or plain bytes. */
  private static long bytes(String size) {
    String text = size.trim().toLowerCase(java.util.Locale.ROOT);
    int shift =
        switch (text.charAt(text.length() - 1)) {
          case 'k' -> 10;
          case 'm' -> 20;
          case 'g' -> 30;
          default -> 0;
        };
    return Long.parseLong(shift == 0 ? text : text.substring(0, text.length() - 1)) << shift;
  }

  @ParameterizedTest(name = "q{0} at parallelism {1}")
  @MethodSource("queries")
  void answerEqualsDuckDb(int query, int parallelism) throws Exception {
    String sql = TpchQueries.text(query);
    List<List<Object>> expected;
    try (Statement statement = duckdb.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      expected = ResultComparison.rows(rs);
    }
    List<List<Object>> actual;
    try (SqlResult result = sessions[parallelism - 1].sql(sql)) {
      actual = ResultComparison.normalize(result.rows());
    }
    assertThat(expected).as("DuckDB's answer to q%d", query).isNotEmpty();
    assertThat(ResultComparison.difference(expected, actual))
        .as("q%d at parallelism %d", query, parallelism)
        .isNull();
  }
}
