package dev.quiver.sql;

import java.io.IOException;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Plans the 99 TPC-DS queries, read unchanged from the repository's one copy ({@code
 * tpcds/queries}), against the TPC-DS SF 1 schema and row counts ({@link TpcdsCatalog}) at
 * parallelism 2, and compares the EXPLAIN (plan, rewritten plan, stage graph) with {@code
 * src/test/resources/explain/tpcds/qNN.txt}; a query Quiver cannot plan yet has its one-line error
 * there instead. Accept intended changes with {@code -Dquiver.golden.update=true} and review the
 * diff:
 *
 * <pre>
 *   mvn -B test -pl sql -Dtest=TpcdsExplainGoldenTest -Dquiver.golden.update=true
 * </pre>
 */
class TpcdsExplainGoldenTest {
  private static final Catalog CATALOG = TpcdsCatalog.sf1();

  static Stream<String> queries() {
    return IntStream.rangeClosed(1, 99).mapToObj(q -> String.format("q%02d", q));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("queries")
  void explainMatchesGoldenFile(String query) throws IOException {
    String sql = TpcdsCatalog.read("/tpcds/" + query.substring(1) + ".sql");
    int hits = LogicalRewrites.MATCH_LIMIT_HITS.get();
    String explain;
    try {
      explain = SqlExplainGoldenTest.explain(new SqlPlanner(CATALOG).plan(sql, 2));
    } catch (RuntimeException e) {
      explain = "-- error\n" + e.getMessage() + "\n";
    }
    org.junit.jupiter.api.Assertions.assertEquals(
        hits,
        LogicalRewrites.MATCH_LIMIT_HITS.get(),
        query + ": a rewrite program ran into its match limit (rules undoing each other)");
    SqlExplainGoldenTest.check("tpcds/" + query + ".txt", explain);
  }
}
