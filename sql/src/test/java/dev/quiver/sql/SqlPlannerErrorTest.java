package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import org.junit.jupiter.api.Test;

/** The errors a user will make get a message that names what and where. */
class SqlPlannerErrorTest {
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  @Test
  void syntaxErrorNamesLineAndColumn() {
    assertThatThrownBy(() -> planner.plan("select l_orderkey\nfrom lineitem\nwhere where", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("syntax error at line 3, column 1")
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.SYNTAX_ERROR);
  }

  @Test
  void unknownTableIsNamed() {
    assertThatThrownBy(() -> planner.plan("select * from lineitems", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("line 1, column 15")
        .hasMessageContaining("lineitems")
        .hasMessageContaining("did you mean 'lineitem'?")
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.INVALID_QUERY);
  }

  @Test
  void unknownColumnIsNamed() {
    assertThatThrownBy(() -> planner.plan("select l_orderky from lineitem", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("line 1, column 8")
        .hasMessageContaining("l_orderky")
        .hasMessageContaining("did you mean 'l_orderkey'?");
  }

  @Test
  void typeErrorNamesTheExpression() {
    assertThatThrownBy(() -> planner.plan("select sum(l_comment) from lineitem", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("line 1, column 8")
        .hasMessageContaining("Cannot apply 'SUM' to arguments of type 'SUM(<VARCHAR>)'")
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.INVALID_QUERY);
  }

  /** Type coercion is on only for untyped NULLs (NoImplicitCasts): no cast is ever implied. */
  @Test
  void implicitCastsStayOff() {
    assertThatThrownBy(() -> planner.plan("select n_name from nation where n_nationkey = '1'", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("EQUAL does not accept arguments of types [BIGINT, VARCHAR]");
    assertThatThrownBy(() -> planner.plan("select n_nationkey + '1' from nation", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("Cannot apply '+' to arguments of type '<BIGINT> + <CHAR(1)>'");
    // DATE ± an integer is a number of days (DateDays); no other number mixes with a date.
    assertThatThrownBy(() -> planner.plan("select o_orderdate + 1.5 from orders", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("Cannot apply '+' to arguments of type '<DATE> + <DECIMAL(2, 1)>'");
    assertThatThrownBy(() -> planner.plan("select o_orderdate - o_totalprice from orders", 2))
        .hasMessageContaining("Cannot apply '-' to arguments of type '<DATE> - <DECIMAL(15, 2)>'");
    assertThatThrownBy(() -> planner.plan("select 5 - o_orderdate from orders", 2))
        .hasMessageContaining("Cannot apply '-' to arguments of type '<INTEGER> - <DATE>'");
    assertThatThrownBy(() -> planner.plan("select o_orderdate * 2 from orders", 2))
        .hasMessageContaining("Cannot apply '*' to arguments of type '<DATE> * <INTEGER>'");
    assertThatThrownBy(() -> planner.plan("select o_orderdate + '1' from orders", 2))
        .hasMessageContaining("Cannot apply '+' to arguments of type '<DATE> + <CHAR(1)>'");
    assertThatThrownBy(() -> planner.plan("select coalesce(n_name, 1) from nation", 2))
        .hasMessageContaining("Illegal mixing of types in CASE or COALESCE statement");
    assertThatThrownBy(() -> planner.plan("select null from nation", 2))
        .hasMessageContaining("not supported: an untyped NULL")
        .hasMessageContaining("write CAST(NULL AS <type>)");
    assertThatThrownBy(
            () ->
                planner.plan(
                    "select n_name from nation union all select n_nationkey from nation", 2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("Type mismatch in column 1 of UNION ALL");
  }

  @Test
  void unsupportedConstructSaysNotSupported() {
    assertThatThrownBy(
            () ->
                planner.plan(
                    "select n_name, count(distinct n_regionkey) over (order by n_name) from nation",
                    2))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("not supported: DISTINCT in window aggregate")
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.UNSUPPORTED_FEATURE);
  }
}
