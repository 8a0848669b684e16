package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import org.junit.jupiter.api.Test;

/** The shapes the translator produces for single-table queries beyond the golden TPC-H ones. */
class SqlPlannerTest {
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  private String explain(String sql, int parallelism) {
    PlanNode plan = planner.plan(sql, parallelism);
    return PlanPrinter.explain(plan);
  }

  @Test
  void orderByWithLimitIsLocalTopKThenMergeThenLimit() {
    String text =
        explain(
            "select o_orderkey, o_totalprice from orders order by o_totalprice desc limit 10", 2);
    assertThat(text)
        .startsWith("Limit[")
        .contains("SortPreservingMerge[#1 DESC NULLS FIRST]")
        .contains("TopK[");
  }

  @Test
  void aTrailingSemicolonEndsTheStatement() {
    String plain = explain("select n_name from nation where n_regionkey = 1", 2);
    assertThat(explain("select n_name from nation where n_regionkey = 1;", 2)).isEqualTo(plain);
    assertThat(explain("select n_name from nation\nwhere n_regionkey = 1 ;\n ;\n", 2))
        .isEqualTo(plain);
  }

  /** TPC-DS q27 and q36 write the rolled-up columns of a hand-made ROLLUP like this. */
  @Test
  void anUntypedNullTakesTheTypeOfItsUnionColumn() {
    PlanNode plan =
        planner.plan(
            "select n_name, n_regionkey, 0 as g from nation"
                + " union all select null as n_name, n_regionkey, 1 as g from nation"
                + " union all select null, null, 1 from nation",
            2);
    assertThat(plan.schema().column(0).type()).isEqualTo(dev.quiver.plan.type.SqlType.VARCHAR);
    assertThat(plan.schema().column(1).type()).isEqualTo(dev.quiver.plan.type.SqlType.BIGINT);
    assertThat(plan.schema().column(1).nullable()).isTrue();
  }

  /** An aggregate straight over a table reads only the columns it uses: COUNT(*) reads none. */
  @Test
  void anAggregateOverATableReadsOnlyTheColumnsItUses() {
    assertThat(explain("select count(*) from lineitem", 2)).contains("Scan[lineitem [],");
    String text =
        explain(
            "select l_returnflag, count(distinct l_partkey),"
                + " sum(l_quantity) filter (where l_tax > 0) from lineitem group by l_returnflag",
            2);
    assertThat(text).contains("Scan[lineitem [l_partkey, l_quantity, l_tax, l_returnflag],");
  }

  @Test
  void singlePartitionUsesSingleAggregate() {
    String text = explain("select n_regionkey, count(*) from nation group by n_regionkey", 1);
    assertThat(text).contains("Aggregate[SINGLE").doesNotContain("Repartition");
  }

  @Test
  void varianceStaysOneCallWithPartialStates() {
    // No expansion into SUM(x * x) and SUM(x): the Welford states travel between the phases.
    String text =
        explain(
            "select l_returnflag, stddev_samp(l_quantity), variance(l_discount),"
                + " stddev_pop(l_tax), var_pop(l_linenumber), stddev(l_extendedprice)"
                + " from lineitem group by l_returnflag",
            2);
    assertThat(text)
        .contains("Aggregate[PARTIAL")
        .contains("Aggregate[FINAL")
        .contains("stddev_samp(#")
        .contains("var_samp(#")
        .contains("stddev_pop(#")
        .contains("var_pop(#")
        .doesNotContain("sum(");
  }

  @Test
  void aggregateFilterIsACallOnABooleanColumn() {
    String text =
        explain(
            "select o_orderstatus, count(*) filter (where o_totalprice > 1000),"
                + " sum(o_totalprice) filter (where o_orderpriority = '1-URGENT'),"
                + " bool_and(o_shippriority = 0), bool_or(o_custkey > 5), every(o_custkey > 0)"
                + " from orders group by o_orderstatus",
            2);
    assertThat(text)
        .contains("Aggregate[PARTIAL")
        .containsPattern("count\\(\\*\\) FILTER #\\d")
        .containsPattern("sum\\(#\\d+\\) FILTER #\\d");
  }

  @Test
  void scalarSubqueryWithoutAggregateIsSingleValue() {
    String text =
        explain(
            "select n_name, (select r_name from region where r_regionkey = n_regionkey)"
                + " from nation",
            2);
    assertThat(text).contains("single_value(#");
  }

  @Test
  void countDistinctGathersGroupsBeforeASingleAggregate() {
    String text = explain("select count(distinct o_custkey) from orders", 2);
    assertThat(text).contains("Aggregate[SINGLE").contains("Coalesce[2 -> 1]");
  }

  @Test
  void scalarFunctionsTranslate() {
    String text =
        explain(
            "select case when p_type like 'PROMO%' then 1 else 0 end as promo,"
                + " substring(p_name from 1 for 5) as prefix, cast(p_size as bigint) as size,"
                + " upper(p_brand) as brand from part where p_size between 1 and 5 and not"
                + " (p_container = 'SM BOX' or p_retailprice / 2 > 100)",
            2);
    assertThat(text).contains("LIKE 'PROMO%'").contains("SUBSTRING").contains("CAST(");
  }

  @Test
  void extractYearTranslates() {
    String text =
        explain(
            "select extract(year from o_orderdate) as y, sum(o_totalprice) from orders"
                + " group by extract(year from o_orderdate)",
            2);
    assertThat(text).contains("YEAR").contains("Aggregate[FINAL");
  }

  /** DATE ± an integer (DateDays) is Quiver's date ± days, also for integer + date. */
  @Test
  void dateArithmeticWithIntegersCountsDays() {
    PlanNode plan =
        planner.plan(
            "select o_orderdate + 5 as a, 1 + o_orderdate as b, o_orderdate - o_shippriority as c,"
                + " o_orderdate + cast(-2 as tinyint) as d, o_orderdate + o_orderkey as e"
                + " from orders",
            2);
    for (int i = 0; i < 5; i++) {
      assertThat(plan.schema().column(i).type()).isEqualTo(dev.quiver.plan.type.SqlType.DATE);
    }
    assertThat(PlanPrinter.explain(plan))
        .contains("(o_orderdate#1 + 5) AS a, (o_orderdate#1 + 1) AS b")
        .contains("(o_orderdate#1 - o_shippriority#2) AS c, (o_orderdate#1 + -2) AS d")
        .contains("(o_orderdate#1 + o_orderkey#0) AS e")
        .doesNotContain("DAYS");
  }

  /** Calcite matches a GROUP BY expression in the select list by its text. */
  @Test
  void groupByADatePlusDays() {
    assertThat(
            explain(
                "select o_orderdate + 1 as next_day, count(*) from orders"
                    + " group by o_orderdate + 1 order by o_orderdate + 1",
                2))
        .contains("Project[(o_orderdate#0 + 1) AS next_day]")
        .contains("Aggregate[FINAL");
  }

  /** A date literal ± an integer literal is folded, unless it leaves DATE's range. */
  @Test
  void dateLiteralPlusDaysIsFolded() {
    assertThat(
            explain(
                "select o_orderkey from orders"
                    + " where o_orderdate >= date '2000-02-27' + 3 and o_orderdate < 1 + date"
                    + " '2000-12-31' or o_orderdate = date '2000-01-01' - 366",
                2))
        .contains("DATE '2000-03-01'")
        .contains("DATE '2001-01-01'")
        .contains("DATE '1998-12-31'");
    assertThat(explain("select date '2000-01-01' + 3000000000 from nation", 1))
        .contains("3000000000");
  }

  @Test
  void aliasesOfARenamingProjectionAreKept() {
    PlanNode grouped =
        planner.plan("select n_regionkey as r, count(*) as n from nation group by n_regionkey", 2);
    assertThat(grouped.schema().column(0).name()).isEqualTo("r");
    assertThat(grouped.schema().column(1).name()).isEqualTo("n");
    PlanNode sorted = planner.plan("select n_name as x, n_nationkey from nation order by 1", 2);
    assertThat(sorted.schema().column(0).name()).isEqualTo("x");
  }

  @Test
  void joinOnKeysOfDifferentTypesCastsBothSides() {
    String text = explain("select s_name, p_name from supplier join part on s_suppkey = p_size", 2);
    assertThat(text).contains("CAST(p_size").contains("HashJoin[");
  }

  @Test
  void smallBuildSideIsBroadcastLargeIsPartitioned() {
    String small =
        explain("select n_name, s_name from supplier join nation on s_nationkey = n_nationkey", 2);
    assertThat(small).contains("BROADCAST").doesNotContain("Repartition");
    String large =
        explain(
            "select o_orderkey, l_quantity from orders join lineitem on o_orderkey = l_orderkey",
            2);
    assertThat(large).contains("PARTITIONED").contains("Repartition[hash");
    PlanNode forced =
        planner.plan(
            "select n_name, s_name from supplier join nation on s_nationkey = n_nationkey",
            PlannerOptions.of(2).withBroadcastThreshold(0));
    assertThat(PlanPrinter.explain(forced)).contains("PARTITIONED");
  }

  @Test
  void notInOverANullableColumnIsANullAwareJoin() {
    String text =
        explain(
            "select count(*) from nation where n_nationkey not in"
                + " (select nullif(s_nationkey, 3) from supplier)",
            2);
    assertThat(text).contains("null-aware");
  }
}
