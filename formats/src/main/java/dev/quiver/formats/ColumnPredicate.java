package dev.quiver.formats;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * One comparison {@code column op literal}, with SQL semantics: a NULL column value never satisfies
 * it.
 *
 * <p>Literals: {@link Integer}, {@link Long} or {@link BigDecimal} for integer and decimal columns;
 * {@link LocalDate} (or epoch days as a number) for DATE; {@link LocalDateTime} (or epoch
 * microseconds) for TIMESTAMP; {@link String} for VARCHAR; {@link Boolean}. Predicates on
 * floating-point columns are accepted but never skip anything (NaN has no agreed order).
 *
 * @param column the column name, as in the table schema
 * @param op the comparison
 * @param literal the non-null value compared with
 */
public record ColumnPredicate(String column, Op op, Object literal) implements Serializable {
  /** The comparisons. */
  public enum Op {
    EQ("=", "equal"),
    NE("<>", "not_equal"),
    LT("<", "lt"),
    LE("<=", "lte"),
    GT(">", "gt"),
    GE(">=", "gte");

    private final String symbol;
    private final String substraitName;

    Op(String symbol, String substraitName) {
      this.symbol = symbol;
      this.substraitName = substraitName;
    }

    /** The name of this comparison in Substrait's {@code functions_comparison.yaml}. */
    String substraitName() {
      return substraitName;
    }

    @Override
    public String toString() {
      return symbol;
    }
  }

  public ColumnPredicate {
    requireNonNull(column, "column is null");
    requireNonNull(op, "op is null");
    requireNonNull(literal, "literal is null");
    if (!(literal instanceof Number
        || literal instanceof String
        || literal instanceof Boolean
        || literal instanceof LocalDate
        || literal instanceof LocalDateTime)) {
      throw new IllegalArgumentException(
          "unsupported literal type " + literal.getClass().getName() + " for column " + column);
    }
  }

  /**
   * The literal in the domain of {@link ColumnStats}: numbers, dates and timestamps as {@link
   * BigDecimal}, strings as UTF-8 bytes, booleans as themselves; null for an unordered literal
   * (floating point).
   */
  Object comparable() {
    if (literal instanceof Double || literal instanceof Float) {
      return null;
    }
    if (literal instanceof BigDecimal decimal) {
      return decimal;
    }
    if (literal instanceof Number number) {
      return BigDecimal.valueOf(number.longValue());
    }
    if (literal instanceof LocalDate date) {
      return BigDecimal.valueOf(date.toEpochDay());
    }
    if (literal instanceof LocalDateTime time) {
      long seconds = time.toEpochSecond(ZoneOffset.UTC);
      return BigDecimal.valueOf(seconds)
          .scaleByPowerOfTen(6)
          .add(BigDecimal.valueOf(time.getNano(), 3));
    }
    if (literal instanceof String string) {
      return string.getBytes(StandardCharsets.UTF_8);
    }
    return literal; // Boolean
  }

  @Override
  public String toString() {
    return column + " " + op + " " + (literal instanceof String ? "'" + literal + "'" : literal);
  }
}
