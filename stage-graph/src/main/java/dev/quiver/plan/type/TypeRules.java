package dev.quiver.plan.type;

import static java.util.Objects.requireNonNull;

/**
 * SQL type derivation for numeric arithmetic and for the common type of several operands.
 *
 * <p><b>Integers.</b> Integer promotion as in C and Java: TINYINT and SMALLINT operands of
 * arithmetic become INTEGER, and the result is the wider of the two promoted types (INTEGER or
 * BIGINT). Integer division truncates toward zero; a result outside the type's range is a
 * NUMERIC_OVERFLOW error, never a silent wrap.
 *
 * <p><b>Floating point.</b> REAL op REAL is REAL; any other arithmetic with a REAL or DOUBLE
 * operand is DOUBLE.
 *
 * <p><b>Decimals</b> (the SQL Server / Spark rules). An integer operand counts as the decimal that
 * holds all its values: TINYINT as DECIMAL(3,0), SMALLINT (5,0), INTEGER (10,0), BIGINT (19,0). For
 * operands {@code DECIMAL(p1,s1)} and {@code DECIMAL(p2,s2)}:
 *
 * <pre>
 *   operation   result scale s            result precision p
 *   a + b, a - b  max(s1, s2)             max(p1 - s1, p2 - s2) + s + 1
 *   a * b         s1 + s2                 p1 + p2 + 1
 *   a / b         max(6, s1 + p2 + 1)     p1 - s1 + s2 + s
 *   a % b         max(s1, s2)             min(p1 - s1, p2 - s2) + s
 * </pre>
 *
 * A precision above 38 is capped ({@link #bounded}): the integer digits {@code p - s} are kept and
 * the scale shrinks to make room, but never below {@code min(s, 6)}; the precision becomes 38.
 * Values are then rounded HALF_UP to the result scale, and a value with more integer digits than
 * the result type holds is a NUMERIC_OVERFLOW error.
 *
 * <p><b>A quotient that does not fit</b> is DOUBLE, not a 38-digit decimal cut to 6 decimals: where
 * {@code a / b}'s exact type above would need more than 38 digits (a ratio of two SUMs, which are
 * DECIMAL(38, s), or a SUM divided by an integer), both operands are converted to DOUBLE and
 * divided there, keeping about 16 significant digits whatever the quotient's size. Capping it as
 * SQL Server and Spark do would keep 6 decimals: TPC-DS q58's {@code x / (sum / 3) * 100} then
 * gives 100.349600 where the quotient is 100.3496115... (DuckDB divides every decimal as DOUBLE). A
 * quotient whose exact type fits stays an exact DECIMAL.
 *
 * <p><b>Common type</b> (comparisons, CASE, COALESCE, IN, BETWEEN): equal types stay; integers
 * widen; an integer and a decimal meet in a decimal; anything with floating point becomes DOUBLE
 * (REAL with REAL stays REAL); decimals keep the larger scale and the most integer digits (capped
 * at 38 digits, losing scale first); DATE and TIMESTAMP meet in TIMESTAMP; a VARCHAR meets a DATE
 * or TIMESTAMP in the date type (a string literal compared with a date).
 */
public final class TypeRules {
  private TypeRules() {}

  /** The decimal arithmetic operations whose result types differ. */
  public enum DecimalOp {
    ADD,
    MULTIPLY,
    DIVIDE,
    MODULO
  }

  /** {@code DECIMAL(precision, scale)} capped at precision 38 as described in the class doc. */
  public static SqlType bounded(int precision, int scale) {
    if (precision <= SqlType.MAX_PRECISION) {
      return SqlType.decimal(precision, scale);
    }
    int integerDigits = precision - scale;
    int minScale = Math.min(scale, 6);
    int adjusted = Math.max(SqlType.MAX_PRECISION - integerDigits, minScale);
    return SqlType.decimal(SqlType.MAX_PRECISION, adjusted);
  }

  /** The decimal type that holds every value of an integer or decimal type exactly. */
  public static SqlType asDecimal(SqlType type) {
    requireNonNull(type, "type is null");
    if (type.isDecimal()) {
      return type;
    }
    if (!type.isInteger()) {
      throw new IllegalArgumentException(type + " is not an exact numeric type");
    }
    return SqlType.decimal(type.precision(), 0);
  }

  /** The result type of a decimal operation on two exact numeric operands. */
  public static SqlType decimal(DecimalOp op, SqlType left, SqlType right) {
    SqlType a = asDecimal(left);
    SqlType b = asDecimal(right);
    int p1 = a.precision();
    int s1 = a.scale();
    int p2 = b.precision();
    int s2 = b.scale();
    switch (op) {
      case ADD:
        {
          int scale = Math.max(s1, s2);
          return bounded(Math.max(p1 - s1, p2 - s2) + scale + 1, scale);
        }
      case MULTIPLY:
        return bounded(p1 + p2 + 1, s1 + s2);
      case DIVIDE:
        return bounded(quotientPrecision(a, b), quotientScale(a, b));
      case MODULO:
        {
          int scale = Math.max(s1, s2);
          return bounded(Math.min(p1 - s1, p2 - s2) + scale, scale);
        }
      default:
        throw new IllegalArgumentException("unknown operation " + op);
    }
  }

  /**
   * Whether the exact decimal type of {@code a / b} (scale {@code max(6, s1 + p2 + 1)}) has at most
   * 38 digits, so that {@link #decimal} need not shrink its scale; see the class comment.
   */
  public static boolean quotientFits(SqlType a, SqlType b) {
    return quotientPrecision(asDecimal(a), asDecimal(b)) <= SqlType.MAX_PRECISION;
  }

  /** The exact scale of decimal {@code a / b}: {@code max(6, s1 + p2 + 1)}. */
  private static int quotientScale(SqlType a, SqlType b) {
    return Math.max(6, a.scale() + b.precision() + 1);
  }

  /** The exact precision of decimal {@code a / b}, before the cap at 38. */
  private static int quotientPrecision(SqlType a, SqlType b) {
    return a.precision() - a.scale() + b.scale() + quotientScale(a, b);
  }

  /** Integer promotion: both promoted to at least INTEGER, then the wider. */
  public static SqlType promoteIntegers(SqlType a, SqlType b) {
    checkInteger(a);
    checkInteger(b);
    return a.kind() == SqlType.Kind.BIGINT || b.kind() == SqlType.Kind.BIGINT
        ? SqlType.BIGINT
        : SqlType.INTEGER;
  }

  /**
   * The result of {@code a op b} for numeric operands, or null if one is not numeric. {@code op}
   * chooses the decimal rule; integers and floating point follow the class doc.
   */
  public static SqlType arithmetic(DecimalOp op, SqlType a, SqlType b) {
    requireNonNull(op, "op is null");
    if (!a.isNumeric() || !b.isNumeric()) {
      return null;
    }
    if (a.isFloatingPoint() || b.isFloatingPoint()) {
      return a.kind() == SqlType.Kind.REAL && b.kind() == SqlType.Kind.REAL
          ? SqlType.REAL
          : SqlType.DOUBLE;
    }
    if (a.isDecimal() || b.isDecimal()) {
      return op == DecimalOp.DIVIDE && !quotientFits(a, b) ? SqlType.DOUBLE : decimal(op, a, b);
    }
    return promoteIntegers(a, b);
  }

  /** The type both operands convert to for comparison or a shared result, or null if none. */
  public static SqlType commonType(SqlType a, SqlType b) {
    requireNonNull(a, "a is null");
    requireNonNull(b, "b is null");
    if (a.equals(b)) {
      return a;
    }
    if (a.isNumeric() && b.isNumeric()) {
      return commonNumeric(a, b);
    }
    if (a.isDatetime() && b.isDatetime()) {
      return SqlType.TIMESTAMP;
    }
    if (a.kind() == SqlType.Kind.VARCHAR && b.isDatetime()) {
      return b;
    }
    if (b.kind() == SqlType.Kind.VARCHAR && a.isDatetime()) {
      return a;
    }
    return null;
  }

  private static SqlType commonNumeric(SqlType a, SqlType b) {
    if (a.isFloatingPoint() || b.isFloatingPoint()) {
      return a.kind() == SqlType.Kind.REAL && b.kind() == SqlType.Kind.REAL
          ? SqlType.REAL
          : SqlType.DOUBLE;
    }
    if (a.isInteger() && b.isInteger()) {
      return a.kind().ordinal() >= b.kind().ordinal() ? a : b;
    }
    SqlType x = asDecimal(a);
    SqlType y = asDecimal(b);
    int integerDigits = Math.max(x.precision() - x.scale(), y.precision() - y.scale());
    int scale = Math.max(x.scale(), y.scale());
    if (integerDigits + scale > SqlType.MAX_PRECISION) {
      scale = Math.max(0, SqlType.MAX_PRECISION - integerDigits);
    }
    return SqlType.decimal(Math.min(integerDigits + scale, SqlType.MAX_PRECISION), scale);
  }

  private static void checkInteger(SqlType type) {
    if (!requireNonNull(type, "type is null").isInteger()) {
      throw new IllegalArgumentException(type + " is not an integer type");
    }
  }
}
