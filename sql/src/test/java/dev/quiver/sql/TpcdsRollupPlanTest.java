package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.stage.StagePlanner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The TPC-DS queries that use ROLLUP (and q27, q36, which write one by hand with untyped NULLs), as
 * DuckDB ships their text, plan against the TPC-DS schema ({@link TpcdsCatalog}) or fail only for a
 * feature still missing.
 */
class TpcdsRollupPlanTest {
  @ParameterizedTest(name = "q{0}")
  @CsvSource(
      delimiter = '|',
      value = {"05|", "18|", "22|", "27|", "36|", "67|", "70|", "77|", "80|", "86|"})
  void plansOrNamesTheMissingFeature(String query, String missing) {
    String sql =
        TpcdsCatalog.read("/tpcds/" + query + ".sql"); // the repository's one copy, tpcds/queries
    SqlPlanner planner = new SqlPlanner(catalog());
    try {
      PlanNode plan = planner.plan(sql, 2);
      assertThat(missing).as("q%s plans", query).isNull();
      String stages = StagePlanner.withDefaultRewrites().plan(plan).explain();
      assertThat(stages).contains("Stage");
      if (!query.equals("27") && !query.equals("36")) { // these two write their ROLLUP as a UNION
        assertThat(PlanPrinter.explain(plan)).contains("Expand[");
      }
    } catch (RuntimeException e) {
      assertThat(missing).as("q%s fails with %s", query, e.getMessage()).isNotNull();
      assertThat(e).hasMessageContaining(missing);
    }
  }

  private static Catalog catalog() {
    return TpcdsCatalog.sf1();
  }
}
