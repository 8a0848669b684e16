package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.CivilDates.MICROS_PER_DAY;
import static dev.quiver.operators.expr.CivilDates.MILLIS_PER_DAY;

import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * Date and interval arithmetic: DATE or TIMESTAMP ± INTERVAL (either order for +), DATE − DATE in
 * days, DATE ± a BIGINT number of days (either order for +), and intervals of one kind ± each
 * other.
 *
 * <p>Adding months keeps the day of month, clamped to the end of the target month as SQL does
 * ({@code DATE '2024-01-31' + INTERVAL '1' MONTH} is {@code 2024-02-29}); a timestamp keeps its
 * time of day. A day-time interval added to a DATE moves it by whole days, rounding the sub-day
 * part down (the result type is DATE). A result outside the type's range is NUMERIC_OVERFLOW.
 */
final class DateArithmetic extends BinaryEval {
  /** The operand types, resolved once. */
  private enum Shape {
    DATE_MONTHS,
    DATE_DAY_TIME,
    DATE_DIFFERENCE,
    DATE_DAYS,
    TIMESTAMP,
    MONTHS,
    DAY_TIME
  }

  private final boolean subtract;
  private final boolean swapped; // interval + date, days + date
  private final SqlType.Kind interval;
  private final Shape shape;

  DateArithmetic(SqlType type, String text, ScalarFunction op, Eval left, Eval right) {
    super(type, text, left, right);
    this.subtract = op == ScalarFunction.SUBTRACT;
    this.swapped = !left.type.isDatetime() && right.type.isDatetime();
    SqlType.Kind date = (swapped ? right : left).type.kind();
    this.interval = (swapped ? left : right).type.kind();
    if (date == SqlType.Kind.DATE) {
      this.shape =
          interval == SqlType.Kind.DATE
              ? Shape.DATE_DIFFERENCE
              : interval == SqlType.Kind.BIGINT
                  ? Shape.DATE_DAYS
                  : interval == SqlType.Kind.INTERVAL_YEAR_MONTH
                      ? Shape.DATE_MONTHS
                      : Shape.DATE_DAY_TIME;
    } else if (date == SqlType.Kind.TIMESTAMP) {
      this.shape = Shape.TIMESTAMP;
    } else {
      this.shape = date == SqlType.Kind.INTERVAL_YEAR_MONTH ? Shape.MONTHS : Shape.DAY_TIME;
    }
  }

  @Override
  void compute(EvalContext ctx, Col a, Col b, FieldVector out, Selection selection) {
    Col d = swapped ? b : a;
    Col v = swapped ? a : b;
    ArrowBuf o = out.getDataBuffer();
    ArrowBuf dates = d.data;
    ArrowBuf intervals = v.data;
    int dm = d.mask;
    int vm = v.mask;
    long sign = subtract ? -1 : 1;
    int[] rows = selection.rows();
    int n = selection.size();
    int k = 0;
    // One loop per shape; an overflow ends the loop, and the loop resumes after the row when the
    // row is NULL (its operands are arbitrary values).
    while (k < n) {
      try {
        switch (shape) {
          case DATE_MONTHS:
            for (; k < n; k++) {
              int i = rows[k];
              long months = sign * intervals.getInt((long) (i & vm) << 2);
              long date = CivilDates.addMonths(dates.getInt((long) (i & dm) << 2), months);
              o.setInt((long) i << 2, Math.toIntExact(date));
            }
            break;
          case DATE_DAY_TIME:
            for (; k < n; k++) {
              int i = rows[k];
              long days = Math.floorDiv(sign * dayTimeMillis(intervals, i & vm), MILLIS_PER_DAY);
              o.setInt((long) i << 2, Math.toIntExact(dates.getInt((long) (i & dm) << 2) + days));
            }
            break;
          case DATE_DIFFERENCE:
            for (; k < n; k++) {
              int i = rows[k];
              long difference =
                  (long) dates.getInt((long) (i & dm) << 2)
                      - intervals.getInt((long) (i & vm) << 2);
              o.setInt((long) i << 2, Math.toIntExact(difference));
            }
            break;
          case DATE_DAYS:
            for (; k < n; k++) {
              int i = rows[k];
              long date = dates.getInt((long) (i & dm) << 2);
              long days = intervals.getLong((long) (i & vm) << 3);
              long sum = subtract ? Math.subtractExact(date, days) : Math.addExact(date, days);
              o.setInt((long) i << 2, Math.toIntExact(sum));
            }
            break;
          case TIMESTAMP:
            for (; k < n; k++) {
              int i = rows[k];
              o.setLong(
                  (long) i << 3,
                  timestamp(dates.getLong((long) (i & dm) << 3), intervals, i & vm, sign));
            }
            break;
          case MONTHS:
            for (; k < n; k++) {
              int i = rows[k];
              long sum =
                  dates.getInt((long) (i & dm) << 2)
                      + sign * intervals.getInt((long) (i & vm) << 2);
              o.setInt((long) i << 2, Math.toIntExact(sum));
            }
            break;
          default: // day-time ± day-time, field by field
            for (; k < n; k++) {
              int i = rows[k];
              long at = (long) (i & dm) << 3;
              long bt = (long) (i & vm) << 3;
              o.setInt(
                  (long) i << 3, Math.toIntExact(dates.getInt(at) + sign * intervals.getInt(bt)));
              o.setInt(
                  ((long) i << 3) + 4,
                  Math.toIntExact(dates.getInt(at + 4) + sign * intervals.getInt(bt + 4)));
            }
        }
      } catch (ArithmeticException e) {
        if (Bitmaps.get(out.getValidityBuffer(), rows[k])) {
          throw Errors.overflow(text, rows[k], "the result is outside the range of " + type);
        }
        k++;
      }
    }
  }

  private long timestamp(long micros, ArrowBuf interval, int slot, long sign) {
    if (this.interval == SqlType.Kind.INTERVAL_YEAR_MONTH) {
      long day = Math.floorDiv(micros, MICROS_PER_DAY);
      long time = Math.floorMod(micros, MICROS_PER_DAY);
      long moved = CivilDates.addMonths(day, sign * (long) interval.getInt((long) slot << 2));
      return Math.addExact(Math.multiplyExact(moved, MICROS_PER_DAY), time);
    }
    return Math.addExact(micros, Math.multiplyExact(sign * dayTimeMillis(interval, slot), 1000L));
  }

  /** A day-time interval (days, then milliseconds, two ints) in milliseconds. */
  private static long dayTimeMillis(ArrowBuf interval, int slot) {
    long at = (long) slot << 3;
    return interval.getInt(at) * MILLIS_PER_DAY + interval.getInt(at + 4);
  }
}
