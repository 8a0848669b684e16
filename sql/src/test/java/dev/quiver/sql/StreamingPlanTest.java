package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.HashJoin;
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
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * SQL over a stream (a table whose options say it is unbounded, with an event time) plans as {@link
 * UnboundedInputs#prepare} allows: aggregates grouped by the window_end of TUMBLE, HOP and CUMULATE
 * become windowed aggregates in both phases, window functions partitioned by a window end (window
 * top-N, window deduplication) run per window, everything that would wait for the stream's end is
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
    RowSchema persons =
        RowSchema.of(
            Column.notNull("id", SqlType.BIGINT),
            Column.of("name", SqlType.VARCHAR),
            Column.of("ts", SqlType.TIMESTAMP));
    catalog.add(
        new CatalogTable(
            "persons",
            persons,
            1_000_000L,
            List.of(SplitUnit.file("kafka:persons/0", 0, SplitUnit.UNKNOWN_ROWS)),
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
  void twoWindowedStreamsJoinedOnTheirWindowsAreAWindowJoin() throws IOException {
    PlanNode plan =
        plan(
            "select p.id, p.name, p.starttime from"
                + " (select id, name, window_start as starttime, window_end as endtime"
                + "  from table(tumble(table persons, descriptor(ts), interval '10' second))"
                + "  group by id, name, window_start, window_end) p"
                + " join (select bidder, window_start as starttime, window_end as endtime"
                + "  from table(tumble(table bids, descriptor(ts), interval '10' second))"
                + "  group by bidder, window_start, window_end) b"
                + " on p.id = b.bidder and p.starttime = b.starttime and p.endtime = b.endtime");
    SqlExplainGoldenTest.check("stream_window_join.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void aWindowedAggregateOfWindowedCountsJoinedBackIsWindowedThroughout() {
    String counts =
        "select auction, count(*) as num, window_start as starttime, window_end as endtime"
            + " from table(hop(table bids, descriptor(ts), interval '2' second,"
            + " interval '10' second)) group by auction, window_start, window_end";
    String text =
        PlanPrinter.explain(
            plan(
                "select a.auction, a.num from ("
                    + counts
                    + ") a join (select max(c.num) as maxn, c.starttime, c.endtime from ("
                    + counts
                    + ") c group by c.starttime, c.endtime) m"
                    + " on a.starttime = m.starttime and a.endtime = m.endtime"
                    + " and a.num >= m.maxn"));
    assertThat(text).contains("window end build=#");
    // Both count aggregates and the max over them, in both phases.
    assertThat(text.split("Aggregate\\[[A-Z]+, keys=[^\n]*window end=#", -1)).hasSize(7);
  }

  @Test
  void aStreamJoinedWithinAnIntervalOfAWindowedAggregateIsAnIntervalJoin() {
    // Nexmark q7: the bids within the 10 seconds before the end of the window of the top price.
    String text =
        PlanPrinter.explain(
            plan(
                "select b.auction, b.price, b.bidder, b.ts from bids b join (select max(price) as"
                    + " maxprice, window_end as ts from table(tumble(table bids, descriptor(ts),"
                    + " interval '10' second)) group by window_start, window_end) b1"
                    + " on b.price = b1.maxprice"
                    + " where b.ts between b1.ts - interval '10' second and b1.ts"));
    assertThat(text).contains("interval probe.#3 in [build.#1 - PT10S, build.#1 + PT0S]");
  }

  @Test
  void boundsOnEitherSideAndStrictComparisonsGiveTheInterval() {
    String text =
        PlanPrinter.explain(
            plan(
                "select a.auction, b.auction from bids a join bids b on a.bidder = b.bidder"
                    + " and b.ts + interval '1' hour > a.ts and a.ts >= b.ts"));
    assertThat(text).contains("interval probe.#2 in [build.#2 + PT0S, build.#2 + PT1H]");
    assertRefused(
        "select a.auction from bids a join bids b on a.bidder = b.bidder and a.ts >= b.ts",
        "must be a window join or an interval join");
  }

  /**
   * LEFT, RIGHT and FULL interval joins plan as interval joins of that kind (a side padded with
   * NULLs once the watermark passes its interval); semi and anti joins of two streams stay refused.
   */
  @Test
  void outerIntervalJoinsPlanAndSemiJoinsAreRefused() {
    for (String type : List.of("left", "right", "full")) {
      PlanNode plan =
          plan(
              "select a.auction, b.auction from bids a "
                  + type
                  + " join bids b on a.bidder = b.bidder"
                  + " and a.ts between b.ts and b.ts + interval '1' second");
      String text = PlanPrinter.explain(plan);
      assertThat(text).as(type).contains("interval probe.#");
      HashJoin join = find(plan, HashJoin.class);
      assertThat(join.eventTime()).as(type).isPresent();
      assertThat(join.kind().type().name()).as(type).isIn("LEFT", "RIGHT", "FULL");
      assertThat(join.kind().type() == JoinType.FULL).isEqualTo(type.equals("full"));
    }
    assertRefused(
        "select a.auction from bids a where exists (select 1 from bids b where a.bidder ="
            + " b.bidder and a.ts between b.ts and b.ts + interval '1' second)",
        "supported as an INNER, LEFT, RIGHT or FULL join only, not");
  }

  private static <T extends PlanNode> T find(PlanNode plan, Class<T> type) {
    if (type.isInstance(plan)) {
      return type.cast(plan);
    }
    for (PlanNode child : plan.children()) {
      T found = find(child, type);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  @Test
  void twoStreamsJoinedOffTheirWindowsAreRefused() {
    assertRefused(
        "select * from (select bidder, window_end from table(tumble(table bids, descriptor(ts),"
            + " interval '10' second)) group by bidder, window_start, window_end) a"
            + " join persons p on a.bidder = p.id",
        "must be a window join");
  }

  @Test
  void aGroupByWithoutAWindowIsAnUpdatingAggregateInBothPhases() throws IOException {
    PlanNode plan =
        plan(
            "select auction, n from (select auction, count(*) as n, max(price) as top"
                + " from bids group by auction) where top > 100");
    assertThat(UnboundedInputs.isChangelog(plan)).isTrue();
    assertThat(plan.schema().column(plan.schema().size() - 1).name()).isEqualTo("op");
    SqlExplainGoldenTest.check("stream_updating_aggregate.txt", SqlExplainGoldenTest.explain(plan));
  }

  @Test
  void globalAndWindowStartAggregatesOfAStreamAreUpdatingToo() {
    for (String sql :
        List.of(
            "select count(*), sum(price) from bids",
            "select distinct bidder from bids",
            "select window_start, count(*) from table(tumble(table bids, descriptor(ts),"
                + " interval '1' second)) group by window_start")) {
      PlanNode plan = plan(sql);
      assertThat(UnboundedInputs.isChangelog(plan)).as(sql).isTrue();
      assertThat(PlanPrinter.explain(plan))
          .as(sql)
          .contains("updating")
          .doesNotContain("window end");
    }
    assertThat(UnboundedInputs.isChangelog(plan("select * from bids where price > 1"))).isFalse();
    assertThat(
            UnboundedInputs.isChangelog(
                plan("select n_name, count(*) from nation group by n_name")))
        .isFalse();
  }

  @Test
  void whatWouldConsumeAnUpdatingResultIsRefused() {
    assertRefused(
        "select auction, count(distinct bidder) from bids group by auction",
        "mergeable state (not count(DISTINCT #1))");
    assertRefused(
        "select n, count(*) from (select auction, count(*) as n from bids group by auction)"
            + " group by n",
        "over an updating result");
    assertRefused(
        "select * from (select bidder, count(*) as n from bids group by bidder) c"
            + " join nation on c.bidder = n_nationkey",
        "A join over an updating result");
    assertRefused(
        "select bidder, count(*) as n from bids group by bidder order by n",
        "over an updating result");
    assertRefused(
        "select auction, median(price) from bids group by auction", "mergeable state (not median");
    assertRefused(
        "select window_end, count(*) from table(tumble(table bids, descriptor(price_ts),"
            + " interval '1' second)) group by window_end",
        "");
  }

  @Test
  void aWindowTopNOfWindowedAggregatesRunsPerWindow() throws IOException {
    PlanNode plan =
        plan(
            "select * from (select *, row_number() over (partition by window_start, window_end"
                + " order by price desc) as rn from (select window_start, window_end, auction,"
                + " max(price) as price from table(tumble(table bids, descriptor(ts),"
                + " interval '10' second)) group by window_start, window_end, auction))"
                + " where rn <= 3");
    SqlExplainGoldenTest.check("stream_window_top_n.txt", SqlExplainGoldenTest.explain(plan));
    assertThat(PlanPrinter.explain(plan))
        .containsPattern("Window\\[[^\n]*, window end=#2, keep row_number\\(\\) <= 3\\]");
  }

  /**
   * The filter above a windowed ranking function bounds what each window keeps: every way of
   * writing an upper bound on the rank, RANK and DENSE_RANK as well; a lower bound, a bound on
   * another column or a window that also computes other functions keeps every row.
   */
  @Test
  void aBoundOnAWindowedRankMakesAWindowTopN() {
    Map<String, String> kept =
        Map.of(
            "row_number() | rn <= 3", "keep row_number() <= 3",
            "row_number() | rn < 3", "keep row_number() <= 2",
            "row_number() | 2 >= rn and price > 10", "keep row_number() <= 2",
            "row_number() | rn = 1", "keep row_number() <= 1",
            "row_number() | rn between 2 and 4", "keep row_number() <= 4",
            "rank() | rn <= 5", "keep rank() <= 5",
            "dense_rank() | rn <= 2", "keep dense_rank() <= 2");
    kept.forEach(
        (query, expected) -> {
          String[] parts = query.split(" \\| ");
          assertThat(explainRanked(parts[0], "", parts[1])).as(query).contains(expected);
        });
    for (String where : List.of("rn >= 3", "price <= 3", "rn <= 0", "rn <> 2")) {
      assertThat(explainRanked("row_number()", "", where)).as(where).doesNotContain("keep ");
    }
    String count = ", count(*) over (partition by window_start, window_end, bidder) as c";
    assertThat(explainRanked("row_number()", count, "rn <= 3"))
        .as("another function over the same window")
        .contains("window end=#")
        .doesNotContain("keep ");
  }

  /** EXPLAIN of {@code rank} (and {@code more} calls) per window and bidder, filtered. */
  private String explainRanked(String rank, String more, String where) {
    return PlanPrinter.explain(
        plan(
            "select bidder, price, rn"
                + (more.isEmpty() ? "" : ", c")
                + " from (select *, "
                + rank
                + " over (partition by window_start, window_end, bidder order by price desc) as rn"
                + more
                + " from table(tumble(table bids, descriptor(ts), interval '10' second))) where "
                + where));
  }

  @Test
  void aWindowTopNAndDeduplicationOverTheWindowTableFunctionRunPerWindow() {
    // Flink SQL's window top-N and window deduplication straight over TUMBLE / HOP / CUMULATE.
    for (String window :
        List.of(
            "tumble(table bids, descriptor(ts), interval '10' second)",
            "hop(table bids, descriptor(ts), interval '2' second, interval '10' second)",
            "cumulate(table bids, descriptor(ts), interval '2' second, interval '10' second)")) {
      String text =
          PlanPrinter.explain(
              plan(
                  "select * from (select bidder, price, window_start, window_end,"
                      + " row_number() over (partition by window_start, window_end, bidder"
                      + " order by ts desc) as rownum from table("
                      + window
                      + ")) where rownum = 1"));
      assertThat(text)
          .as(window)
          .containsPattern("Window\\[[^\n]*, window end=#[0-9]+, keep row_number\\(\\) <= 1\\]");
    }
    // A windowed top-N's window columns stay window ends: a windowed aggregate over it (in
    // place: the top-N's rows are hashed on the window already).
    String counts =
        PlanPrinter.explain(
            plan(
                "select window_start, window_end, count(*) from (select *, row_number() over"
                    + " (partition by window_start, window_end order by price desc) as rn from"
                    + " table(tumble(table bids, descriptor(ts), interval '10' second)))"
                    + " where rn <= 3 group by window_start, window_end"));
    assertThat(counts).containsPattern("Aggregate\\[SINGLE, keys=[^\n]*window end=#");
  }

  /**
   * Two top-Ns of the same windowed counts, window-joined: the counts are one stage both read, but
   * each window keeps its sort (a shared sort would be a stage of its own, waiting for the stream).
   */
  @Test
  void aSortSharedByTwoWindowedWindowsStaysWithEach() {
    String counts =
        "(select window_start, window_end, auction, count(*) as n from table(tumble(table bids,"
            + " descriptor(ts), interval '10' second)) group by window_start, window_end, auction)";
    String stages =
        SqlExplainGoldenTest.explain(
            plan(
                "select a.auction, b.auction from (select *, row_number() over (partition by"
                    + " window_start, window_end order by n desc) as rn from "
                    + counts
                    + ") a join (select *, rank() over (partition by window_start, window_end"
                    + " order by n desc) as rk from "
                    + counts
                    + ") b on a.window_start = b.window_start and a.window_end = b.window_end"
                    + " and a.rn = b.rk"));
    stages = stages.substring(stages.indexOf("-- stages"));
    assertThat(stages).contains("window end build=#1 probe=#1").contains("readers=[2, 3]");
    assertThat(stages.split("window end=#2\\]\n\\s+Sort\\[", -1)).hasSize(3);
  }

  @Test
  void windowFunctionsNotPartitionedByAWindowEndAreRefused() {
    assertRefused(
        "select auction, row_number() over (partition by auction order by price) from bids",
        "must be partitioned by the window_end");
    assertRefused(
        "select * from (select *, rank() over (partition by window_start order by price) as r"
            + " from table(tumble(table bids, descriptor(ts), interval '10' second))) where r <= 3",
        "PARTITION BY window_start, window_end");
    assertRefused("select sum(price) over () from bids", "window function (OVER)");
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
