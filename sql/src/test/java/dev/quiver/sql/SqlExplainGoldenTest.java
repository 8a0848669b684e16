package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.stage.StagePlanner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Plans TPC-H queries, read unchanged from {@code src/test/resources/tpch/}, at parallelism 2 and
 * compares the EXPLAIN (plan, rewritten plan when different, stage graph) with {@code
 * src/test/resources/explain/NAME.txt}. Accept intended changes with {@code
 * -Dquiver.golden.update=true} and review the diff:
 *
 * <pre>
 *   mvn -B -o test -pl sql -Dtest=SqlExplainGoldenTest -Dquiver.golden.update=true
 * </pre>
 */
class SqlExplainGoldenTest {
  private static final Path DIR = Path.of("src/test/resources/explain");
  private static final boolean UPDATE = Boolean.getBoolean("quiver.golden.update");

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08", "q09", "q10", "q11", "q12", "q13",
        "q14", "q15", "q16", "q17", "q18", "q19", "q20", "q21", "q22"
      })
  void explainMatchesGoldenFile(String query) throws IOException {
    String sql = read("/tpch/" + query + ".sql");
    int hits = LogicalRewrites.MATCH_LIMIT_HITS.get();
    PlanNode plan = new SqlPlanner(TpchCatalog.sf1()).plan(sql, 2);
    assertEquals(
        hits,
        LogicalRewrites.MATCH_LIMIT_HITS.get(),
        query + ": a rewrite program ran into its match limit (rules undoing each other)");
    check("tpch_" + query + ".txt", explain(plan));
  }

  /** Window functions: two groups (different PARTITION BY) chained, over an aggregate. */
  @org.junit.jupiter.api.Test
  void windowExplainMatchesGoldenFile() throws IOException {
    String sql =
        "select o_custkey, o_orderdate,"
            + " rank() over (partition by o_custkey order by o_totalprice desc) as r,"
            + " sum(o_totalprice) over (partition by o_custkey order by o_orderdate"
            + " rows between 2 preceding and current row) as moving,"
            + " row_number() over (order by o_orderdate, o_orderkey) as n"
            + " from orders";
    check("window_functions.txt", explain(new SqlPlanner(TpchCatalog.sf1()).plan(sql, 2)));
    String overAggregate =
        "select o_custkey, sum(o_totalprice) as total,"
            + " rank() over (order by sum(o_totalprice) desc) as r"
            + " from orders group by o_custkey";
    check(
        "window_over_aggregate.txt",
        explain(new SqlPlanner(TpchCatalog.sf1()).plan(overAggregate, 2)));
  }

  static String explain(PlanNode plan) {
    StagePlanner planner = StagePlanner.withDefaultRewrites();
    PlanNode rewritten = planner.rewrite(plan);
    StringBuilder text = new StringBuilder("-- plan\n").append(PlanPrinter.explain(plan));
    if (rewritten != plan) {
      text.append("\n-- rewritten\n").append(PlanPrinter.explain(rewritten));
    }
    return text.append("\n-- stages\n").append(planner.plan(plan).explain()).toString();
  }

  private static String read(String resource) throws IOException {
    try (InputStream in = SqlExplainGoldenTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  static void check(String file, String actual) throws IOException {
    Path path = DIR.resolve(file);
    if (UPDATE) {
      Files.createDirectories(path.getParent());
      Files.writeString(path, actual, StandardCharsets.UTF_8);
      return;
    }
    assertThat(path)
        .withFailMessage("%s is missing; run with -Dquiver.golden.update=true to create it", path)
        .exists();
    assertThat(actual).isEqualTo(Files.readString(path, StandardCharsets.UTF_8));
  }
}
