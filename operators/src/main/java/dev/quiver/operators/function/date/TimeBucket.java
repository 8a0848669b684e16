package dev.quiver.operators.function.date;

import static dev.quiver.operators.expr.CivilDates.MICROS_PER_DAY;

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
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code time_bucket(width, timestamp [, origin | offset])}: the start of the {@code width}-long
 * bucket the timestamp falls in, buckets counted from an origin, as DuckDB's function: the origin
 * is 2000-01-03 00:00:00 (a Monday) unless a TIMESTAMP {@code origin} is given; an INTERVAL {@code
 * offset} shifts the default origin. {@code time_bucket(INTERVAL '10' SECOND, ts, TIMESTAMP
 * '1970-01-01 00:00:00')} is the start of the epoch-aligned ten-second window of {@code ts}: what
 * the {@code TUMBLE} and {@code HOP} window table functions compute (see the sql module).
 *
 * <p>The width is a positive day-time interval literal (month widths are not supported), the origin
 * or offset a literal too; the timestamp may be any expression. NULL in, NULL out. A bucket outside
 * the TIMESTAMP range is NUMERIC_OVERFLOW.
 */
final class TimeBucket extends DeclaredFunction {
  /** DuckDB's default origin for day-time widths, in microseconds since the epoch. */
  static final long DEFAULT_ORIGIN = 10_959L * MICROS_PER_DAY; // 2000-01-03

  TimeBucket() {
    super(
        "time_bucket",
        List.of(),
        2,
        3,
        "time_bucket(width, timestamp [, origin timestamp | offset interval]), the width a positive"
            + " day-time interval literal such as INTERVAL '10' SECOND, the origin or offset a"
            + " literal");
  }

  @Override
  public Signature resolve(List<Expr> args) {
    if (intervalMicros(args.get(0)) <= 0
        || args.get(1).sqlType().kind() != SqlType.Kind.TIMESTAMP) {
      return null;
    }
    if (args.size() == 2) {
      return new Signature(
          SqlType.TIMESTAMP, List.of(SqlType.INTERVAL_DAY_TIME, SqlType.TIMESTAMP));
    }
    Object third = Kernels.literalValue(args.get(2));
    SqlType thirdType =
        third instanceof LocalDateTime
            ? SqlType.TIMESTAMP
            : third instanceof Duration ? SqlType.INTERVAL_DAY_TIME : null;
    if (thirdType == null) {
      return null;
    }
    return new Signature(
        SqlType.TIMESTAMP, List.of(SqlType.INTERVAL_DAY_TIME, SqlType.TIMESTAMP, thirdType));
  }

  @Override
  public Eval kernel(FunctionCall call, Eval[] args) {
    long width = intervalMicros(call.arg(0));
    long origin = origin(call.args());
    return new FixedResultEval(call, args) {
      @Override
      protected void compute(EvalContext ctx, Col[] values, FieldVector out, Selection rows) {
        Col x = values[1];
        ArrowBuf data = out.getDataBuffer();
        int[] selected = rows.rows();
        for (int k = 0, n = rows.size(); k < n; k++) {
          int i = selected[k];
          long micros = x.data.getLong((long) (i & x.mask) << 3);
          long bucket;
          try {
            bucket =
                Math.addExact(
                    origin,
                    Math.multiplyExact(
                        Math.floorDiv(Math.subtractExact(micros, origin), width), width));
          } catch (ArithmeticException e) {
            throw Errors.overflow(text, i, "the bucket is outside the range of TIMESTAMP");
          }
          data.setLong((long) i << 3, bucket);
        }
      }
    };
  }

  /** The width literal in microseconds, or 0 if {@code arg} is not a day-time interval literal. */
  static long intervalMicros(Expr arg) {
    Object value = Kernels.literalValue(arg);
    if (!(value instanceof Duration duration)) {
      return 0;
    }
    try {
      return Math.multiplyExact(duration.toMillis(), 1000L);
    } catch (ArithmeticException e) {
      return 0;
    }
  }

  /** The origin the arguments give, in microseconds since the epoch. */
  static long origin(List<Expr> args) {
    if (args.size() < 3) {
      return DEFAULT_ORIGIN;
    }
    Object third = Kernels.literalValue(args.get(2));
    if (third instanceof LocalDateTime origin) {
      return Math.addExact(
          Math.multiplyExact(origin.toEpochSecond(ZoneOffset.UTC), 1_000_000L),
          origin.getNano() / 1000);
    }
    return Math.addExact(DEFAULT_ORIGIN, intervalMicros(args.get(2)));
  }
}
