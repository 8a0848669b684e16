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
 * {@code date_diff(unit, start, end)} (alias {@code datediff}): how many unit boundaries lie
 * between two dates or timestamps, as a BIGINT, negative when {@code end} is earlier; as DuckDB,
 * {@code date_diff('month', DATE '2024-01-31', DATE '2024-02-01')} is 1. The exception is {@code
 * week}, which is DuckDB's whole weeks between the two days (the day difference divided by 7,
 * toward zero). A DATE and a TIMESTAMP compare as timestamps (the date's midnight). The unit must
 * be a literal.
 */
final class DateDiff extends DeclaredFunction {
  DateDiff() {
    super(
        "date_diff",
        List.of("datediff"),
        3,
        3,
        "date_diff(unit, start, end), start and end dates or timestamps, the unit a literal:"
            + " year, quarter, month, week, day, hour, minute, second, millisecond, microsecond");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    DateUnit unit = DateUnit.of(args.get(0));
    SqlType start = args.get(1).sqlType();
    SqlType end = args.get(2).sqlType();
    if (unit == null
        || unit.ordinal() > DateUnit.MICROSECOND.ordinal()
        || !start.isDatetime()
        || !end.isDatetime()) {
      return null;
    }
    SqlType common =
        start.kind() == SqlType.Kind.DATE && end.kind() == SqlType.Kind.DATE
            ? SqlType.DATE
            : SqlType.TIMESTAMP;
    return new Signature(SqlType.BIGINT, List.of(SqlType.VARCHAR, common, common));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    DateUnit unit = DateUnit.of(call.arg(0));
    boolean timestamp = args[1].type.kind() == SqlType.Kind.TIMESTAMP;
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Col start = values[1];
        Col end = values[2];
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          data.setLong(
              (long) i << 3,
              difference(
                  unit, DateUnit.micros(start, i, timestamp), DateUnit.micros(end, i, timestamp)));
        }
      }
    };
  }

  /** The number of {@code unit} boundaries from {@code start} to {@code end} (microseconds). */
  static long difference(DateUnit unit, long start, long end) {
    switch (unit) {
      case MICROSECOND:
        return end - start;
      case MILLISECOND:
        return Math.floorDiv(end, 1000L) - Math.floorDiv(start, 1000L);
      case SECOND:
        return Math.floorDiv(end, MICROS_PER_SECOND) - Math.floorDiv(start, MICROS_PER_SECOND);
      case MINUTE:
        return Math.floorDiv(end, MICROS_PER_MINUTE) - Math.floorDiv(start, MICROS_PER_MINUTE);
      case HOUR:
        return Math.floorDiv(end, MICROS_PER_HOUR) - Math.floorDiv(start, MICROS_PER_HOUR);
      default:
        break;
    }
    long startDay = Math.floorDiv(start, MICROS_PER_DAY);
    long endDay = Math.floorDiv(end, MICROS_PER_DAY);
    if (unit == DateUnit.DAY) {
      return endDay - startDay;
    }
    if (unit == DateUnit.WEEK) {
      return (endDay - startDay) / 7;
    }
    long from = CivilDates.civil(startDay);
    long to = CivilDates.civil(endDay);
    long years = CivilDates.year(to) - CivilDates.year(from);
    return switch (unit) {
      case YEAR -> years;
      case QUARTER -> years * 4 + (CivilDates.month(to) - 1) / 3 - (CivilDates.month(from) - 1) / 3;
      default -> years * 12 + CivilDates.month(to) - CivilDates.month(from);
    };
  }
}
