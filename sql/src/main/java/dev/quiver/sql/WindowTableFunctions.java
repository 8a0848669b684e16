package dev.quiver.sql;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * The windowing table functions, as Flink SQL writes them: {@code TABLE(TUMBLE(TABLE t,
 * DESCRIPTOR(ts), size [, offset]))}, {@code TABLE(HOP(TABLE t, DESCRIPTOR(ts), slide, size [,
 * offset]))} and {@code TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size [, offset]))} (Calcite
 * has no CUMULATE: {@link CumulateTableFunction}) are {@code t} with two more columns, {@code
 * window_start} and {@code window_end}, the bounds of each window a row's {@code ts} falls in; a
 * query then aggregates {@code GROUP BY window_start, window_end, ...}. Over a bounded table
 * (batch), each is a projection:
 *
 * <pre>
 *   TUMBLE   window_start = time_bucket(size, ts, epoch + offset)       one window per row
 *            window_end   = window_start + size
 *   HOP      window_start = time_bucket(slide, ts, epoch + offset) - k * slide,  k = 0 .. size/slide - 1
 *            window_end   = window_start + size                          size/slide windows per row
 *   CUMULATE window_start = time_bucket(size, ts, epoch + offset)
 *            window_end   = window_start + j * step,  j = 1 .. size/step, where window_end > ts
 * </pre>
 *
 * The end is computed from the start in a projection above the one that computes the start (once
 * per row; TUMBLE and HOP). Windows are aligned to 1970-01-01 00:00:00 plus the offset, as Flink's
 * are. A row whose time is NULL belongs to no window. HOP and CUMULATE join each row with the
 * offsets of its windows (a VALUES list, in the same task: the input is read once), CUMULATE
 * keeping the windows that end after the row; their size must be a multiple of their slide or step,
 * as Flink requires, and at most {@value #MAX_HOPS} windows per row.
 */
final class WindowTableFunctions {
  static final int MAX_HOPS = 64;
  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

  private WindowTableFunctions() {}

  static PlanBuilder translate(RelTranslator translator, TableFunctionScan scan) {
    if (!(scan.getCall() instanceof RexCall call) || scan.getInputs().size() != 1) {
      throw Errors.unsupported("table function " + scan.getCall());
    }
    String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
    List<RexNode> operands = call.getOperands();
    Duration slide;
    Duration size;
    Duration offset;
    switch (name) {
      case "TUMBLE" -> {
        size = interval(name, "size", operands, 1);
        slide = size;
        offset = operands.size() > 2 ? interval(name, "offset", operands, 2) : Duration.ZERO;
      }
      case "HOP" -> {
        slide = interval(name, "slide", operands, 1);
        size = interval(name, "size", operands, 2);
        offset = operands.size() > 3 ? interval(name, "offset", operands, 3) : Duration.ZERO;
        if (size.toMillis() % slide.toMillis() != 0) {
          throw invalid(
              "HOP's size ("
                  + size
                  + ") must be a whole multiple of its slide ("
                  + slide
                  + "), as in Flink SQL");
        }
      }
      case "CUMULATE" -> {
        slide = interval(name, "step", operands, 1);
        size = interval(name, "size", operands, 2);
        offset = operands.size() > 3 ? interval(name, "offset", operands, 3) : Duration.ZERO;
        if (size.toMillis() % slide.toMillis() != 0) {
          throw invalid(
              "CUMULATE's size ("
                  + size
                  + ") must be a whole multiple of its step ("
                  + slide
                  + "), as in Flink SQL");
        }
      }
      default -> throw Errors.unsupported("the " + name + " window table function");
    }
    boolean cumulate = name.equals("CUMULATE");
    if (slide.isNegative() || slide.isZero() || size.isNegative() || size.isZero()) {
      throw invalid(name + "'s size and slide must be positive intervals");
    }
    long hops = size.toMillis() / slide.toMillis();
    if (hops > MAX_HOPS) {
      throw Errors.unsupported(
          name + " with " + hops + " windows per row (size / slide); at most " + MAX_HOPS);
    }

    PlanBuilder input = translator.translate(scan.getInputs().get(0));
    int time = timeColumn(name, operands.get(0));
    Column column = input.schema().column(time);
    if (column.type().kind() != SqlType.Kind.TIMESTAMP) {
      throw invalid(
          "the time column of "
              + name
              + " must be a TIMESTAMP; "
              + column.name()
              + " is "
              + column.type());
    }
    ColumnRef ts = new ColumnRef(time, column.type(), column.nullable(), column.name());
    if (column.nullable()) {
      input = input.filter(Exprs.call(ScalarFunction.IS_NOT_NULL, ts));
    }
    List<String> names = scan.getRowType().getFieldNames();
    Expr bucket =
        FunctionRegistry.call(
            "time_bucket",
            Exprs.interval(cumulate ? size : slide),
            ts,
            new Literal(EPOCH.plus(offset), SqlType.TIMESTAMP));
    List<Expr> columns = new ArrayList<>();
    for (int c = 0; c < input.schema().size(); c++) {
      Column each = input.schema().column(c);
      columns.add(new ColumnRef(c, each.type(), each.nullable(), each.name()));
    }
    if (hops == 1) { // TUMBLE, or a HOP or CUMULATE of one window per row
      return withEnd(input, columns, bucket, size, names);
    }
    // Each row once per window it is in: the rows joined with the windows' offsets (a VALUES
    // list in every task), so the input is read once.
    List<List<Object>> offsets = new ArrayList<>();
    for (long k = 0; k < hops; k++) {
      offsets.add(List.of(slide.multipliedBy(cumulate ? k + 1 : k)));
    }
    Column offsetColumn = new Column("window_offset", SqlType.INTERVAL_DAY_TIME, false);
    PlanBuilder copies =
        input.nestedLoopJoin(
            JoinType.INNER,
            PlanBuilder.values(new RowSchema(List.of(offsetColumn)), offsets),
            null);
    Expr shift =
        new ColumnRef(input.schema().size(), offsetColumn.type(), false, offsetColumn.name());
    // HOP: windows start k slides before the row's slide; CUMULATE: they end k + 1 steps after
    // the common start, and a row is only in those that end after it.
    Expr start = cumulate ? bucket : Exprs.call(ScalarFunction.SUBTRACT, bucket, shift);
    Expr end =
        cumulate
            ? Exprs.call(ScalarFunction.ADD, bucket, shift)
            : Exprs.call(ScalarFunction.ADD, start, Exprs.interval(size));
    if (!cumulate) {
      return withEnd(copies, columns, start, size, names);
    }
    copies = copies.filter(Exprs.call(ScalarFunction.GREATER_THAN, end, ts));
    List<Expr> exprs = new ArrayList<>(columns);
    exprs.add(start);
    exprs.add(end);
    return copies.project(exprs, names);
  }

  /**
   * {@code input}'s {@code columns}, the window start {@code start} and its end {@code start +
   * size}: two projections, so that the start (a {@code time_bucket} and a shift) is computed once
   * per row, not once more inside the end.
   */
  private static PlanBuilder withEnd(
      PlanBuilder input, List<Expr> columns, Expr start, Duration size, List<String> names) {
    List<Expr> lower = new ArrayList<>(columns);
    lower.add(start);
    PlanBuilder started = input.project(lower, names.subList(0, columns.size() + 1));
    List<Expr> upper = new ArrayList<>();
    for (int c = 0; c <= columns.size(); c++) {
      Column each = started.schema().column(c);
      upper.add(new ColumnRef(c, each.type(), each.nullable(), each.name()));
    }
    upper.add(Exprs.call(ScalarFunction.ADD, upper.get(columns.size()), Exprs.interval(size)));
    return started.project(upper, names);
  }

  private static int timeColumn(String function, RexNode descriptor) {
    if (descriptor instanceof RexCall call
        && call.getOperands().size() == 1
        && call.getOperands().get(0) instanceof RexInputRef ref) {
      return ref.getIndex();
    }
    throw invalid(function + " needs one time column: DESCRIPTOR(column)");
  }

  private static Duration interval(
      String function, String what, List<RexNode> operands, int index) {
    if (index < operands.size()
        && operands.get(index) instanceof RexLiteral literal
        && literal.getType().getSqlTypeName().getFamily()
            == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME
        && literal.getValueAs(BigDecimal.class) != null) {
      return Duration.ofMillis(literal.getValueAs(BigDecimal.class).longValueExact());
    }
    throw invalid(
        function
            + "'s "
            + what
            + " must be a day-time interval literal, e.g. INTERVAL '10' SECOND");
  }

  private static QuiverException invalid(String message) {
    return new QuiverException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
