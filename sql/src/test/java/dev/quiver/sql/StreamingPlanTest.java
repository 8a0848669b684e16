package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.time.StreamOptions;
import dev.quiver.plan.type.SqlType;
import dev.quiver.stage.UnboundedInputs;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * SQL over a stream (a table whose options say it is unbounded, with an event time) plans as {@link
 * UnboundedInputs#prepare} allows: aggregates grouped by the window_end of TUMBLE, HOP and CUMULATE
 * become windowed aggregates in both phases, everything that would wait for the stream's end is
 * refused with one line naming it. Golden EXPLAIN in {@code src/test/resources/explain/}.
 */
class StreamingPlanTest {
  private final SqlPlanner planner = new SqlPlanner(catalog());

  private static Catalog catalog() {
    Catalog catalog = TpchCatalog.sf1();
    RowSchema bids =
        RowSchema.of(
            Column.notNull("auction", SqlType.BIGINT),
            Column.notNull("bidder", SqlType.BIGINT),
            Column.notNull("price", SqlType.BIGINT),
            Column.of("ts", SqlType.TIMESTAMP));
    catalog.add(
        new CatalogTable(
            "bids",
            bids,
            1_000_000_000L,
            List.of(SplitUnit.file("kafka:bids/0", 0, SplitUnit.UNKNOWN_ROWS)),
            StreamOptions.unbounded(Optional.of(new EventTime("ts", Duration.ofSeconds(5))))));
    return catalog;
  }

  private PlanNode plan(String sql) {
    return UnboundedInputs.prepare(planner.plan(sql, 2));
  }

  @Test
  void aTumblingWindowAggregateIsWindowedInBothPhases() throws IOException {
    PlanNode plan =
        plan(
            "select window_start, window_end, auction, count(*) as n, max(price) as top"
                + " from table(tumble(table bids, descriptor(ts), interval '10' second))"
                + " group by window_start, window_end, auction");
    SqlExplainGoldenTest.check("stream_window_tumble.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void hopAndCumulateWindowsAreWindowedToo() {
    for (String window :
        List.of(
            "hop(table bids, descriptor(ts), interval '2' second, interval '10' second)",
            "cumulate(table bids, descriptor(ts), interval '2' second, interval '10' second)")) {
      String text =
          PlanPrinter.explain(
              plan(
                  "select window_start, window_end, sum(price) from table("
                      + window
                      + ") group by window_start, window_end"));
      assertThat(text.split("window end=#", -1)).as(window).hasSize(3); // PARTIAL and FINAL
      assertThat(text).contains("unbounded, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND");
    }
  }

  @Test
  void aStreamJoinedWithATableThenWindowedKeepsItsEventTime() {
    String text =
        PlanPrinter.explain(
            plan(
                "select window_end, n_name, count(*) from table(tumble("
                    + "(select b.*, n.n_name from bids b join nation n on b.bidder = n.n_nationkey),"
                    + " descriptor(ts), interval '1' minute))"
                    + " group by window_start, window_end, n_name"));
    assertThat(text).contains("window end=#");
  }

  @Test
  void anAggregateWithoutAWindowEndIsRefused() {
    assertRefused(
        "select auction, count(*) from bids group by auction", "must group by the window_end");
    assertRefused(
        "select window_start, count(*) from table(tumble(table bids, descriptor(ts),"
            + " interval '1' second)) group by window_start",
        "must group by the window_end");
    assertRefused(
        "select window_end, count(*) from table(tumble(table bids, descriptor(price_ts),"
            + " interval '1' second)) group by window_end",
        "");
    assertRefused("select count(*) from bids", "unbounded table 'bids'");
  }

  @Test
  void sortsLimitsAndOuterJoinsOfAStreamAreRefused() {
    assertRefused("select * from bids order by price", "ORDER BY over the unbounded table 'bids'");
    assertRefused("select * from bids limit 3", "LIMIT");
    assertRefused(
        "select n_name, b.price from nation n left join bids b on b.bidder = n.n_nationkey",
        "unbounded table 'bids'");
    assertRefused(
        "select * from bids a join bids b on a.auction = b.auction", "both sides are unbounded");
  }

  private void assertRefused(String sql, String message) {
    assertThatThrownBy(() -> plan(sql))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining(message)
        .satisfies(
            e ->
                assertThat(((QuiverException) e).code())
                    .isIn(ErrorCode.UNSUPPORTED_FEATURE, ErrorCode.INVALID_QUERY));
  }
}
