package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table stored as one Parquet file is read by one task; with the spread on (threshold 0 here, so
 * that a small file counts), its rows reach every task of the stage above through a round-robin
 * exchange. The answers are DuckDB's at parallelism 1, 2 and 4, and no row is read twice or lost
 * (counts and distinct counts of a unique column).
 */
@ExtendWith(ArrowLeakCheck.class)
class SpreadScanTest {
  private static final long ROWS = 300_000;

  private static final List<String> QUERIES =
      List.of(
          // the probe of a broadcast join, then a partial aggregate, in every task
          "SELECT d.name, count(*) AS n, sum(f.amount) AS total FROM f JOIN d ON f.k = d.k"
              + " WHERE f.x % 3 <> 0 GROUP BY d.name ORDER BY d.name",
          // every row exactly once
          "SELECT count(*) AS n, count(DISTINCT x) AS xs, sum(x) AS sx, min(x) AS lo, max(x) AS hi"
              + " FROM f",
          // a sort in every task, merged
          "SELECT x, k FROM f WHERE x % 1000 = 7 ORDER BY x DESC LIMIT 20");

  @TempDir static Path dir;
  private static Path fact;
  private static Path dimension;
  private static List<List<List<Object>>> duckDb;

  @BeforeAll
  static void write() throws Exception {
    fact = dir.resolve("f.parquet");
    dimension = dir.resolve("d.parquet");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT i::BIGINT AS x, (i % 50)::INTEGER AS k, (i % 997 / 100)::DECIMAL(15,2)"
              + " AS amount FROM range("
              + ROWS
              + ") r(i)) TO '"
              + fact
              + "' (FORMAT PARQUET, ROW_GROUP_SIZE 16384)");
      s.execute(
          "COPY (SELECT i::INTEGER AS k, 'name-' || (i % 7) AS name FROM range(40) r(i)) TO '"
              + dimension
              + "' (FORMAT PARQUET)");
    }
    try (DuckDbReference reference = new DuckDbReference()) {
      reference.view("f", "read_parquet('" + fact + "')");
      reference.view("d", "read_parquet('" + dimension + "')");
      duckDb = new ArrayList<>();
      for (String query : QUERIES) {
        duckDb.add(reference.rows(query));
      }
    }
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void answersAreDuckDbsAtEveryParallelism(int parallelism) {
    try (QuiverSession session =
        QuiverSession.builder().parallelism(parallelism).spreadThreshold(0).build()) {
      session.registerTable("f", fact.toString());
      session.registerTable("d", dimension.toString());

      String plan = session.explain(QUERIES.get(0));
      if (parallelism == 1) {
        assertThat(plan).doesNotContain("round-robin");
      } else {
        assertThat(plan)
            .contains("output=round-robin(" + parallelism + ")")
            .containsPattern("Scan\\[f \\[[^]]*\\], units=1, tasks=\\[1 unit [0-9]+ B\\]\\]");
      }
      for (int q = 0; q < QUERIES.size(); q++) {
        List<List<Object>> rows = session.sql(QUERIES.get(q)).rows();
        assertThat(DuckDbReference.normalize(rows)).as(QUERIES.get(q)).isEqualTo(duckDb.get(q));
      }
      assertThat(session.sql(QUERIES.get(1)).rows().get(0).subList(0, 2))
          .containsExactly(ROWS, ROWS);
    }
  }
}
