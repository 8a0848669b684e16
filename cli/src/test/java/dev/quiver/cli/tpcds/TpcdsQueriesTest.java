package dev.quiver.cli.tpcds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.formats.FileFormat;
import dev.quiver.testing.ArrowLeakCheck;
import io.trino.tpcds.Table;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 99 TPC-DS queries, unchanged, on a local MiniCluster at parallelism 2 over SF 0.01 Parquet
 * files (io.trino.tpcds), each answer compared with DuckDB's on the same files: every row, every
 * column (decimals exact, doubles within 1e-9 relative: {@link ResultComparison}), in order where
 * the query orders its result, as a multiset where it does not ({@link TpcdsComparison}).
 *
 * <p>A query Quiver cannot run yet is listed in {@code tpcds/expected-unsupported.txt} (a test
 * resource) with the error it must fail with: its error code and a part of its message. A listed
 * query that fails otherwise, or runs (a feature was added: take it off the list), fails the test,
 * and so does an unlisted query that fails or gives another answer than DuckDB.
 *
 * <pre>
 *   mvn -B test -pl cli -am -Dtest=TpcdsQueriesTest -Dsurefire.failIfNoSpecifiedTests=false \
 *       -Dquiver.tpcds.scale=1 -Dquiver.tpcds.dir=/tmp/tpcds-sf1 -Dquiver.tpcds.parallelism=4
 * </pre>
 *
 * <p>{@code -Dquiver.tpcds.queries=3,72} runs only those queries; {@code -Dquiver.tpcds.dir} keeps
 * the generated data (generated once, reused if its {@code _SUCCESS} matches).
 */
@ExtendWith(ArrowLeakCheck.class)
class TpcdsQueriesTest {
  private static final double SCALE =
      Double.parseDouble(System.getProperty("quiver.tpcds.scale", "0.01"));
  private static final int PARALLELISM =
      Integer.parseInt(System.getProperty("quiver.tpcds.parallelism", "2"));
  private static final String EXPECTED_UNSUPPORTED = "/tpcds/expected-unsupported.txt";
  // The list describes SF 0.01; at other scales -Dquiver.tpcds.expectedUnsupported=false compares
  // every query with DuckDB (q12 divides by zero only at SF 0.01).
  private static final boolean LIST_APPLIES =
      Boolean.parseBoolean(System.getProperty("quiver.tpcds.expectedUnsupported", "true"));

  /** A query Quiver is expected to refuse, and what it must say. */
  record Unsupported(int query, ErrorCode code, String message, String why) {}

  @TempDir static Path tempDir;
  private static Path dir;
  private static QuiverSession session;
  private static Connection duckdb;

  @BeforeAll
  static void setUp() throws Exception {
    String given = System.getProperty("quiver.tpcds.dir");
    dir = given == null ? tempDir : Path.of(given);
    long rowsPerFile = SCALE < 0.1 ? 50_000 : TpcdsGenerator.DEFAULT_ROWS_PER_FILE;
    new TpcdsGenerator(dir, SCALE, FileFormat.PARQUET, 2, rowsPerFile).generate();
    session = QuiverSession.builder().parallelism(PARALLELISM).build();
    session.registerDirectory(dir);
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = duckdb.createStatement()) {
      statement.execute("SET threads = 2");
      for (Table table : TpcdsSchemas.tables()) {
        statement.execute(
            "CREATE VIEW "
                + table.getName()
                + " AS SELECT * FROM read_parquet('"
                + dir.resolve(table.getName()).resolve("*.parquet")
                + "')");
      }
    }
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (duckdb != null) {
      duckdb.close();
    }
    if (session != null) {
      session.close();
    }
  }

  static Stream<Integer> queries() {
    String only = System.getProperty("quiver.tpcds.queries");
    return only == null
        ? TpcdsQueries.all().stream()
        : Stream.of(only.split(",")).map(q -> Integer.valueOf(q.trim()));
  }

  @ParameterizedTest(name = "q{0}")
  @MethodSource("queries")
  void answerEqualsDuckDbOrIsExpectedUnsupported(int query) throws Exception {
    String sql = TpcdsQueries.text(query);
    Unsupported unsupported = LIST_APPLIES ? expectedUnsupported().get(query) : null;
    if (unsupported != null) {
      assertThatThrownBy(() -> rows(sql))
          .as(
              "q%d is listed in %s as failing with %s '%s'; if it runs now, take it off the list",
              query, EXPECTED_UNSUPPORTED, unsupported.code(), unsupported.message())
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining(unsupported.message())
          .satisfies(e -> assertThat(((QuiverException) e).code()).isEqualTo(unsupported.code()));
      return;
    }
    List<List<Object>> expected;
    try (Statement statement = duckdb.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      expected = ResultComparison.rows(rs);
    }
    String difference = TpcdsComparison.difference(sql, expected, rows(sql));
    assertThat(difference).as("q%d at parallelism %d", query, PARALLELISM).isNull();
  }

  @Test
  void theListNamesEachQueryOnceWithAKnownErrorCode() throws IOException {
    Map<Integer, Unsupported> list = expectedUnsupported();
    assertThat(list.keySet()).allSatisfy(q -> assertThat(q).isBetween(1, TpcdsQueries.COUNT));
    assertThat(list.values()).allSatisfy(u -> assertThat(u.message()).isNotBlank());
  }

  private static List<List<Object>> rows(String sql) {
    try (SqlResult result = session.sql(sql)) {
      return ResultComparison.normalize(result.rows());
    }
  }

  /**
   * The list: one line per query, {@code NN | ERROR_CODE | part of the message | why}; {@code #}
   * starts a comment.
   */
  static Map<Integer, Unsupported> expectedUnsupported() throws IOException {
    Map<Integer, Unsupported> list = new TreeMap<>();
    try (InputStream in = TpcdsQueriesTest.class.getResourceAsStream(EXPECTED_UNSUPPORTED)) {
      assertThat(in).as(EXPECTED_UNSUPPORTED).isNotNull();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String text = line.strip();
        if (text.isEmpty() || text.startsWith("#")) {
          continue;
        }
        String[] parts = text.split("\\s*\\|\\s*", 4);
        assertThat(parts).as("line '%s' of %s", line, EXPECTED_UNSUPPORTED).hasSize(4);
        int query = Integer.parseInt(parts[0]);
        Unsupported entry =
            new Unsupported(
                query, ErrorCode.valueOf(parts[1].toUpperCase(Locale.ROOT)), parts[2], parts[3]);
        assertThat(list.put(query, entry)).as("q%d listed twice", query).isNull();
      }
    }
    return list;
  }
}
