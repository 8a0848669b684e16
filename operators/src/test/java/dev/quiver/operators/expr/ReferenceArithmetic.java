package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Reference.decimal;
import static dev.quiver.operators.expr.Reference.error;
import static dev.quiver.operators.expr.ReferenceFunctions.compare;

import dev.quiver.error.ErrorCode;
import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;

/** Reference arithmetic: BigInteger for integers, BigDecimal for decimals, Java floating point. */
final class ReferenceArithmetic {
  private ReferenceArithmetic() {}

  static Object arithmetic(Call call, Object a, Object b) {
    SqlType type = call.sqlType();
    ScalarFunction f = call.function();
    if (a instanceof LocalDate
        || a instanceof LocalDateTime
        || a instanceof Period
        || a instanceof Duration
        || b instanceof LocalDate) {
      return ReferenceDates.arithmetic(f, a, b);
    }
    boolean divides = f == ScalarFunction.DIVIDE || f == ScalarFunction.MODULO;
    if (divides && compare(b, b instanceof Double ? (Object) 0.0 : (Object) 0L) == 0) {
      throw error(ErrorCode.DIVISION_BY_ZERO, "division by zero in " + call);
    }
    switch (type.kind()) {
      case REAL:
        {
          float x = ((Number) a).floatValue();
          float y = ((Number) b).floatValue();
          float r =
              f == ScalarFunction.ADD
                  ? x + y
                  : f == ScalarFunction.SUBTRACT
                      ? x - y
                      : f == ScalarFunction.MULTIPLY
                          ? x * y
                          : f == ScalarFunction.DIVIDE ? x / y : x % y;
          return (double) r;
        }
      case DOUBLE:
        {
          double x = ((Number) a).doubleValue();
          double y = ((Number) b).doubleValue();
          return f == ScalarFunction.ADD
              ? x + y
              : f == ScalarFunction.SUBTRACT
                  ? x - y
                  : f == ScalarFunction.MULTIPLY
                      ? x * y
                      : f == ScalarFunction.DIVIDE ? x / y : x % y;
        }
      case DECIMAL:
        {
          BigDecimal x = decimal(a);
          BigDecimal y = decimal(b);
          BigDecimal r;
          if (f == ScalarFunction.DIVIDE) {
            r = x.divide(y, type.scale(), RoundingMode.HALF_UP);
          } else {
            r =
                f == ScalarFunction.ADD
                    ? x.add(y)
                    : f == ScalarFunction.SUBTRACT
                        ? x.subtract(y)
                        : f == ScalarFunction.MULTIPLY ? x.multiply(y) : x.remainder(y);
          }
          return ReferenceCasts.fitDecimal(
              r.setScale(type.scale(), RoundingMode.HALF_UP), type, call.toString());
        }
      default:
        {
          BigInteger x = BigInteger.valueOf((Long) a);
          BigInteger y = BigInteger.valueOf((Long) b);
          BigInteger r =
              f == ScalarFunction.ADD
                  ? x.add(y)
                  : f == ScalarFunction.SUBTRACT
                      ? x.subtract(y)
                      : f == ScalarFunction.MULTIPLY
                          ? x.multiply(y)
                          : f == ScalarFunction.DIVIDE ? x.divide(y) : x.remainder(y);
          return ReferenceCasts.fitInteger(r, type, call.toString());
        }
    }
  }

  static Object negate(Call call, Object v) {
    if (v instanceof Double) {
      return -(Double) v;
    }
    if (v instanceof BigDecimal) {
      return ((BigDecimal) v).negate();
    }
    return ReferenceCasts.fitInteger(
        BigInteger.valueOf((Long) v).negate(), call.sqlType(), call.toString());
  }

  static Object round(Call call, Object v, long digits) {
    SqlType type = call.sqlType();
    if (v instanceof Double) {
      double scale = Math.pow(10, digits);
      double x = (Double) v;
      double r = digits == 0 ? halfAway(x) : halfAway(x * scale) / scale;
      return type.kind() == SqlType.Kind.REAL ? (double) (float) r : r;
    }
    BigDecimal r = decimal(v).setScale((int) digits, RoundingMode.HALF_UP);
    if (v instanceof Long) {
      return ReferenceCasts.fitInteger(r.toBigIntegerExact(), type, call.toString());
    }
    return ReferenceCasts.fitDecimal(
        r.setScale(type.scale(), RoundingMode.UNNECESSARY), type, call.toString());
  }

  static double halfAway(double x) {
    return new BigDecimal(x).setScale(0, RoundingMode.HALF_UP).doubleValue();
  }
}
