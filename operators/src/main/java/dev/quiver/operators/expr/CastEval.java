package dev.quiver.operators.expr;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.type.SqlType;

/**
 * {@code CAST(input AS type)}: NULL stays NULL, every other value converts or fails with an error
 * naming the value, the expression and the row. {@link #create} picks the kernel family once:
 *
 * <ul>
 *   <li>{@link NumericCast} among BOOLEAN, integers, REAL/DOUBLE and DECIMAL: rounding HALF_UP
 *       (away from zero) wherever digits are dropped, NUMERIC_OVERFLOW when a value does not fit.
 *   <li>{@link ParseCast} from VARCHAR, {@link FormatCast} to VARCHAR.
 *   <li>{@link DateCast} between DATE and TIMESTAMP.
 * </ul>
 */
abstract class CastEval extends UnaryEval {
  CastEval(String text, Eval input, SqlType target) {
    super(text, input, target);
  }

  static Eval create(String text, Eval input, SqlType target) {
    SqlType source = input.type;
    boolean sourceNumber = source.isNumeric() || source.kind() == SqlType.Kind.BOOLEAN;
    boolean targetNumber = target.isNumeric() || target.kind() == SqlType.Kind.BOOLEAN;
    if (sourceNumber && targetNumber) {
      return new NumericCast(text, input, target);
    }
    if (source.kind() == SqlType.Kind.VARCHAR) {
      return new ParseCast(text, input, target);
    }
    if (target.kind() == SqlType.Kind.VARCHAR) {
      return new FormatCast(text, input, target);
    }
    if (source.isDatetime() && target.isDatetime()) {
      return new DateCast(text, input, target);
    }
    throw new QuiverException(
        ErrorCode.UNSUPPORTED_TYPE, "no conversion from " + source + " to " + target + ": " + text);
  }
}
