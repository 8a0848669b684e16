package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.Expr;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps the rows for which a BOOLEAN predicate over the input columns is TRUE. Schema, partitioning
 * and ordering pass through.
 */
public final class Filter extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final Expr predicate;

  public Filter(PlanNode input, Expr predicate) {
    super(
        List.of(requireNonNull(input, "input is null")),
        input.schema(),
        input.partitioning(),
        input.ordering());
    this.predicate = requireNonNull(predicate, "predicate is null");
    PlanChecks.checkBoolean(predicate, "Filter", "predicate");
    PlanChecks.checkExpr(predicate, input.schema(), "Filter", "predicate");
  }

  public PlanNode input() {
    return child(0);
  }

  public Expr predicate() {
    return predicate;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(predicate);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitFilter(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Filter(children.get(0), predicate);
  }

  /** {@code Filter[(#2 > 10)]}. */
  @Override
  public String toString() {
    return "Filter[" + predicate + "]";
  }
}
