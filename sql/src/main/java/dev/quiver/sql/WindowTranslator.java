package dev.quiver.sql;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFrame.Bound;
import dev.quiver.plan.window.WindowFunction;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Translates Calcite's {@link Window} (what {@code PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW} makes of
 * the OVER calls of a projection) into one {@link dev.quiver.plan.node.Window} per window group;
 * the planner's pass ({@link dev.quiver.plan.distribute.EnforceDistribution}) gives each the
 * distribution and order it needs:
 *
 * <pre>
 *   input ─► Repartition[hash(PARTITION BY)] ─► Sort[PARTITION BY, ORDER BY] ─► Window ─► ...
 *            (Coalesce to 1 without PARTITION BY;  (skipped when the input is
 *             skipped when already partitioned)    already sorted so)
 * </pre>
 *
 * Groups follow each other as a chain; a group re-sorts (and re-partitions) only when the one
 * before left another order. Constant arguments that must be columns (a LAG/LEAD default) are
 * projected in front and dropped after. IGNORE NULLS, EXCLUDE and DISTINCT stay "not supported".
 */
final class WindowTranslator {
  private final RelTranslator relations;

  WindowTranslator(RelTranslator relations) {
    this.relations = relations;
  }

  PlanBuilder translate(Window window) {
    PlanBuilder input = relations.translate(window.getInput());
    int inputColumns = input.schema().size();
    List<Expr> extra = new ArrayList<>();
    List<List<WindowCall>> groupCalls = new ArrayList<>();
    List<String> outputNames = window.getRowType().getFieldNames();
    int next = window.getInput().getRowType().getFieldCount();
    for (Window.Group group : window.groups) {
      if (group.exclude != RexWindowExclusion.EXCLUDE_NO_OTHER) {
        throw Errors.unsupported("window frame " + group.exclude);
      }
      WindowFrame frame = frame(window, group, input);
      List<WindowCall> calls = new ArrayList<>();
      for (Window.RexWinAggCall call : group.aggCalls) {
        calls.add(call(window, input, inputColumns, extra, call, frame, outputNames.get(next++)));
      }
      groupCalls.add(calls);
    }
    PlanBuilder plan = input;
    if (!extra.isEmpty()) {
      List<Expr> exprs = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < inputColumns; i++) {
        exprs.add(input.col(i));
        names.add(input.schema().column(i).name());
      }
      for (int i = 0; i < extra.size(); i++) {
        exprs.add(extra.get(i));
        names.add("$window_constant" + i);
      }
      plan = input.project(exprs, names);
    }
    for (int g = 0; g < window.groups.size(); g++) {
      Window.Group group = window.groups.get(g);
      List<Integer> partition = group.keys.asList();
      List<SortKey> order = new ArrayList<>();
      for (RelFieldCollation field : group.orderKeys.getFieldCollations()) {
        order.add(RelTranslator.sortKey(field));
      }
      // A single-node window; the planner's pass partitions and sorts its input.
      plan = plan.window(partition, order, groupCalls.get(g).toArray(new WindowCall[0]));
    }
    if (!extra.isEmpty()) {
      List<Integer> kept = new ArrayList<>();
      for (int i = 0; i < plan.schema().size(); i++) {
        if (i < inputColumns || i >= inputColumns + extra.size()) {
          kept.add(i);
        }
      }
      plan = RelTranslator.project(plan, kept, window.getRowType().getFieldNames());
    }
    return plan;
  }

  private WindowCall call(
      Window window,
      PlanBuilder input,
      int inputColumns,
      List<Expr> extra,
      Window.RexWinAggCall call,
      WindowFrame frame,
      String name) {
    if (call.ignoreNulls) {
      throw Errors.unsupported("IGNORE NULLS in window function " + call);
    }
    if (call.distinct) {
      throw Errors.unsupported("DISTINCT in window aggregate " + call);
    }
    List<RexNode> operands = call.getOperands();
    WindowFunction function = function(call, operands);
    switch (function) {
      case ROW_NUMBER:
      case RANK:
      case DENSE_RANK:
      case PERCENT_RANK:
      case CUME_DIST:
      case COUNT_STAR:
        return WindowCall.of(function, List.of(), frame, name);
      case NTILE:
        return new WindowCall(function, List.of(), constant(window, operands.get(0)), null, name);
      case LAG:
      case LEAD:
        int x = column(window, input, inputColumns, extra, operands.get(0), null);
        long offset = operands.size() > 1 ? constant(window, operands.get(1)) : 1;
        int defaultColumn =
            operands.size() > 2
                ? column(
                    window,
                    input,
                    inputColumns,
                    extra,
                    operands.get(2),
                    input.schema().column(x).type())
                : -1;
        return WindowCall.offset(function, x, offset, defaultColumn, name);
      case NTH_VALUE:
        int value = column(window, input, inputColumns, extra, operands.get(0), null);
        return new WindowCall(
            function, List.of(value), constant(window, operands.get(1)), frame, name);
      default:
        int argument = column(window, input, inputColumns, extra, operands.get(0), null);
        return WindowCall.of(function, List.of(argument), frame, name);
    }
  }

  private static WindowFunction function(Window.RexWinAggCall call, List<RexNode> operands) {
    switch (call.getOperator().getKind()) {
      case ROW_NUMBER:
        return WindowFunction.ROW_NUMBER;
      case RANK:
        return WindowFunction.RANK;
      case DENSE_RANK:
        return WindowFunction.DENSE_RANK;
      case PERCENT_RANK:
        return WindowFunction.PERCENT_RANK;
      case CUME_DIST:
        return WindowFunction.CUME_DIST;
      case NTILE:
        return WindowFunction.NTILE;
      case LAG:
        return WindowFunction.LAG;
      case LEAD:
        return WindowFunction.LEAD;
      case FIRST_VALUE:
        return WindowFunction.FIRST_VALUE;
      case LAST_VALUE:
        return WindowFunction.LAST_VALUE;
      case NTH_VALUE:
        return WindowFunction.NTH_VALUE;
      case COUNT:
        return operands.isEmpty() ? WindowFunction.COUNT_STAR : WindowFunction.COUNT;
      case SUM:
      case SUM0: // WindowConvertlets keeps SUM as SUM; $SUM0 only if a rule makes one
        return WindowFunction.SUM;
      case AVG:
        return WindowFunction.AVG;
      case MIN:
        return WindowFunction.MIN;
      case MAX:
        return WindowFunction.MAX;
      default:
        throw Errors.unsupported("window function " + call.getOperator().getName());
    }
  }

  /** The input column of an operand; a constant becomes an extra column (cast to {@code type}). */
  private static int column(
      Window window,
      PlanBuilder input,
      int inputColumns,
      List<Expr> extra,
      RexNode operand,
      SqlType type) {
    if (!(operand instanceof RexInputRef ref)) {
      throw Errors.unsupported("window function argument " + operand);
    }
    if (ref.getIndex() < inputColumns) {
      return ref.getIndex();
    }
    RexLiteral literal = window.constants.get(ref.getIndex() - inputColumns);
    Expr value =
        new RexTranslator(input.schema(), window.getCluster().getRexBuilder()).translate(literal);
    if (type != null && !value.sqlType().equals(type)) {
      value = Exprs.cast(value, type);
    }
    extra.add(value);
    return inputColumns + extra.size() - 1;
  }

  private static long constant(Window window, RexNode operand) {
    RexLiteral literal = literal(window, operand);
    if (literal == null || literal.getValueAs(Long.class) == null) {
      throw Errors.unsupported("a non-constant window function parameter: " + operand);
    }
    return literal.getValueAs(Long.class);
  }

  private static RexLiteral literal(Window window, RexNode operand) {
    if (operand instanceof RexLiteral literal) {
      return literal;
    }
    if (operand instanceof RexInputRef ref
        && ref.getIndex() >= window.getInput().getRowType().getFieldCount()) {
      return window.constants.get(ref.getIndex() - window.getInput().getRowType().getFieldCount());
    }
    return null;
  }

  private static WindowFrame frame(Window window, Window.Group group, PlanBuilder input) {
    WindowFrame.Unit unit = group.isRows ? WindowFrame.Unit.ROWS : WindowFrame.Unit.RANGE;
    SqlType key = null;
    if (!group.isRows && !group.orderKeys.getFieldCollations().isEmpty()) {
      key =
          input.schema().column(group.orderKeys.getFieldCollations().get(0).getFieldIndex()).type();
    }
    return new WindowFrame(
        unit, bound(window, group.lowerBound, key), bound(window, group.upperBound, key));
  }

  private static Bound bound(Window window, RexWindowBound bound, SqlType key) {
    if (bound.isCurrentRow()) {
      return Bound.currentRow();
    }
    if (bound.isUnbounded()) {
      return bound.isPreceding() ? Bound.unboundedPreceding() : Bound.unboundedFollowing();
    }
    RexLiteral literal = literal(window, bound.getOffset());
    if (literal == null) {
      throw Errors.unsupported("a non-constant window frame offset: " + bound);
    }
    BigDecimal offset = literal.getValueAs(BigDecimal.class);
    if (literal.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
      // Calcite holds day-time intervals in milliseconds; the plan wants the key's units.
      if (key != null && key.kind() == SqlType.Kind.DATE) {
        offset = offset.divide(BigDecimal.valueOf(86_400_000L));
      } else if (key != null && key.kind() == SqlType.Kind.TIMESTAMP) {
        offset = offset.multiply(BigDecimal.valueOf(1000));
      } else {
        throw Errors.unsupported("a RANGE interval offset over a key of type " + key);
      }
    } else if (literal.getType().getSqlTypeName().getFamily()
        == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
      throw Errors.unsupported("a RANGE frame offset in months or years");
    }
    return bound.isPreceding() ? Bound.preceding(offset) : Bound.following(offset);
  }
}
