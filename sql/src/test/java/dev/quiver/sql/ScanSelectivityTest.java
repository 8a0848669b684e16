package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.junit.jupiter.api.Test;

/** The share of rows a filter over a table keeps, from the table's ranges and distinct counts. */
class ScanSelectivityTest {
  private final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
  private final RexBuilder rex = new RexBuilder(types);
  private final RelDataType date = types.createSqlType(SqlTypeName.DATE);
  private final RelDataType integer = types.createSqlType(SqlTypeName.INTEGER);

  // o_orderdate spans 1992-01-01 .. 1998-08-02 (8035 .. 10440 in days), year 0..200 has 201 values
  private final CatalogTable table =
      new CatalogTable(
              "t",
              RowSchema.of(
                  Column.of("day", SqlType.DATE),
                  Column.of("year", SqlType.INTEGER),
                  Column.of("other", SqlType.INTEGER)),
              1_500_000,
              List.of(),
              Map.of())
          .withDistinctCounts(Map.of(1, 201L))
          .withRanges(
              Map.of(
                  0, new CatalogTable.Range(8035, 10440), 1, new CatalogTable.Range(1900, 2100)));

  private RexNode day(String value) {
    return rex.makeDateLiteral(new DateString(value));
  }

  private double of(RexNode... conjuncts) {
    return ScanSelectivity.of(table, List.of(conjuncts));
  }

  @Test
  void twoComparisonsOfOneColumnAreOneInterval() {
    RexNode column = rex.makeInputRef(date, 0);
    double threeMonths =
        of(
            rex.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, column, day("1993-10-01")),
            rex.makeCall(SqlStdOperatorTable.LESS_THAN, column, day("1994-01-01")));
    assertThat(threeMonths).isCloseTo(92.0 / 2405, within(1e-9));
    // the literal first
    assertThat(of(rex.makeCall(SqlStdOperatorTable.GREATER_THAN, day("1993-10-01"), column)))
        .isCloseTo((8674.0 - 8035) / 2405, within(1e-9));
  }

  @Test
  void aSearchOfARangeCoversItsShareAndAPointOneDistinctValue() {
    RexNode year = rex.makeInputRef(integer, 1);
    RexNode between =
        rex.makeBetween(
            year,
            rex.makeExactLiteral(BigDecimal.valueOf(1999)),
            rex.makeExactLiteral(BigDecimal.valueOf(2001)));
    assertThat(between.getKind().name()).isEqualTo("SEARCH");
    assertThat(of(between)).isCloseTo(2.0 / 200, within(1e-9));
    assertThat(
            of(
                rex.makeCall(
                    SqlStdOperatorTable.EQUALS,
                    year,
                    rex.makeExactLiteral(BigDecimal.valueOf(2000)))))
        .isCloseTo(1.0 / 201, within(1e-12));
    RexNode in =
        rex.makeIn(
            year,
            List.of(
                rex.makeExactLiteral(BigDecimal.valueOf(1999)),
                rex.makeExactLiteral(BigDecimal.valueOf(2000))));
    assertThat(of(in)).isCloseTo(2.0 / 201, within(1e-12));
  }

  @Test
  void aRangeOutsideTheValuesKeepsOneRowAndUnknownColumnsAreGuessed() {
    RexNode column = rex.makeInputRef(date, 0);
    assertThat(of(rex.makeCall(SqlStdOperatorTable.LESS_THAN, column, day("1980-01-01"))))
        .isEqualTo(1.0 / 1_500_000);
    RexNode other =
        rex.makeCall(
            SqlStdOperatorTable.LESS_THAN,
            rex.makeInputRef(integer, 2),
            rex.makeExactLiteral(BigDecimal.TEN));
    assertThat(of(other)).isEqualTo(RelMdUtil.guessSelectivity(other));
  }
}
