package dev.quiver.operators.expr;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;

/** The user-facing errors of expression evaluation; each names the expression and the row. */
public final class Errors {
  private Errors() {}

  public static QuiverException divisionByZero(String expression, int row) {
    return new QuiverException(
        ErrorCode.DIVISION_BY_ZERO, "division by zero in " + expression + " at row " + row);
  }

  public static QuiverException overflow(String expression, int row, String detail) {
    return new QuiverException(
        ErrorCode.NUMERIC_OVERFLOW,
        "numeric overflow in " + expression + " at row " + row + ": " + detail);
  }

  public static QuiverException invalidCast(
      String expression, int row, String value, Object target) {
    return new QuiverException(
        ErrorCode.INVALID_CAST,
        "cannot cast " + value + " to " + target + " in " + expression + " at row " + row);
  }

  public static QuiverException invalidArgument(String expression, int row, String detail) {
    return new QuiverException(
        ErrorCode.INVALID_ARGUMENT, detail + " in " + expression + " at row " + row);
  }
}
