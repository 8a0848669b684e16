package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Aggregates joined on their group keys read only the rows whose keys the other side can match (the
 * planner's semi join under the aggregate, {@code SemiJoinIntoAggregate}), and give DuckDB's
 * answers: correlated subqueries (in WHERE and in SELECT), a derived table, NULL keys with {@code
 * IS NOT DISTINCT FROM}, NOT IN; and no semi join where the aggregate's unmatched groups are kept
 * (the preserved side of an outer join) or where a CTE's aggregate is read twice.
 */
@ExtendWith(ArrowLeakCheck.class)
class AggregateKeyFilterQueryTest {
  /** A query, and whether the aggregate's input is restricted by a semi join. */
  record Case(String sql, boolean restricted) {
    @Override
    public String toString() {
      return sql;
    }
  }

  static List<Case> cases() {
    return List.of(
        // TPC-H Q17's shape: a correlated average per key of the outer query's filtered rows
        new Case(
            "SELECT count(*) AS n, sum(f.x) AS sx FROM f JOIN d ON f.k = d.k WHERE d.cat = 3"
                + " AND f.x > (SELECT avg(f2.x) FROM f f2 WHERE f2.k = d.k)",
            true),
        // a scalar subquery in SELECT: a LEFT join with the aggregate on its right
        new Case(
            "SELECT d.id, d.k, (SELECT sum(x) FROM f WHERE f.k = d.k) AS s FROM d WHERE d.cat = 1"
                + " ORDER BY d.id",
            true),
        new Case(
            "SELECT d.id, s.n, s.sx FROM d JOIN (SELECT k, count(*) AS n, sum(x) AS sx FROM f"
                + " GROUP BY k) s ON s.k = d.k WHERE d.cat = 2 ORDER BY d.id",
            true),
        // NULL keys match each other here: the NULL group must survive the semi join
        new Case(
            "SELECT d.id, s.n FROM d JOIN (SELECT k, count(*) AS n FROM f GROUP BY k) s"
                + " ON s.k IS NOT DISTINCT FROM d.k WHERE d.cat = 0 ORDER BY d.id",
            true),
        new Case(
            "SELECT count(*) AS n FROM d WHERE d.cat = 4 AND d.k NOT IN"
                + " (SELECT k FROM f WHERE k IS NOT NULL GROUP BY k HAVING count(*) > 39)",
            false),
        // a CTE read twice is computed once for both: restricting each use would compute it twice
        new Case(
            "WITH s AS (SELECT k, count(*) AS n FROM f GROUP BY k)"
                + " SELECT d.id, s.n FROM s JOIN d ON s.k = d.k WHERE d.cat = 1"
                + " UNION ALL SELECT d.id, s.n FROM s JOIN d ON s.k = d.k WHERE d.cat = 2"
                + " ORDER BY 1",
            false),
        // the aggregate's groups without a partner stay: nothing may be filtered
        new Case(
            "SELECT count(*) AS groups, count(d.id) AS matched FROM (SELECT k, count(*) AS n"
                + " FROM f GROUP BY k) s LEFT JOIN (SELECT * FROM d WHERE cat = 2) d"
                + " ON s.k = d.k",
            false));
  }

  @TempDir static Path dir;
  private static DuckDbReference duckDb;
  private static QuiverSession session;

  @BeforeAll
  static void write() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      KeyedFacts.write(s, dir.resolve("f.parquet"));
      // 1,000 rows, keys up to 6,993 (some beyond f's), every 50th key NULL
      s.execute(
          "COPY (SELECT i::INTEGER AS id, CASE WHEN i % 50 = 0 THEN NULL ELSE (i * 7)::INTEGER END"
              + " AS k, (i % 5)::INTEGER AS cat FROM range(1000) r(i)) TO '"
              + dir.resolve("d.parquet")
              + "' (FORMAT PARQUET)");
    }
    duckDb = new DuckDbReference();
    session = QuiverSession.builder().parallelism(2).build();
    for (String table : List.of("f", "d")) {
      duckDb.view(table, "read_parquet('" + dir.resolve(table + ".parquet") + "')");
      session.registerTable(table, dir.resolve(table + ".parquet").toString());
    }
  }

  @AfterAll
  static void close() throws Exception {
    session.close();
    duckDb.close();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void givesDuckDbsAnswer(Case c) throws Exception {
    String explain = session.explain(c.sql());
    if (c.restricted()) {
      assertThat(explain).as(explain).contains("LEFT_SEMI");
    } else {
      assertThat(explain).as(explain).doesNotContain("LEFT_SEMI");
    }
    List<List<Object>> expected = duckDb.rows(c.sql());
    assertThat(expected).as("DuckDB's answer").isNotEmpty();
    assertThat(DuckDbReference.normalize(session.sql(c.sql()).rows())).isEqualTo(expected);
  }
}
