package dev.quiver.plan.expr;

import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Short static factories, so that a planner or a test can write {@code call(MULTIPLY, col(5,
 * DECIMAL_15_2), call(SUBTRACT, lit(1), col(6, DECIMAL_15_2)))}.
 */
public final class Exprs {
  /** TPC-H's money type. */
  public static final SqlType DECIMAL_15_2 = SqlType.decimal(15, 2);

  private Exprs() {}

  /** A nullable column reference. */
  public static ColumnRef col(int index, SqlType type) {
    return new ColumnRef(index, type, true, null);
  }

  /** A nullable column reference with a name for EXPLAIN. */
  public static ColumnRef col(int index, SqlType type, String name) {
    return new ColumnRef(index, type, true, name);
  }

  public static ColumnRef col(int index, ArrowType type) {
    return col(index, SqlType.of(type));
  }

  public static Literal lit(boolean value) {
    return new Literal(value, SqlType.BOOLEAN);
  }

  /** An INTEGER literal. */
  public static Literal lit(int value) {
    return new Literal((long) value, SqlType.INTEGER);
  }

  /** A BIGINT literal. */
  public static Literal lit(long value) {
    return new Literal(value, SqlType.BIGINT);
  }

  /** A DOUBLE literal. */
  public static Literal lit(double value) {
    return new Literal(value, SqlType.DOUBLE);
  }

  /** A VARCHAR literal. */
  public static Literal lit(String value) {
    return new Literal(value, SqlType.VARCHAR);
  }

  /** A DECIMAL literal with exactly the digits of {@code value}: 0.06 is DECIMAL(2,2). */
  public static Literal lit(BigDecimal value) {
    BigDecimal exact = value.scale() < 0 ? value.setScale(0) : value;
    int precision = Math.max(exact.precision(), exact.scale());
    return new Literal(exact, SqlType.decimal(Math.max(precision, 1), exact.scale()));
  }

  /** A DECIMAL literal from its text, e.g. {@code decimal("0.06")}. */
  public static Literal decimal(String text) {
    return lit(new BigDecimal(text));
  }

  /** {@code DATE 'yyyy-mm-dd'}. */
  public static Literal date(String text) {
    return new Literal(LocalDate.parse(text), SqlType.DATE);
  }

  /** {@code TIMESTAMP 'yyyy-mm-ddThh:mm:ss[.ffffff]'} (ISO text). */
  public static Literal timestamp(String isoText) {
    return new Literal(LocalDateTime.parse(isoText.replace(' ', 'T')), SqlType.TIMESTAMP);
  }

  /** {@code INTERVAL 'n' YEAR}. */
  public static Literal intervalYears(int years) {
    return new Literal(Period.ofYears(years), SqlType.INTERVAL_YEAR_MONTH);
  }

  /** {@code INTERVAL 'n' MONTH}. */
  public static Literal intervalMonths(int months) {
    return new Literal(Period.ofMonths(months), SqlType.INTERVAL_YEAR_MONTH);
  }

  /** {@code INTERVAL 'n' DAY}. */
  public static Literal intervalDays(long days) {
    return new Literal(Duration.ofDays(days), SqlType.INTERVAL_DAY_TIME);
  }

  /** A day-time interval of whole milliseconds. */
  public static Literal interval(Duration duration) {
    return new Literal(duration, SqlType.INTERVAL_DAY_TIME);
  }

  /** NULL of {@code type}. */
  public static Literal nullOf(SqlType type) {
    return new Literal(null, type);
  }

  public static Call call(ScalarFunction function, Expr... args) {
    return new Call(function, List.of(args));
  }

  public static Call call(ScalarFunction function, List<Expr> args) {
    return new Call(function, args);
  }

  public static Call and(Expr... args) {
    return call(ScalarFunction.AND, args);
  }

  public static Call or(Expr... args) {
    return call(ScalarFunction.OR, args);
  }

  public static Call not(Expr arg) {
    return call(ScalarFunction.NOT, arg);
  }

  public static Call between(Expr value, Expr low, Expr high) {
    return call(ScalarFunction.BETWEEN, value, low, high);
  }

  public static Cast cast(Expr input, SqlType target) {
    return new Cast(input, target);
  }

  public static InList in(Expr value, Expr... items) {
    return new InList(value, List.of(items), false);
  }

  public static InList notIn(Expr value, Expr... items) {
    return new InList(value, List.of(items), true);
  }

  public static Like like(Expr input, String pattern) {
    return new Like(input, pattern, null, false);
  }

  public static Like like(Expr input, String pattern, char escape) {
    return new Like(input, pattern, escape, false);
  }

  public static Like notLike(Expr input, String pattern) {
    return new Like(input, pattern, null, true);
  }

  public static Case.When when(Expr condition, Expr result) {
    return new Case.When(condition, result);
  }

  /** {@code CASE whens... ELSE elseResult END}; {@code elseResult} may be null. */
  public static Case caseWhen(Expr elseResult, Case.When... whens) {
    return new Case(List.of(whens), elseResult);
  }
}
