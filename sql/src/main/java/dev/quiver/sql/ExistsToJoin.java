package dev.quiver.sql;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Litmus;

/**
 * Turns {@code [NOT] EXISTS} conjuncts of a filter whose subquery is a correlated filter over an
 * uncorrelated input straight into semi and anti joins, with the correlated condition as the join
 * condition:
 *
 * <pre>
 *   Filter(a AND EXISTS(Filter(l2.k = $cor.k AND l2.s &lt;&gt; $cor.s, l2)), outer)
 *     ─► Join[SEMI, l2.k = outer.k AND l2.s &lt;&gt; outer.s](Filter(a, outer), l2)
 * </pre>
 *
 * The general path (mark correlate, then the top-down decorrelator) handles any subquery, but for a
 * correlation with a non-equality ({@code <>} in TPC-H Q21) it first computes the distinct values
 * of the outer columns by copying the whole outer join tree as a "domain" and joining it back,
 * which doubles Q21's work. A semi join needs no domain: a row's condition either holds for some
 * subquery row or not, and {@code NOT EXISTS} keeps a row whose condition is never TRUE (FALSE or
 * NULL), exactly an anti join's semantics.
 *
 * <p>Only the simple shape is rewritten: projections over one filter over a subtree that does not
 * use the correlation. Anything else (aggregates, a correlation deeper down, EXISTS under OR) is
 * left to the general path.
 */
final class ExistsToJoin extends RelShuttleImpl {
  @Override
  public RelNode visit(LogicalFilter filter) {
    LogicalFilter visited = (LogicalFilter) super.visit(filter);
    Set<CorrelationId> variables = visited.getVariablesSet();
    if (variables.size() != 1) {
      return visited;
    }
    CorrelationId id = variables.iterator().next();
    RelNode outer = visited.getInput();
    List<RexNode> rest = new ArrayList<>();
    List<Rewrite> rewrites = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(visited.getCondition())) {
      Rewrite rewrite = rewrite(conjunct, id, outer);
      if (rewrite == null) {
        rest.add(conjunct);
      } else {
        rewrites.add(rewrite);
      }
    }
    if (rewrites.isEmpty()) {
      return visited;
    }
    RexBuilder rex = visited.getCluster().getRexBuilder();
    RelNode result =
        rest.isEmpty()
            ? outer
            : LogicalFilter.create(
                outer, RexUtil.composeConjunction(rex, rest), ImmutableSet.copyOf(variables));
    for (Rewrite rewrite : rewrites) {
      result =
          LogicalJoin.create(
              result, rewrite.inner(), List.of(), rewrite.condition(), Set.of(), rewrite.type());
    }
    return result;
  }

  private record Rewrite(JoinRelType type, RelNode inner, RexNode condition) {}

  /** The semi / anti join for {@code conjunct}, or null when it is not a simple [NOT] EXISTS. */
  private static Rewrite rewrite(RexNode conjunct, CorrelationId id, RelNode outer) {
    JoinRelType type = JoinRelType.SEMI;
    RexNode node = conjunct;
    if (node.getKind() == SqlKind.NOT) {
      type = JoinRelType.ANTI;
      node = ((RexCall) node).getOperands().get(0);
    }
    if (node.getKind() != SqlKind.EXISTS || !(node instanceof RexSubQuery subQuery)) {
      return null;
    }
    RelNode rel = subQuery.rel;
    while (rel instanceof LogicalProject project) {
      if (!RelOptUtil.notContainsCorrelation(project, id, Litmus.IGNORE)) {
        return null;
      }
      rel = project.getInput();
    }
    if (!(rel instanceof LogicalFilter inner)
        || !inner.getVariablesSet().isEmpty()
        || !RelOptUtil.notContainsCorrelation(inner.getInput(), id, Litmus.IGNORE)) {
      return null;
    }
    RexBuilder rex = outer.getCluster().getRexBuilder();
    int outerWidth = outer.getRowType().getFieldCount();
    List<RexNode> correlated = new ArrayList<>();
    List<RexNode> local = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(inner.getCondition())) {
      if (RexUtil.containsCorrelation(c)) {
        Rebase rebase = new Rebase(id, outer, outerWidth);
        RexNode rebased = c.accept(rebase);
        if (rebase.foreign) {
          return null;
        }
        correlated.add(rebased);
      } else {
        local.add(c);
      }
    }
    if (correlated.isEmpty()) {
      return null; // uncorrelated EXISTS: the general path plans it once, not per row
    }
    RelNode innerInput =
        local.isEmpty()
            ? inner.getInput()
            : LogicalFilter.create(inner.getInput(), RexUtil.composeConjunction(rex, local));
    return new Rewrite(type, innerInput, RexUtil.composeConjunction(rex, correlated));
  }

  /**
   * Rewrites a correlated condition over {@code [subquery row]} into one over {@code [outer
   * row][subquery row]}: {@code $cor.f} becomes the outer's field f, the subquery's fields move
   * right by the outer's width.
   */
  private static final class Rebase extends RexShuttle {
    private final CorrelationId id;
    private final RelNode outer;
    private final int outerWidth;
    private boolean foreign;

    Rebase(CorrelationId id, RelNode outer, int outerWidth) {
      this.id = id;
      this.outer = outer;
      this.outerWidth = outerWidth;
    }

    @Override
    public RexNode visitInputRef(RexInputRef ref) {
      return new RexInputRef(ref.getIndex() + outerWidth, ref.getType());
    }

    @Override
    public RexNode visitFieldAccess(RexFieldAccess access) {
      if (access.getReferenceExpr() instanceof RexCorrelVariable variable) {
        if (!variable.id.equals(id)) {
          foreign = true;
          return access;
        }
        return outer.getCluster().getRexBuilder().makeInputRef(outer, access.getField().getIndex());
      }
      return super.visitFieldAccess(access);
    }

    @Override
    public RexNode visitCorrelVariable(RexCorrelVariable variable) {
      foreign = true; // a whole-row reference: leave it to the general path
      return variable;
    }

    @Override
    public RexNode visitSubQuery(RexSubQuery subQuery) {
      foreign = true;
      return subQuery;
    }
  }
}
