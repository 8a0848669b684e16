package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.type.SqlType;
import org.junit.jupiter.api.Test;

/**
 * Window aggregates keep their own function and type through Calcite's conversion ({@link
 * WindowConvertlets}): AVG is not expanded into SUM / COUNT in the argument's type, SUM is not
 * wrapped in CASE WHEN COUNT > 0 THEN $SUM0; the result types are those of the aggregate functions.
 */
class WindowPlannerTest {
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  private PlanNode plan(String sql) {
    return planner.plan(sql, 2);
  }

  @Test
  void avgIsTheOperatorsAvgWithTheAggregateTypes() {
    PlanNode plan =
        plan(
            "select avg(n_nationkey) over (partition by n_regionkey),"
                + " avg(s_acctbal) over (order by s_suppkey rows between 2 preceding and current"
                + " row) from nation join supplier on s_nationkey = n_nationkey");
    // The second is DECIMAL(15,2) NOT NULL to Calcite (a ROWS frame that holds the current row of
    // a NOT NULL column), which casts it for nullability only: no cast to Quiver.
    assertThat(plan.schema().column(0).type()).isEqualTo(SqlType.DOUBLE);
    assertThat(plan.schema().column(1).type()).isEqualTo(SqlType.decimal(38, 6));
    assertThat(PlanPrinter.explain(plan))
        .contains("avg(#")
        .doesNotContain("sum(")
        .doesNotContain("count(");
  }

  @Test
  void sumHasTheAggregateTypeAndNoCountBesideIt() {
    PlanNode plan =
        plan(
            "select sum(s_acctbal) over (order by s_suppkey), sum(s_nationkey) over ()"
                + " from supplier");
    assertThat(plan.schema().column(0).type()).isEqualTo(SqlType.decimal(38, 2));
    assertThat(plan.schema().column(1).type()).isEqualTo(SqlType.BIGINT);
    String text = PlanPrinter.explain(plan);
    assertThat(text).doesNotContain("count(").doesNotContain("CASE");
  }

  @Test
  void aUnionTypesAnAverageOfIntegersAsADouble() {
    PlanNode plan =
        plan(
            "select avg(n_nationkey) over (partition by n_regionkey) from nation"
                + " union all select 1 from nation");
    assertThat(plan.schema().column(0).type()).isEqualTo(SqlType.DOUBLE);
  }

  @Test
  void aggregateAvgIsUnchanged() {
    PlanNode plan = plan("select n_regionkey, avg(n_nationkey) from nation group by n_regionkey");
    assertThat(plan.schema().column(1).type()).isEqualTo(SqlType.DOUBLE);
  }

  @Test
  void stddevOverAWindowIsNotSupportedRatherThanExpanded() {
    assertThatThrownBy(() -> plan("select stddev_samp(n_nationkey) over () from nation"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("not supported: window function STDDEV_SAMP");
  }

  @Test
  void qualifyFiltersOnTheWindowResult() {
    String text =
        PlanPrinter.explain(
            plan(
                "select n_name, row_number() over (partition by n_regionkey order by n_name) rn"
                    + " from nation qualify rn = 1"));
    assertThat(text).contains("Filter[").contains("row_number()");
  }
}
