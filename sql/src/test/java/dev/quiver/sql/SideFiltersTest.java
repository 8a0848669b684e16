package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.PlanPrinter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Which sides of a join get a filter of their own from an OR across both ({@link SideFilters}). */
class SideFiltersTest {
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  private String explain(String sql) {
    return PlanPrinter.explain(planner.plan(sql, 2));
  }

  /**
   * The filter right above the scan of {@code table}, without column numbers; null if there is
   * none.
   */
  private static String filterOver(String plan, String table) {
    Matcher m =
        Pattern.compile("Filter\\[(.*)\\]  \\{[^}]*\\}\\n\\s*Scan\\[" + table + " ").matcher(plan);
    return m.find() ? m.group(1).replaceAll("#\\d+", "") : null;
  }

  private static final String NATIONS =
      "select n1.n_name, n2.n_name from nation n1, nation n2, region"
          + " where n1.n_regionkey = r_regionkey and n2.n_regionkey = r_regionkey and %s";

  @Test
  void eachSideOfAnInnerJoinTakesTheBranchesThatReadIt() {
    String plan =
        explain(
            "select s_name, c_name from supplier join customer on s_nationkey = c_nationkey"
                + " where (s_acctbal > 9000 and c_mktsegment = 'BUILDING')"
                + " or (s_acctbal < 0 and c_mktsegment = 'MACHINERY')");

    assertThat(filterOver(plan, "supplier")).isEqualTo("((s_acctbal < 0) OR (s_acctbal > 9000))");
    assertThat(filterOver(plan, "customer"))
        .isEqualTo("((c_mktsegment = 'BUILDING') OR (c_mktsegment = 'MACHINERY'))");
    // the OR itself stays, on the join
    assertThat(plan).contains("residual=(((s_acctbal");
  }

  @Test
  void aBranchWithoutAConditionOnASideGivesThatSideNothing() {
    String plan =
        explain(
            "select s_name, c_name from supplier join customer on s_nationkey = c_nationkey"
                + " where (s_acctbal > 9000 and c_mktsegment = 'BUILDING') or c_acctbal < 0");

    assertThat(filterOver(plan, "supplier")).isNull();
    assertThat(filterOver(plan, "customer"))
        .isEqualTo("((c_mktsegment = 'BUILDING') OR (c_acctbal < 0))");
  }

  @Test
  void aLeftJoinFiltersOnlyItsRightSideAndAFullJoinNeither() {
    String on =
        " on s_nationkey = c_nationkey"
            + " and ((s_acctbal > 9000 and c_mktsegment = 'BUILDING')"
            + " or (s_acctbal < 0 and c_mktsegment = 'MACHINERY'))";
    String left = explain("select s_name, c_name from supplier left join customer" + on);
    assertThat(filterOver(left, "supplier")).isNull();
    assertThat(filterOver(left, "customer")).isNotNull();

    String full = explain("select s_name, c_name from supplier full join customer" + on);
    assertThat(filterOver(full, "supplier")).isNull();
    assertThat(filterOver(full, "customer")).isNull();
  }

  /** The derived filters meet a join each of their own further down, and are not added twice. */
  @Test
  void aFilterDerivedOnceReachesEveryScanItConcernsAndOnlyOnce() {
    String plan =
        explain(
            String.format(
                NATIONS,
                "((n1.n_name = 'FRANCE' and n2.n_name = 'GERMANY' and r_name = 'EUROPE')"
                    + " or (n1.n_name = 'GERMANY' and n2.n_name = 'FRANCE' and r_name = 'EUROPE'))"));

    String plain = plan.replaceAll("#\\d+", "");
    String derived = "Filter[((n_name = 'FRANCE') OR (n_name = 'GERMANY'))]";
    assertThat(plain.split(Pattern.quote(derived), -1)).as(plan).hasSize(3);
    assertThat(plain).doesNotContain("AND ((n_name = 'FRANCE') OR");
  }
}
