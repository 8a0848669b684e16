package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.sql.RuntimeFilterPolicy;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partitioned joins whose probe rows are filtered by the build keys before the shuffle give
 * DuckDB's answers: a filter that removes every row, one that removes none, NULL keys on both
 * sides, each join type that can be filtered, and a build side that fails (the query fails with the
 * build side's error instead of waiting for keys that never come). Every join is partitioned (no
 * broadcast) and filtered (policy EVERY_JOIN), which EXPLAIN shows.
 */
@ExtendWith(ArrowLeakCheck.class)
class RuntimeFilterQueryTest {
  private static final List<String> QUERIES =
      List.of(
          // removes every probe row: no build key is among the probe's
          "SELECT count(*) AS n, sum(f.x) AS sx FROM f JOIN nomatch b ON f.k = b.k",
          // removes none: every probe key is a build key (some twice)
          "SELECT count(*) AS n, sum(f.x) AS sx, count(DISTINCT f.x) AS xs FROM f JOIN allmatch b"
              + " ON f.k = b.k",
          // NULL keys on both sides never match; unmatched build rows are kept by RIGHT
          "SELECT b.k, b.tag, count(f.x) AS n FROM f RIGHT JOIN somematch b ON f.k = b.k"
              + " GROUP BY b.k, b.tag ORDER BY b.k NULLS FIRST, b.tag",
          // semi and anti joins built on the probe's keys
          "SELECT count(*) AS n FROM somematch b WHERE b.k IN (SELECT k FROM f)",
          "SELECT count(*) AS n FROM somematch b WHERE NOT EXISTS (SELECT 1 FROM f WHERE f.k = b.k)",
          // a selective filter with a residual condition above it
          "SELECT f.k, count(*) AS n, sum(f.x) AS sx FROM f JOIN somematch b ON f.k = b.k"
              + " AND f.x % 7 <> b.tag GROUP BY f.k ORDER BY f.k");

  @TempDir static Path dir;
  private static List<List<List<Object>>> duckDb;
  private static QuiverSession session;

  @BeforeAll
  static void write() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      KeyedFacts.write(s, dir.resolve("f.parquet"));
      s.execute(
          "COPY (SELECT (10000 + i)::INTEGER AS k FROM range(300) r(i)) TO '"
              + dir.resolve("nomatch.parquet")
              + "' (FORMAT PARQUET)");
      s.execute(
          "COPY (SELECT (i % 5000)::INTEGER AS k FROM range(6000) r(i)) TO '"
              + dir.resolve("allmatch.parquet")
              + "' (FORMAT PARQUET)");
      s.execute(
          "COPY (SELECT CASE WHEN i % 10 = 0 THEN NULL ELSE (i * 37)::INTEGER END AS k,"
              + " (i % 5)::BIGINT AS tag FROM range(200) r(i)) TO '"
              + dir.resolve("somematch.parquet")
              + "' (FORMAT PARQUET)");
    }
    try (DuckDbReference reference = new DuckDbReference()) {
      for (String table : List.of("f", "nomatch", "allmatch", "somematch")) {
        reference.view(table, "read_parquet('" + dir.resolve(table + ".parquet") + "')");
      }
      duckDb = new ArrayList<>();
      for (String query : QUERIES) {
        duckDb.add(reference.rows(query));
      }
    }
    session =
        QuiverSession.builder()
            .parallelism(2)
            .broadcastThreshold(0)
            .runtimeFilters(RuntimeFilterPolicy.EVERY_JOIN)
            .build();
    for (String table : List.of("f", "nomatch", "allmatch", "somematch")) {
      session.registerTable(table, dir.resolve(table + ".parquet").toString());
    }
  }

  @AfterAll
  static void close() {
    session.close();
  }

  @Test
  void filteredJoinsGiveDuckDbsAnswers() {
    for (int q = 0; q < QUERIES.size(); q++) {
      String query = QUERIES.get(q);
      assertThat(session.explain(query))
          .as(query)
          .contains("runtime filter")
          .contains("filtered probe");
      assertThat(DuckDbReference.normalize(session.sql(query).rows()))
          .as(query)
          .isEqualTo(duckDb.get(q));
    }
    assertThat(((Number) duckDb.get(0).get(0).get(0)).longValue())
        .as("the filter that removes all")
        .isZero();
    assertThat(((Number) duckDb.get(1).get(0).get(0)).longValue())
        .as("the filter that removes none")
        .isGreaterThanOrEqualTo(200_000 - 2_062); // every probe row but the NULL keys
  }

  @Test
  void aBuildSideThatFailsFailsTheQueryWithItsError() {
    String query =
        "SELECT count(*) FROM f JOIN (SELECT k FROM somematch WHERE 10 / (tag - 3) > 0) b ON f.k = b.k";
    assertThat(session.explain(query)).contains("runtime filter");
    assertThatThrownBy(() -> session.sql(query).rows())
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("division by zero");
  }
}
