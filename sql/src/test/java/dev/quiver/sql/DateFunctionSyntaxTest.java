package dev.quiver.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DateFunctionSyntaxTest {
  @Test
  void duckDbsQuotedUnitBecomesABareWordInPlace() {
    String sql = "select date_diff('day', a, b), DateDiff ( 'Month' , a, b) from t";
    String rewritten = DateFunctionSyntax.unquoteUnits(sql);
    assertThat(rewritten)
        .isEqualTo("select datediff ( day , a, b), datediff (  Month  , a, b) from t")
        .hasSameSizeAs(sql);
  }

  @Test
  void stringsCommentsQuotedNamesAndOtherFormsStayAsTheyAre() {
    for (String sql :
        new String[] {
          "select 'date_diff(''day'', a' from t",
          "select 1 -- date_diff('day', a, b)",
          "select 1 /* datediff('day', a, b) */",
          "select \"date_diff('day', a\" from t",
          "select datediff(day, a, b), date_diff(a, b, day) from t",
          "select date_diff('2 days', a, b), my_date_diff('day', a, b), datediff('day') from t"
        }) {
      assertThat(DateFunctionSyntax.unquoteUnits(sql)).isSameAs(sql);
    }
  }
}
