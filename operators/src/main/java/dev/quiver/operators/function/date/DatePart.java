package dev.quiver.operators.function.date;

import static dev.quiver.operators.expr.CivilDates.MICROS_PER_DAY;
import static dev.quiver.operators.function.date.DateUnit.MICROS_PER_HOUR;
import static dev.quiver.operators.function.date.DateUnit.MICROS_PER_MINUTE;
import static dev.quiver.operators.function.date.DateUnit.MICROS_PER_SECOND;

import dev.quiver.operators.expr.CivilDates;
import dev.quiver.operators.expr.Col;
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
 * {@code date_part(unit, date or timestamp)}, also what {@code EXTRACT(unit FROM x)} runs for units
 * other than YEAR, MONTH and DAY: a BIGINT, or the seconds since the epoch as a DOUBLE for {@code
 * epoch}, as in DuckDB. {@code week} and {@code isoyear} are ISO 8601's, {@code dow} counts from
 * Sunday = 0, {@code isodow} from Monday = 1; {@code second} is whole seconds, {@code millisecond}
 * and {@code microsecond} include the seconds (59.5 s is 59500 ms). A DATE's time units are 0. The
 * unit must be a literal.
 */
final class DatePart extends DeclaredFunction {
  DatePart() {
    super(
        "date_part",
        List.of("datepart"),
        2,
        2,
        "date_part(unit, date or timestamp), the unit a literal: year, quarter, month, week, day,"
            + " dow, isodow, doy, hour, minute, second, millisecond, microsecond, epoch, isoyear");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    DateUnit unit = DateUnit.of(args.get(0));
    SqlType value = args.get(1).sqlType();
    if (unit == null || !value.isDatetime()) {
      return null;
    }
    return new Signature(
        unit == DateUnit.EPOCH ? SqlType.DOUBLE : SqlType.BIGINT, List.of(SqlType.VARCHAR, value));
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
        int n = rows.size();
        if (unit == DateUnit.EPOCH) {
          for (int k = 0; k < n; k++) {
            int i = selected[k];
            data.setDouble((long) i << 3, DateUnit.micros(x, i, timestamp) / 1e6);
          }
          return;
        }
        for (int k = 0; k < n; k++) {
          int i = selected[k];
          data.setLong((long) i << 3, part(unit, DateUnit.micros(x, i, timestamp)));
        }
      }
    };
  }

  /** The unit's part of a timestamp (microseconds since the epoch). */
  static long part(DateUnit unit, long micros) {
    long day = Math.floorDiv(micros, MICROS_PER_DAY);
    long time = micros - day * MICROS_PER_DAY;
    switch (unit) {
      case HOUR:
        return time / MICROS_PER_HOUR;
      case MINUTE:
        return time % MICROS_PER_HOUR / MICROS_PER_MINUTE;
      case SECOND:
        return time % MICROS_PER_MINUTE / MICROS_PER_SECOND;
      case MILLISECOND:
        return time % MICROS_PER_MINUTE / 1000;
      case MICROSECOND:
        return time % MICROS_PER_MINUTE;
      case DOW:
        return DateUnit.isoDayOfWeek(day) % 7;
      case ISODOW:
        return DateUnit.isoDayOfWeek(day);
      case WEEK:
        return DateUnit.isoWeek(day);
      case ISOYEAR:
        return DateUnit.isoYear(day);
      default:
        break;
    }
    long date = CivilDates.civil(day);
    switch (unit) {
      case YEAR:
        return CivilDates.year(date);
      case QUARTER:
        return (CivilDates.month(date) - 1) / 3 + 1;
      case MONTH:
        return CivilDates.month(date);
      case DAY:
        return CivilDates.day(date);
      case DOY:
        return day - CivilDates.daysFromCivil(CivilDates.year(date), 1, 1) + 1;
      default:
        throw new IllegalStateException("no part " + unit);
    }
  }
}
