package dev.quiver.operators.function.date;

import static dev.quiver.operators.expr.CivilDates.MICROS_PER_DAY;
import static dev.quiver.operators.function.date.DateUnit.MICROS_PER_HOUR;
import static dev.quiver.operators.function.date.DateUnit.MICROS_PER_MINUTE;
import static dev.quiver.operators.function.date.DateUnit.MICROS_PER_SECOND;

import dev.quiver.operators.expr.CivilDates;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Errors;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code date_trunc(unit, date or timestamp)}: the start of the year, quarter, month, ISO week
 * (Monday), day, hour, minute, second, millisecond or microsecond the value falls in, as a
 * TIMESTAMP, also for a DATE (as DuckDB). The unit must be a literal. A DATE beyond the TIMESTAMP
 * range (about 292,000 years from 1970) is NUMERIC_OVERFLOW.
 */
final class DateTrunc extends DeclaredFunction {
  DateTrunc() {
    super(
        "date_trunc",
        List.of("datetrunc"),
        2,
        2,
        "date_trunc(unit, date or timestamp), the unit a literal: year, quarter, month, week,"
            + " day, hour, minute, second, millisecond, microsecond");
  }

  // The epoch days whose midnight is a TIMESTAMP.
  private static final long MAX_DAY = Long.MAX_VALUE / MICROS_PER_DAY - 1;
  private static final long MIN_DAY = Long.MIN_VALUE / MICROS_PER_DAY + 1;

  @Override
  public Signature resolve(List<Expr> args) {
    DateUnit unit = DateUnit.of(args.get(0));
    SqlType value = args.get(1).sqlType();
    if (unit == null || unit.ordinal() > DateUnit.MICROSECOND.ordinal() || !value.isDatetime()) {
      return null;
    }
    return new Signature(SqlType.TIMESTAMP, List.of(SqlType.VARCHAR, value));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    DateUnit unit = DateUnit.of(call.arg(0));
    boolean timestamp = args[1].type.kind() == SqlType.Kind.TIMESTAMP;
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Col x = values[1];
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long truncated;
          if (timestamp) {
            truncated = truncate(unit, readMicros(x, i));
          } else {
            long day = x.data.getInt((long) (i & x.mask) << 2);
            if (day > MAX_DAY || day < MIN_DAY) {
              throw Errors.overflow(text, i, "the date is outside the range of TIMESTAMP");
            }
            truncated = truncate(unit, day * MICROS_PER_DAY);
          }
          data.setLong((long) i << 3, truncated);
        }
      }
    };
  }

  private static long readMicros(Col x, int row) {
    return x.data.getLong((long) (row & x.mask) << 3);
  }

  /** The start of the unit {@code micros} falls in. */
  static long truncate(DateUnit unit, long micros) {
    switch (unit) {
      case MICROSECOND:
        return micros;
      case MILLISECOND:
        return Math.floorDiv(micros, 1000L) * 1000L;
      case SECOND:
        return Math.floorDiv(micros, MICROS_PER_SECOND) * MICROS_PER_SECOND;
      case MINUTE:
        return Math.floorDiv(micros, MICROS_PER_MINUTE) * MICROS_PER_MINUTE;
      case HOUR:
        return Math.floorDiv(micros, MICROS_PER_HOUR) * MICROS_PER_HOUR;
      default:
        break;
    }
    long day = Math.floorDiv(micros, MICROS_PER_DAY);
    long date = CivilDates.civil(day);
    long start =
        switch (unit) {
          case DAY -> day;
          case WEEK -> day - DateUnit.isoDayOfWeek(day) + 1;
          case MONTH -> CivilDates.daysFromCivil(CivilDates.year(date), CivilDates.month(date), 1);
          case QUARTER ->
              CivilDates.daysFromCivil(
                  CivilDates.year(date), (CivilDates.month(date) - 1) / 3 * 3 + 1, 1);
          default -> CivilDates.daysFromCivil(CivilDates.year(date), 1, 1);
        };
    return start * MICROS_PER_DAY;
  }
}
