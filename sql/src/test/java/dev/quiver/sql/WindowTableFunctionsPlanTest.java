package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * TUMBLE and HOP over a bounded table plan into projections with {@code time_bucket} (HOP: each row
 * joined with its windows' offsets); golden EXPLAIN in {@code src/test/resources/explain/} (accept
 * changes as {@link SqlExplainGoldenTest} says). Answers: {@code window_tvf.slt} in
 * flink-connector.
 */
class WindowTableFunctionsPlanTest {
  private static final String ORDERS_AT =
      "(select o_orderkey, o_totalprice, cast(o_orderdate as timestamp) as ts from orders)";
  private final SqlPlanner planner = new SqlPlanner(TpchCatalog.sf1());

  @Test
  void tumbleMatchesGoldenFile() throws IOException {
    PlanNode plan =
        planner.plan(
            "select window_start, window_end, count(*) as n, sum(o_totalprice) as total"
                + " from table(tumble("
                + ORDERS_AT
                + ", descriptor(ts), interval '7' day))"
                + " group by window_start, window_end",
            2);
    SqlExplainGoldenTest.check("window_tvf_tumble.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void hopJoinsEachRowWithItsWindowsOffsetsAndReadsTheInputOnce() {
    String text =
        PlanPrinter.explain(
            planner.plan(
                "select window_start, count(*) from table(hop("
                    + ORDERS_AT
                    + ", descriptor(ts), interval '1' day, interval '3' day, interval '12' hour))"
                    + " group by window_start",
                2));
    assertThat(text).contains("NestedLoopJoin[INNER]").contains("Values[rows=3]");
    assertThat(text.split("Scan\\[orders", -1)).as("one scan of orders").hasSize(2);
  }

  @Test
  void aHopWhoseSizeIsNoMultipleOfItsSlideIsRefused() {
    assertThatThrownBy(
            () ->
                planner.plan(
                    "select * from table(hop("
                        + ORDERS_AT
                        + ", descriptor(ts), interval '2' day, interval '3' day))",
                    2))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("must be a whole multiple of its slide");
  }
}
