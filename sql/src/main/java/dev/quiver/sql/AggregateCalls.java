package dev.quiver.sql;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanBuilder;
import java.util.List;
import org.apache.calcite.rel.RelFieldCollation;

/**
 * Calcite's aggregate calls as Quiver's {@link AggregateCall}s: the standard aggregates, FILTER,
 * and the library ones whose extra operands must be constants (a percentile's fraction, a
 * string_agg's separator: Calcite projects them as columns of the aggregate's input, which the
 * input's projection shows as literals) or an ORDER BY within the call.
 */
final class AggregateCalls {
  private AggregateCalls() {}

  /** The call {@code call} over {@code input}, its output column named {@code name}. */
  static AggregateCall translate(
      PlanBuilder input, org.apache.calcite.rel.core.AggregateCall call, String name) {
    AggregateCall translated = percentile(input, call, name);
    if (translated == null) {
      if (!call.getCollation().getFieldCollations().isEmpty()) {
        throw Errors.unsupported("aggregate WITHIN GROUP in " + call);
      }
      translated = unfiltered(input, call, name);
    }
    // FILTER (WHERE p): Calcite projects p as a boolean column; the call skips rows where it is
    // not TRUE (in PARTIAL or SINGLE, where rows are read).
    return call.filterArg >= 0 ? translated.withFilter(call.filterArg) : translated;
  }

  /**
   * MEDIAN(x), PERCENTILE_CONT(f) / PERCENTILE_DISC(f) WITHIN GROUP (ORDER BY x) and DuckDB's
   * QUANTILE_CONT(x, f) / QUANTILE_DISC(x, f); null for other calls. The fraction must be a
   * constant: Calcite projects it as a column of the aggregate's input.
   */
  private static AggregateCall percentile(
      PlanBuilder input, org.apache.calcite.rel.core.AggregateCall call, String name) {
    String function = call.getAggregation().getName().toUpperCase(java.util.Locale.ROOT);
    List<Integer> args = call.getArgList();
    List<RelFieldCollation> order = call.getCollation().getFieldCollations();
    if (function.equals("STRING_AGG") || function.equals("LISTAGG")) {
      return stringAgg(input, call, name);
    }
    int value;
    double fraction;
    AggregateFunction kind;
    switch (function) {
      case "MEDIAN" -> {
        kind = AggregateFunction.MEDIAN;
        value = args.get(0);
        fraction = Double.NaN;
      }
      case "QUANTILE_CONT", "QUANTILE_DISC" -> {
        kind =
            function.equals("QUANTILE_CONT")
                ? AggregateFunction.PERCENTILE_CONT
                : AggregateFunction.PERCENTILE_DISC;
        value = args.get(0);
        fraction = fraction(input, args.get(1), call);
      }
      case "PERCENTILE_CONT", "PERCENTILE_DISC" -> {
        kind =
            function.equals("PERCENTILE_CONT")
                ? AggregateFunction.PERCENTILE_CONT
                : AggregateFunction.PERCENTILE_DISC;
        if (order.size() != 1 || order.get(0).getDirection().isDescending()) {
          throw Errors.unsupported(
              function + " WITHIN GROUP needs ORDER BY one column, ascending: " + call);
        }
        value = order.get(0).getFieldIndex();
        fraction = fraction(input, args.get(0), call);
      }
      default -> {
        return null;
      }
    }
    if (call.isDistinct()) {
      throw Errors.unsupported("DISTINCT in " + call);
    }
    Column column = input.schema().column(value);
    return kind == AggregateFunction.MEDIAN
        ? AggregateCall.of(kind, value, column.type().arrow(), name)
        : AggregateCall.percentile(kind, value, column.type().arrow(), fraction, name);
  }

  /**
   * STRING_AGG(s [, sep] [ORDER BY y [DESC]]) and LISTAGG(s [, sep]) WITHIN GROUP (ORDER BY y): the
   * separator a constant (',' when left out, as DuckDB), at most one order column.
   */
  private static AggregateCall stringAgg(
      PlanBuilder input, org.apache.calcite.rel.core.AggregateCall call, String name) {
    List<Integer> args = call.getArgList();
    List<RelFieldCollation> order = call.getCollation().getFieldCollations();
    if (call.isDistinct() || args.isEmpty() || args.size() > 2 || order.size() > 1) {
      throw Errors.unsupported(
          call + " (string_agg takes a string, a constant separator, one ORDER BY column)");
    }
    String separator = ",";
    if (args.size() == 2) {
      Object value = constant(input, args.get(1));
      if (!(value instanceof String text)) {
        throw Errors.unsupported("a string_agg separator that is not a constant string: " + call);
      }
      separator = text;
    }
    Column value = input.schema().column(args.get(0));
    if (order.isEmpty()) {
      return AggregateCall.stringAgg(
          args.get(0),
          value.type().arrow(),
          separator,
          AggregateCall.NO_ARGUMENT,
          null,
          false,
          name);
    }
    int by = order.get(0).getFieldIndex();
    return AggregateCall.stringAgg(
        args.get(0),
        value.type().arrow(),
        separator,
        by,
        input.schema().column(by).type().arrow(),
        order.get(0).getDirection().isDescending(),
        name);
  }

  /** The value of column {@code column} of {@code input} if a projection makes it a literal. */
  private static Object constant(PlanBuilder input, int column) {
    if (input.build() instanceof dev.quiver.plan.node.Project project
        && project.expressions().get(column) instanceof Literal literal) {
      return literal.value();
    }
    return null;
  }

  /** The constant fraction in column {@code column} of {@code input}, between 0 and 1. */
  private static double fraction(
      PlanBuilder input, int column, org.apache.calcite.rel.core.AggregateCall call) {
    if (input.build() instanceof dev.quiver.plan.node.Project project
        && project.expressions().get(column) instanceof Literal literal
        && literal.value() instanceof Number number) {
      double fraction = number.doubleValue();
      if (fraction >= 0 && fraction <= 1) {
        return fraction;
      }
      throw Errors.invalid(
          "the fraction of " + call + " must be between 0 and 1, not " + number, null);
    }
    throw Errors.unsupported("a percentile whose fraction is not a constant: " + call);
  }

  private static AggregateCall unfiltered(
      PlanBuilder input, org.apache.calcite.rel.core.AggregateCall call, String name) {
    List<Integer> args = call.getArgList();
    if (call.getAggregation().getKind() == org.apache.calcite.sql.SqlKind.COUNT && args.isEmpty()) {
      return AggregateCall.countStar(name);
    }
    org.apache.calcite.sql.SqlKind kind = call.getAggregation().getKind();
    if (kind == org.apache.calcite.sql.SqlKind.ARG_MIN
        || kind == org.apache.calcite.sql.SqlKind.ARG_MAX) {
      // ARG_MIN(arg, by), MIN_BY: the arg of the row with the smallest by (mergeable states).
      Column arg = input.schema().column(args.get(0));
      Column by = input.schema().column(args.get(1));
      return new AggregateCall(
          kind == org.apache.calcite.sql.SqlKind.ARG_MIN
              ? AggregateFunction.ARG_MIN
              : AggregateFunction.ARG_MAX,
          args.get(0),
          arg.type().arrow(),
          args.get(1),
          by.type().arrow(),
          false,
          name,
          AggregateCall.NO_FILTER);
    }
    if (args.size() != 1) {
      throw Errors.unsupported("aggregate with " + args.size() + " arguments: " + call);
    }
    if (kind == org.apache.calcite.sql.SqlKind.COUNT && call.isApproximate()) {
      // APPROX_COUNT_DISTINCT(x) arrives as an approximate COUNT(DISTINCT x): a HyperLogLog
      // sketch per group, whose states merge in FINAL.
      Column column = input.schema().column(args.get(0));
      return AggregateCall.of(
          AggregateFunction.APPROX_COUNT_DISTINCT, args.get(0), column.type().arrow(), name);
    }
    AggregateFunction function =
        switch (call.getAggregation().getKind()) {
          case COUNT -> AggregateFunction.COUNT;
          case SUM -> AggregateFunction.SUM;
          case AVG -> AggregateFunction.AVG;
          // BOOL_AND and EVERY arrive as MIN of a boolean, BOOL_OR as MAX: AND / OR of the
          // non-null values, with mergeable partial states.
          case MIN -> AggregateFunction.MIN;
          case MAX -> AggregateFunction.MAX;
          // Kept intact by the converter (no AggregateReduceFunctionsRule): Welford states, not
          // SUM(x * x) - SUM(x)², which cancels catastrophically. STDDEV and VARIANCE are the
          // sample forms.
          case STDDEV_SAMP -> AggregateFunction.STDDEV_SAMP;
          case STDDEV_POP -> AggregateFunction.STDDEV_POP;
          case VAR_SAMP -> AggregateFunction.VAR_SAMP;
          case VAR_POP -> AggregateFunction.VAR_POP;
          // A scalar subquery without an aggregate: its one row's value, an error for more.
          case SINGLE_VALUE -> AggregateFunction.SINGLE_VALUE;
          // Any value of the group is a correct answer, and MIN has mergeable partial state.
          // (The validator emits ANY_VALUE for a selected GROUP BY expression under Babel.)
          case ANY_VALUE -> AggregateFunction.MIN;
          default -> throw Errors.unsupported("aggregate function " + call.getAggregation());
        };
    int arg = args.get(0);
    Column column = input.schema().column(arg);
    return new AggregateCall(function, arg, column.type().arrow(), call.isDistinct(), name);
  }
}
