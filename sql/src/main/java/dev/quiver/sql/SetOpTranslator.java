package dev.quiver.sql;

import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.caseWhen;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.Exprs.when;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.SetOp;

/**
 * INTERSECT and EXCEPT, DISTINCT or ALL, over any number of inputs, the way distributed engines run
 * them: count each distinct row value per input, then keep or repeat it by its counts. Grouping
 * treats two NULLs as the same value, which is what set operations need (unlike {@code =}).
 *
 * <pre>
 *   input 0 ─► Project: cast to the set op's types, in_0 = TRUE, in_1 = NULL ─┐
 *   input 1 ─► Project: cast to the set op's types, in_0 = NULL, in_1 = TRUE ─┴► Union
 *     ─► Aggregate keys = all columns, count_i = COUNT(in_i): how often the row is in input i
 *        (distributed by the planner: PARTIAL ─► Repartition hash(all columns) ─► FINAL)
 *     ─► DISTINCT: Filter (INTERSECT: every count_i > 0; EXCEPT: count_0 > 0, the others = 0)
 *                  ─► Project the columns
 *     ─► ALL:      Project the columns + times (INTERSECT: min(count_i); EXCEPT: count_0 - the
 *                  others, dropped when not positive) ─► RepeatRows
 * </pre>
 *
 * Calcite's IntersectToDistinctRule and MinusToDistinctRule (1.42) leave ALL alone and count with
 * aggregate FILTER clauses; this one shape serves both DISTINCT and ALL and shows in EXPLAIN as it
 * runs. {@code a EXCEPT b EXCEPT c} as one n-ary EXCEPT is {@code a - b - c} for ALL too: taking b
 * and then c away is taking both away, floored at zero.
 */
final class SetOpTranslator {
  private final RelTranslator translator;

  SetOpTranslator(RelTranslator translator) {
    this.translator = translator;
  }

  /** {@code setOp}, an {@link Intersect} or a {@code Minus}. */
  PlanBuilder translate(SetOp setOp) {
    boolean intersect = setOp instanceof Intersect;
    List<RelNode> inputs = setOp.getInputs();
    int width = setOp.getRowType().getFieldCount();
    List<String> names = setOp.getRowType().getFieldNames();
    List<PlanBuilder> marked = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      marked.add(withMarkers(translator.translate(inputs.get(i)), i, inputs.size(), setOp));
    }
    PlanBuilder counted = count(translator.unionAll(marked), width, inputs.size());
    List<Expr> counts = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      counts.add(counted.col(width + i));
    }
    if (!setOp.all) {
      Expr keep = intersect ? allPositive(counts) : onlyInFirst(counts);
      return RelTranslator.project(counted.filter(keep), range(width), names);
    }
    Expr times = intersect ? minimum(counts) : difference(counts);
    List<Expr> exprs = new ArrayList<>();
    List<String> outNames = new ArrayList<>(names);
    for (int c = 0; c < width; c++) {
      exprs.add(counted.col(c));
    }
    exprs.add(times);
    outNames.add("times");
    return counted.project(exprs, outNames).repeatRows(width);
  }

  /**
   * The columns of {@code input}, cast to the set op's types where they differ, then one BOOLEAN
   * marker per input: TRUE for its own, NULL for the others.
   */
  private static PlanBuilder withMarkers(
      PlanBuilder input, int index, int inputCount, SetOp setOp) {
    List<Expr> exprs = new ArrayList<>();
    List<String> outNames = new ArrayList<>(setOp.getRowType().getFieldNames());
    for (int c = 0; c < outNames.size(); c++) {
      Column column = input.schema().column(c);
      SqlType type =
          TypeMapping.fromCalcite(
              setOp.getRowType().getFieldList().get(c).getType(), column.name());
      Expr ref = new ColumnRef(c, column.type(), column.nullable(), column.name());
      exprs.add(type.equals(column.type()) ? ref : Exprs.cast(ref, type));
    }
    for (int i = 0; i < inputCount; i++) {
      exprs.add(i == index ? lit(true) : Exprs.nullOf(SqlType.BOOLEAN));
      outNames.add("in_" + i);
    }
    return input.project(exprs, outNames);
  }

  /** Per distinct row value (the first {@code width} columns): COUNT of each input's marker. */
  private PlanBuilder count(PlanBuilder union, int width, int inputCount) {
    List<Integer> keys = range(width);
    List<AggregateCall> calls = new ArrayList<>();
    for (int i = 0; i < inputCount; i++) {
      calls.add(union.call(AggregateFunction.COUNT, width + i, "count_" + i));
    }
    return union.aggregate(AggregateMode.SINGLE, keys, calls);
  }

  private static Expr allPositive(List<Expr> counts) {
    List<Expr> conditions = new ArrayList<>();
    for (Expr count : counts) {
      conditions.add(call(ScalarFunction.GREATER_THAN, count, lit(0L)));
    }
    return Exprs.and(conditions.toArray(new Expr[0]));
  }

  private static Expr onlyInFirst(List<Expr> counts) {
    List<Expr> conditions = new ArrayList<>();
    conditions.add(call(ScalarFunction.GREATER_THAN, counts.get(0), lit(0L)));
    for (Expr count : counts.subList(1, counts.size())) {
      conditions.add(call(ScalarFunction.EQUAL, count, lit(0L)));
    }
    return Exprs.and(conditions.toArray(new Expr[0]));
  }

  /** min(count_0, count_1, ...) as nested CASE WHEN a < b THEN a ELSE b END. */
  private static Expr minimum(List<Expr> counts) {
    Expr min = counts.get(0);
    for (Expr count : counts.subList(1, counts.size())) {
      min = caseWhen(count, when(call(ScalarFunction.LESS_THAN, min, count), min));
    }
    return min;
  }

  /** count_0 - count_1 - ...; RepeatRows drops the rows where it is not positive. */
  private static Expr difference(List<Expr> counts) {
    Expr difference = counts.get(0);
    for (Expr count : counts.subList(1, counts.size())) {
      difference = call(ScalarFunction.SUBTRACT, difference, count);
    }
    return difference;
  }

  private static List<Integer> range(int n) {
    List<Integer> range = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      range.add(i);
    }
    return range;
  }
}
