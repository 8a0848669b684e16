package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * ROLLUP, CUBE and GROUPING SETS plan into Expand, an aggregate keyed on (keys, grouping id) and a
 * projection of the grouping functions; golden EXPLAIN in {@code src/test/resources/explain/}
 * (accept changes as {@link SqlExplainGoldenTest} says).
 */
class GroupingSetsPlanTest {
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  private String explain(String sql, int parallelism) {
    return PlanPrinter.explain(planner.plan(sql, parallelism));
  }

  @Test
  void rollupMatchesGoldenFile() throws IOException {
    PlanNode plan =
        planner.plan(
            "select n_regionkey, n_name, count(*) as n, sum(n_nationkey) as s,"
                + " grouping(n_regionkey) as g from nation group by rollup(n_regionkey, n_name)",
            2);
    SqlExplainGoldenTest.check("grouping_sets_rollup.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void cubeMatchesGoldenFile() throws IOException {
    PlanNode plan =
        planner.plan(
            "select l_returnflag, l_linestatus, sum(l_quantity) as q,"
                + " grouping(l_linestatus, l_returnflag) as g,"
                + " grouping_id(l_returnflag, l_linestatus) as gid"
                + " from lineitem group by cube(l_returnflag, l_linestatus)",
            2);
    SqlExplainGoldenTest.check("grouping_sets_cube.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void theGroupingIdIsPartOfTheShuffleKey() {
    String text =
        explain(
            "select n_regionkey, n_name, count(*) from nation"
                + " group by grouping sets ((n_regionkey), (n_name))",
            2);
    assertThat(text)
        .contains("Expand[keys=[#0, #1], sets=[{#0}, {#1}], gid=#2]")
        .contains("Repartition[hash([#0, #1, #2]), 2]")
        .doesNotContain("global sets");
  }

  @Test
  void anAggregateOfAKeyReadsACopyTheExpandLeavesAlone() {
    String text =
        explain("select n_regionkey, sum(n_regionkey) from nation group by rollup(n_regionkey)", 2);
    // n_regionkey is column #0 and its copy #1; the sum reads the copy.
    assertThat(text).contains("Expand[keys=[#0], sets=[{#0}, {}], gid=#2]").contains("sum(#1)");
  }

  @Test
  void distinctWithAnEmptySetRunsInOneTask() {
    String text =
        explain(
            "select n_regionkey, count(distinct n_name) from nation group by rollup(n_regionkey)",
            2);
    assertThat(text).contains("Aggregate[SINGLE").contains("global sets=[1]").contains("Coalesce");
    String noEmptySet =
        explain(
            "select n_regionkey, n_comment, count(distinct n_name) from nation"
                + " group by grouping sets ((n_regionkey), (n_comment))",
            2);
    assertThat(noEmptySet).contains("Aggregate[SINGLE").contains("Repartition[hash(");
  }

  @Test
  void singlePartitionRollupIsOneSingleAggregate() {
    String text = explain("select n_regionkey, count(*) from nation group by rollup(1)", 1);
    assertThat(text).contains("Aggregate[SINGLE").contains("global sets=[1]");
    assertThat(text).doesNotContain("Repartition");
  }

  @Test
  void aFilteredAggregateUnderRollupFoldsItsFilterColumn() {
    String plan =
        PlanPrinter.explain(
            planner.plan(
                "select n_regionkey, count(*) filter (where n_nationkey > 3) from nation"
                    + " group by rollup(n_regionkey)",
                2));
    assertThat(plan).contains("Expand[").contains(" FILTER #");
  }
}
