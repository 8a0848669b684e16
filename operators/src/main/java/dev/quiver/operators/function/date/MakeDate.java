package dev.quiver.operators.function.date;

import dev.quiver.operators.expr.CivilDates;
import dev.quiver.operators.expr.Col;
import dev.quiver.operators.expr.Errors;
import dev.quiver.operators.expr.Eval;
import dev.quiver.operators.expr.EvalContext;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.function.DeclaredFunction;
import dev.quiver.operators.function.FixedResultEval;
import dev.quiver.operators.function.Kernels;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code make_date(year, month, day)}: the DATE of three integers of the proleptic Gregorian
 * calendar (year 0 is 1 BC, negative years before it). A day that is not in the month, a month
 * outside 1 to 12 or a date outside the DATE range is an INVALID_ARGUMENT error, as DuckDB fails.
 */
final class MakeDate extends DeclaredFunction {
  MakeDate() {
    super("make_date", List.of(), 3, 3, "make_date(year, month, day), three integers");
  }

  // The years whose every day fits an int epoch day.
  private static final long MAX_YEAR = 5_000_000;

  @Override
  public Signature resolve(List<Expr> args) {
    for (Expr arg : args) {
      if (!arg.sqlType().isInteger()) {
        return null;
      }
    }
    return new Signature(SqlType.DATE, List.of(SqlType.BIGINT, SqlType.BIGINT, SqlType.BIGINT));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long year = Kernels.getLong(values[0], i);
          long month = Kernels.getLong(values[1], i);
          long day = Kernels.getLong(values[2], i);
          if (year < -MAX_YEAR
              || year > MAX_YEAR
              || month < 1
              || month > 12
              || day < 1
              || day > CivilDates.daysInMonth(year, (int) month)) {
            throw Errors.invalidArgument(
                text, i, "make_date: " + year + "-" + month + "-" + day + " is not a date");
          }
          data.setInt((long) i << 2, (int) CivilDates.daysFromCivil(year, (int) month, (int) day));
        }
      }
    };
  }
}
