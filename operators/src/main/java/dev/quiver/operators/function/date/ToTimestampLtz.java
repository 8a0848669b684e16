package dev.quiver.operators.function.date;

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
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.Signature;
import dev.quiver.plan.type.SqlType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * Flink SQL's {@code to_timestamp_ltz(epoch, precision)}: the instant {@code epoch} seconds
 * (precision 0) or milliseconds (precision 3, also without a precision) after 1970-01-01 00:00 UTC,
 * as a TIMESTAMP of its UTC date and time (Quiver's timestamps are UTC, so Flink's TIMESTAMP_LTZ is
 * that TIMESTAMP). The precision must be the literal 0 or 3; an instant outside the TIMESTAMP range
 * is NUMERIC_OVERFLOW. The usual computed event time of a Kafka table: {@code ts AS
 * TO_TIMESTAMP_LTZ(epoch_ms, 3)}.
 */
final class ToTimestampLtz extends DeclaredFunction {
  ToTimestampLtz() {
    super(
        "to_timestamp_ltz",
        List.of(),
        1,
        2,
        "to_timestamp_ltz(epoch, precision), an integer of seconds (precision 0) or milliseconds"
            + " (precision 3, the default) since 1970-01-01 UTC");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    if (!args.get(0).sqlType().isInteger() || microsPerUnit(args) < 0) {
      return null;
    }
    return args.size() == 1
        ? new Signature(SqlType.TIMESTAMP, List.of(SqlType.BIGINT))
        : new Signature(SqlType.TIMESTAMP, List.of(SqlType.BIGINT, args.get(1).sqlType()));
  }

  // Microseconds per unit of the epoch value; -1 for a precision other than a literal 0 or 3.
  private static long microsPerUnit(List<Expr> args) {
    if (args.size() == 1) {
      return 1_000;
    }
    if (!(args.get(1) instanceof Literal precision)
        || !(precision.value() instanceof Number number)
        || !precision.sqlType().isInteger()) {
      return -1;
    }
    return switch (number.intValue()) {
      case 0 -> 1_000_000;
      case 3 -> 1_000;
      default -> -1;
    };
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    long micros = microsPerUnit(call.args());
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long epoch = Kernels.getLong(values[0], i);
          long value;
          try {
            value = Math.multiplyExact(epoch, micros);
          } catch (ArithmeticException e) {
            throw Errors.overflow(text, i, epoch + " is outside the range of TIMESTAMP");
          }
          data.setLong((long) i << 3, value);
        }
      }
    };
  }
}
