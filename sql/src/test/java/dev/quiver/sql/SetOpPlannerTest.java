package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * INTERSECT and EXCEPT plan as one shape: a union of the inputs with a marker per input, a
 * two-phase aggregate counting each row value per input, then a filter (DISTINCT) or RepeatRows
 * (ALL). Golden EXPLAIN in {@code src/test/resources/explain/setop_*.txt}, updated like {@link
 * SqlExplainGoldenTest}'s.
 */
class SetOpPlannerTest {
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  private String explain(String sql, int parallelism) {
    return PlanPrinter.explain(planner.plan(sql, parallelism));
  }

  @Test
  void intersectGolden() throws IOException {
    PlanNode plan =
        planner.plan(
            "select n_nationkey, n_name from nation intersect select s_nationkey, s_name from"
                + " supplier where s_acctbal > 0",
            2);
    SqlExplainGoldenTest.check("setop_intersect.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void exceptAllGolden() throws IOException {
    PlanNode plan =
        planner.plan(
            "select c_nationkey from customer except all select s_nationkey from supplier"
                + " order by 1 limit 10",
            2);
    SqlExplainGoldenTest.check("setop_except_all.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void onePartitionNeedsNoExchange() {
    String text =
        explain("select n_regionkey from nation except select r_regionkey from region", 1);
    assertThat(text).contains("Aggregate[SINGLE").doesNotContain("Repartition");
  }

  @Test
  void chainsAreNaryAndIntersectBindsTighterThanUnion() {
    String text =
        explain(
            "select n_nationkey from nation union select s_nationkey from supplier intersect"
                + " select c_nationkey from customer intersect select o_custkey from orders",
            2);
    // nation UNION (supplier INTERSECT customer INTERSECT orders): one count over three inputs.
    assertThat(text)
        .contains("Filter[((count_0#1 > 0) AND (count_1#2 > 0) AND (count_2#3 > 0))]")
        .contains("Union[inputs=3]")
        .contains("Aggregate[FINAL, keys=[#0], calls=[]]");
    assertThat(text.indexOf("Scan[nation")).isLessThan(text.indexOf("count_0"));
  }

  @Test
  void exceptChainsSubtractEveryLaterInput() {
    String text =
        explain(
            "select n_nationkey from nation except all select s_nationkey from supplier"
                + " except all select c_nationkey from customer",
            2);
    assertThat(text).contains("((count_0#1 - count_1#2) - count_2#3) AS times");
  }

  @Test
  void inputsAreCastToTheCommonType() {
    String text =
        explain(
            "select n_name, n_regionkey from nation intersect all"
                + " select s_name, cast(s_nationkey as integer) from supplier",
            2);
    assertThat(text)
        .contains("CAST(EXPR$1#1 AS BIGINT) AS n_regionkey, CAST(NULL AS BOOLEAN) AS in_0")
        .contains("RepeatRows[times=#2]");
  }

  @Test
  void insideACte() {
    String text =
        explain(
            "with k as (select n_nationkey as k from nation except select s_nationkey from"
                + " supplier) select count(*) from k join customer on k = c_nationkey",
            2);
    assertThat(text).contains("count_1#2 = 0");
  }
}
