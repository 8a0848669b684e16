package dev.quiver.plan.expr;

import static dev.quiver.plan.expr.Exprs.DECIMAL_15_2;
import static dev.quiver.plan.expr.Exprs.and;
import static dev.quiver.plan.expr.Exprs.between;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.caseWhen;
import static dev.quiver.plan.expr.Exprs.cast;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.date;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.in;
import static dev.quiver.plan.expr.Exprs.interval;
import static dev.quiver.plan.expr.Exprs.intervalDays;
import static dev.quiver.plan.expr.Exprs.intervalMonths;
import static dev.quiver.plan.expr.Exprs.intervalYears;
import static dev.quiver.plan.expr.Exprs.like;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.Exprs.notLike;
import static dev.quiver.plan.expr.Exprs.nullOf;
import static dev.quiver.plan.expr.Exprs.timestamp;
import static dev.quiver.plan.expr.Exprs.when;
import static dev.quiver.plan.expr.ScalarFunction.ADD;
import static dev.quiver.plan.expr.ScalarFunction.DIVIDE;
import static dev.quiver.plan.expr.ScalarFunction.EXTRACT_YEAR;
import static dev.quiver.plan.expr.ScalarFunction.GREATER_THAN_OR_EQUAL;
import static dev.quiver.plan.expr.ScalarFunction.IS_NULL;
import static dev.quiver.plan.expr.ScalarFunction.MULTIPLY;
import static dev.quiver.plan.expr.ScalarFunction.SUBSTRING;
import static dev.quiver.plan.expr.ScalarFunction.SUBTRACT;
import static dev.quiver.plan.expr.ScalarFunction.TRIM_LEADING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExprTest {
  private static final Expr PRICE = col(5, DECIMAL_15_2);
  private static final Expr DISCOUNT = col(6, DECIMAL_15_2);

  @Test
  void printsInOneLine() {
    assertThat(call(MULTIPLY, PRICE, call(SUBTRACT, lit(1), DISCOUNT)))
        .hasToString("(#5 * (1 - #6))");
    assertThat(like(col(2, SqlType.VARCHAR), "PROMO%")).hasToString("#2 LIKE 'PROMO%'");
    assertThat(notLike(col(2, SqlType.VARCHAR, "p_type"), "it's%"))
        .hasToString("p_type#2 NOT LIKE 'it''s%'");
    assertThat(new Like(col(1, SqlType.VARCHAR), "5!%", '!', false))
        .hasToString("#1 LIKE '5!%' ESCAPE '!'");
    assertThat(cast(col(1, SqlType.INTEGER), DECIMAL_15_2))
        .hasToString("CAST(#1 AS DECIMAL(15,2))");
    assertThat(call(GREATER_THAN_OR_EQUAL, col(4, SqlType.DATE), date("1994-01-01")))
        .hasToString("(#4 >= DATE '1994-01-01')");
    assertThat(
            and(
                lit(true),
                call(IS_NULL, PRICE),
                between(DISCOUNT, decimal("0.05"), decimal("0.07"))))
        .hasToString("(TRUE AND (#5 IS NULL) AND (#6 BETWEEN 0.05 AND 0.07))");
    assertThat(in(col(0, SqlType.INTEGER), lit(1), lit(2))).hasToString("#0 IN (1, 2)");
    assertThat(caseWhen(null, when(lit(false), lit("x"))))
        .hasToString("CASE WHEN FALSE THEN 'x' END");
    assertThat(call(SUBSTRING, col(0, SqlType.VARCHAR), lit(1), lit(3)))
        .hasToString("SUBSTRING(#0 FROM 1 FOR 3)");
    assertThat(call(TRIM_LEADING, col(0, SqlType.VARCHAR)))
        .hasToString("TRIM(LEADING ' ' FROM #0)");
    assertThat(call(EXTRACT_YEAR, col(0, SqlType.DATE))).hasToString("EXTRACT(YEAR FROM #0)");
    assertThat(call(ScalarFunction.NEGATE, lit(1.5))).hasToString("(- 1.5E0)");
  }

  @Test
  void printsLiteralsAsSql() {
    assertThat(intervalYears(1)).hasToString("INTERVAL '1' YEAR");
    assertThat(intervalMonths(3)).hasToString("INTERVAL '3' MONTH");
    assertThat(intervalMonths(-14)).hasToString("INTERVAL '-1-2' YEAR TO MONTH");
    assertThat(intervalDays(90)).hasToString("INTERVAL '90' DAY");
    assertThat(interval(Duration.ofMillis(90_061_001)))
        .hasToString("INTERVAL '1 01:01:01.001' DAY TO SECOND");
    assertThat(timestamp("1994-01-01 10:00:00.25"))
        .hasToString("TIMESTAMP '1994-01-01 10:00:00.25'");
    assertThat(nullOf(SqlType.DATE)).hasToString("CAST(NULL AS DATE)");
    assertThat(new Literal(7L, SqlType.BIGINT)).hasToString("7");
  }

  @Test
  void derivesTypesAndNullability() {
    assertThat(call(MULTIPLY, PRICE, call(SUBTRACT, lit(1), DISCOUNT)).sqlType())
        .isEqualTo(SqlType.decimal(32, 4));
    assertThat(call(DIVIDE, PRICE, DISCOUNT).sqlType()).isEqualTo(SqlType.decimal(33, 18));
    assertThat(call(ADD, col(0, SqlType.TINYINT), col(1, SqlType.SMALLINT)).sqlType())
        .isEqualTo(SqlType.INTEGER);
    assertThat(call(ADD, col(0, SqlType.INTEGER), lit(1L)).sqlType()).isEqualTo(SqlType.BIGINT);
    assertThat(call(ADD, col(0, SqlType.REAL), lit(1)).sqlType()).isEqualTo(SqlType.DOUBLE);
    assertThat(call(ADD, date("1994-01-01"), intervalYears(1)).sqlType()).isEqualTo(SqlType.DATE);
    assertThat(call(SUBTRACT, date("1994-01-01"), col(0, SqlType.DATE)).sqlType())
        .isEqualTo(SqlType.INTEGER);
    assertThat(call(ADD, date("1994-01-01"), col(0, SqlType.SMALLINT)).sqlType())
        .isEqualTo(SqlType.DATE);
    assertThat(call(ADD, lit(5L), date("1994-01-01")).signature().operands())
        .containsExactly(SqlType.BIGINT, SqlType.DATE);
    assertThat(call(SUBTRACT, date("1994-01-01"), lit(5)).sqlType()).isEqualTo(SqlType.DATE);
    assertThat(caseWhen(lit(0L), when(lit(true), PRICE)).sqlType())
        .isEqualTo(SqlType.decimal(21, 2));
    assertThat(call(IS_NULL, PRICE).nullable()).isFalse();
    assertThat(call(ADD, lit(1), lit(2)).nullable()).isFalse();
    assertThat(call(ADD, lit(1), PRICE).nullable()).isTrue();
    assertThat(call(ScalarFunction.COALESCE, PRICE, lit(0)).nullable()).isFalse();
    assertThat(call(MULTIPLY, PRICE, DISCOUNT).type()).isEqualTo(SqlType.decimal(31, 4).arrow());
  }

  @Test
  void rejectsIllTypedExpressions() {
    assertThatThrownBy(() -> call(ADD, lit("a"), lit(1)))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_TYPE))
        .hasMessageContaining("ADD");
    // Days are whole and come after the date in a subtraction; a TIMESTAMP takes an interval.
    assertThatThrownBy(() -> call(SUBTRACT, lit(5), date("2000-01-01")))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call(ADD, col(0, SqlType.TIMESTAMP), lit(5)))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call(ADD, date("2000-01-01"), decimal("1.5")))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call(ADD, date("2000-01-01"), lit(1.5)))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> cast(date("2000-01-01"), SqlType.INTEGER))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call(ScalarFunction.NOT, lit(1))).isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call(ScalarFunction.ROUND, PRICE, PRICE))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> caseWhen(null, when(lit(1), lit(1))))
        .isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call(MULTIPLY, lit(1)))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("takes 2");
  }

  @Test
  void equalsHashCodeAndJavaSerialization() throws Exception {
    Expr expr =
        and(
            call(
                GREATER_THAN_OR_EQUAL,
                col(4, SqlType.DATE, "l_shipdate"),
                call(ADD, date("1994-01-01"), intervalYears(1))),
            in(col(1, SqlType.VARCHAR), lit("a"), nullOf(SqlType.VARCHAR)),
            like(col(1, SqlType.VARCHAR), "x%"),
            call(
                GREATER_THAN_OR_EQUAL,
                caseWhen(PRICE, when(lit(true), cast(DISCOUNT, SqlType.DOUBLE))),
                lit(1.5)));
    Expr same =
        and(
            call(
                GREATER_THAN_OR_EQUAL,
                col(4, SqlType.DATE),
                call(ADD, date("1994-01-01"), intervalYears(1))),
            in(col(1, SqlType.VARCHAR), lit("a"), nullOf(SqlType.VARCHAR)),
            like(col(1, SqlType.VARCHAR), "x%"),
            call(
                GREATER_THAN_OR_EQUAL,
                caseWhen(PRICE, when(lit(true), cast(DISCOUNT, SqlType.DOUBLE))),
                lit(1.5)));
    assertThat(expr).isEqualTo(same).hasSameHashCodeAs(same);
    assertThat(call(ADD, lit(1), lit(2))).isNotEqualTo(call(ADD, lit(2), lit(1)));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(expr);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      Expr copy = (Expr) in.readObject();
      assertThat(copy).isEqualTo(expr).hasToString(expr.toString());
      assertThat(copy.children().get(3).children().get(0).type()).isEqualTo(SqlType.DOUBLE.arrow());
    }
  }

  @Test
  void visitorDispatchesEveryNode() {
    ExprVisitor<String> names =
        new ExprVisitor<>() {
          @Override
          public String visitColumn(ColumnRef column) {
            return "column";
          }

          @Override
          public String visitLiteral(Literal literal) {
            return "literal";
          }

          @Override
          public String visitCall(Call call) {
            return "call";
          }

          @Override
          public String visitFunction(FunctionCall call) {
            return "function";
          }

          @Override
          public String visitCase(Case caseExpr) {
            return "case";
          }

          @Override
          public String visitCast(Cast cast) {
            return "cast";
          }

          @Override
          public String visitInList(InList inList) {
            return "in";
          }

          @Override
          public String visitLike(Like like) {
            return "like";
          }
        };
    List<Expr> exprs =
        List.of(
            PRICE,
            lit(1),
            call(ADD, lit(1), lit(1)),
            caseWhen(null, when(lit(true), lit(1))),
            cast(lit(1), SqlType.BIGINT),
            in(lit(1), lit(2)),
            like(lit("a"), "a"));
    assertThat(exprs.stream().map(e -> e.accept(names)))
        .containsExactly("column", "literal", "call", "case", "cast", "in", "like");
  }
}
