package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanPrinter;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.ScanFilter;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Which conjuncts of a filter above a scan become the scan's {@link ScanFilter}, and which not. */
class ScanFilterPushdownTest {
  private static final List<SplitUnit> UNITS =
      List.of(
          SplitUnit.file("t/part-0.parquet", 1000, 10),
          SplitUnit.file("t/part-1.parquet", 1000, 10),
          SplitUnit.file("t/part-2.parquet", 1000, 10));

  private final List<ScanFilter> prunerCalls = new ArrayList<>();

  private final SqlPlanner planner =
      new SqlPlanner(
          new Catalog()
              .add(
                  new CatalogTable(
                          "t",
                          RowSchema.of(
                              Column.of("i", SqlType.INTEGER),
                              Column.of("b", SqlType.BIGINT),
                              Column.of("d", SqlType.decimal(15, 2)),
                              Column.of("dt", SqlType.DATE),
                              Column.of("s", SqlType.VARCHAR),
                              Column.of("f", SqlType.DOUBLE),
                              Column.of("flag", SqlType.BOOLEAN)),
                          30,
                          UNITS,
                          Map.of())
                      .withPruner(
                          filter -> {
                            prunerCalls.add(filter);
                            return UNITS.subList(0, 1); // statistics rule out two files
                          })));

  /** The scan's pushed filter, or null if it has none; checks the filter operator stays. */
  private String pushed(String where) {
    String plan = PlanPrinter.explain(planner.plan("select * from t where " + where, 2));
    assertThat(plan).contains("Filter[");
    Matcher filter =
        Pattern.compile("Scan\\[t \\[[^]]*\\], filter=\\((.*)\\), units").matcher(plan);
    return filter.find() ? filter.group(1) : null;
  }

  @Test
  void comparisonsOfColumnsWithLiteralsArePushedAndStatisticsPruneUnits() {
    String sql =
        "select i from t where dt >= date '1994-01-01' and dt < date '1995-01-01'"
            + " and d between 0.05 and 0.07 and i < 24 and s = 'x' and b <> 7 and flag = true";
    String plan = PlanPrinter.explain(planner.plan(sql, 2));

    assertThat(plan)
        .contains(
            "filter=(dt >= DATE '1994-01-01' AND dt < DATE '1995-01-01' AND d >= 0.05"
                + " AND d <= 0.07 AND i < 24 AND s = 'x' AND b <> 7 AND flag = TRUE), units=1,");
    assertThat(prunerCalls).hasSize(1);
  }

  @Test
  void literalOnTheLeftFlips() {
    assertThat(pushed("5 < i and date '1995-01-01' >= dt"))
        .isEqualTo("i > 5 AND dt <= DATE '1995-01-01'");
  }

  @Test
  void aDateLiteralPlusDaysIsALiteral() {
    assertThat(pushed("dt >= date '1995-02-27' + 3")).isEqualTo("dt >= DATE '1995-03-02'");
    assertThat(pushed("dt + 3 >= date '1995-02-27'")).isNull(); // a function of the column
  }

  @Test
  void inListIsPushedAsItsRange() {
    assertThat(pushed("s in ('b', 'a', 'c')")).isEqualTo("s >= 'a' AND s <= 'c'");
    assertThat(pushed("i in (7, -3, 12)")).isEqualTo("i >= -3 AND i <= 12");
  }

  @Test
  void onlyThePushableConjunctsArePushed() {
    assertThat(pushed("i < 5 and upper(s) = 'A' and (b = 1 or i = 2)")).isEqualTo("i < 5");
  }

  @Test
  void disjunctionsOverSeveralColumnsAreNotPushed() {
    assertThat(pushed("i = 1 or b = 2")).isNull();
    assertThat(pushed("i < 1 or i > 5")).isNull();
    assertThat(prunerCalls).isEmpty();
  }

  @Test
  void functionsOfColumnsAreNotPushed() {
    assertThat(pushed("i + 1 = 5")).isNull();
    assertThat(pushed("abs(i) < 3")).isNull();
    assertThat(pushed("upper(s) = 'A'")).isNull();
    assertThat(pushed("s like 'a%'")).isNull();
    assertThat(pushed("i < b")).isNull();
    assertThat(pushed("i is null")).isNull();
  }

  @Test
  void valuePreservingCastsArePushedOnTheStoredColumn() {
    assertThat(pushed("cast(i as bigint) = 5")).isEqualTo("i = 5");
    assertThat(pushed("cast(i as decimal(12, 2)) < 2.5")).isEqualTo("i < 2.5");
  }

  @Test
  void castsThatChangeValuesAreNotPushed() {
    assertThat(pushed("cast(d as integer) = 5")).isNull(); // rounds
    assertThat(pushed("cast(i as double) < 2.5")).isNull(); // floating point
    assertThat(pushed("cast(s as date) = date '1995-01-01'")).isNull();
    assertThat(pushed("cast(b as integer) = 5")).isNull(); // may overflow
    assertThat(pushed("cast(d as decimal(15, 1)) = 1.5")).isNull(); // rounds
  }

  @Test
  void booleanColumnsArePushedAsEqualities() {
    assertThat(pushed("not flag and i = 1")).isEqualTo("flag = FALSE AND i = 1");
  }

  @Test
  void floatingPointIsNotPushed() {
    assertThat(pushed("f < 1.5")).isNull();
  }

  @Test
  void aFilterAboveAnAggregateIsNotPushedIntoTheScan() {
    String plan =
        PlanPrinter.explain(
            planner.plan("select i, count(*) from t group by i having count(*) > 5", 2));
    assertThat(plan).doesNotContain("filter=");
  }

  @Test
  void comparisonsOfComputedAndMetadataColumnsAreNotPushed() {
    TableColumns columns =
        TableColumns.declare(
            "c",
            List.of(
                TableColumns.Declared.physical(Column.of("i", SqlType.INTEGER)),
                TableColumns.Declared.computed(Column.of("twice", SqlType.BOOLEAN), "i * 2"),
                TableColumns.Declared.metadata(
                    Column.of("p", SqlType.INTEGER), "partition", true)));
    SqlPlanner computed =
        new SqlPlanner(
            new Catalog()
                .add(new CatalogTable("c", columns.schema(), 30, UNITS, columns.options())));
    String plan =
        PlanPrinter.explain(
            computed.plan("select * from c where twice > 4 and p = 1 and i < 10", 2));
    // Not stored: no file statistic can rule anything out by them.
    assertThat(plan).contains("filter=(i < 10)").doesNotContain("twice >", "p =");
  }

  @Test
  void withoutAPrunerEveryUnitStays() {
    SqlPlanner plain =
        new SqlPlanner(
            new Catalog()
                .add(
                    new CatalogTable(
                        "u", RowSchema.of(Column.of("i", SqlType.INTEGER)), 30, UNITS, Map.of())));
    String plan = PlanPrinter.explain(plain.plan("select i from u where i > 3", 2));
    assertThat(plan).contains("Scan[u [i], filter=(i > 3), units=3, tasks=2]");
  }
}
