package dev.quiver.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Derives, from a join condition's OR whose branches each constrain one side of the join, a filter
 * for that side alone: {@code (n1.name = 'FRANCE' AND n2.name = 'GERMANY') OR (n1.name = 'GERMANY'
 * AND n2.name = 'FRANCE')} implies {@code n1.name IN ('FRANCE', 'GERMANY')} on the left and {@code
 * n2.name IN ('GERMANY', 'FRANCE')} on the right. The OR stays where it was (the derived filters
 * are weaker); the derived ones are added to the condition, and pushdown then moves them into the
 * sides, where they shrink a dimension before it is joined rather than after (TPC-H Q7 joins every
 * nation's customers and suppliers otherwise; TPC-DS q13, q48 and q85 write their filters the same
 * way).
 *
 * <p>A side gets a filter only where the join drops its rows that match nothing: both sides of an
 * inner or semi join, the left of a right join, the right of a left or anti join (a right row that
 * cannot match changes no result). A filter the side already satisfies (its pulled-up predicates
 * imply it) is not added again, so running this after each pushdown reaches a fixed point.
 */
final class SideFilters extends RelShuttleImpl {
  private final RexExecutor executor;
  private boolean changed;

  private SideFilters(RexExecutor executor) {
    this.executor = executor;
  }

  /** The plan with the derived side filters added, or {@code rel} itself when there are none. */
  static RelNode derive(RelNode rel) {
    RexExecutor executor = rel.getCluster().getPlanner().getExecutor();
    SideFilters shuttle = new SideFilters(executor == null ? RexUtil.EXECUTOR : executor);
    RelNode result = rel.accept(shuttle);
    return shuttle.changed ? result : rel;
  }

  @Override
  public RelNode visit(LogicalJoin join) {
    LogicalJoin j = (LogicalJoin) super.visit(join);
    JoinRelType type = j.getJoinType();
    boolean left =
        type == JoinRelType.INNER || type == JoinRelType.SEMI || type == JoinRelType.RIGHT;
    boolean right =
        type == JoinRelType.INNER
            || type == JoinRelType.SEMI
            || type == JoinRelType.LEFT
            || type == JoinRelType.ANTI;
    if (!left && !right) {
      return j;
    }
    RexBuilder rex = j.getCluster().getRexBuilder();
    int leftWidth = j.getLeft().getRowType().getFieldCount();
    int width = leftWidth + j.getRight().getRowType().getFieldCount();
    List<RexNode> conjuncts = RelOptUtil.conjunctions(j.getCondition());
    List<RexNode> added = new ArrayList<>();
    for (RexNode conjunct : conjuncts) {
      List<RexNode> branches = RelOptUtil.disjunctions(conjunct);
      if (branches.size() < 2) {
        continue;
      }
      if (left) {
        deriveFor(rex, branches, ImmutableBitSet.range(0, leftWidth), j.getLeft(), 0)
            .filter(d -> !conjuncts.contains(d) && !added.contains(d))
            .ifPresent(added::add);
      }
      if (right) {
        deriveFor(rex, branches, ImmutableBitSet.range(leftWidth, width), j.getRight(), leftWidth)
            .filter(d -> !conjuncts.contains(d) && !added.contains(d))
            .ifPresent(added::add);
      }
    }
    if (added.isEmpty()) {
      return j;
    }
    changed = true;
    List<RexNode> all = new ArrayList<>(conjuncts);
    all.addAll(added);
    return j.copy(
        j.getTraitSet(),
        RexUtil.composeConjunction(rex, all),
        j.getLeft(),
        j.getRight(),
        type,
        j.isSemiJoinDone());
  }

  /**
   * The OR, over the branches, of each branch's conjuncts that read only {@code fields} (in the
   * join's numbering), when every branch has one; empty when a branch has none or when the side
   * already satisfies it.
   */
  private Optional<RexNode> deriveFor(
      RexBuilder rex, List<RexNode> branches, ImmutableBitSet fields, RelNode side, int offset) {
    List<RexNode> derived = new ArrayList<>();
    for (RexNode branch : branches) {
      List<RexNode> own = new ArrayList<>();
      for (RexNode c : RelOptUtil.conjunctions(branch)) {
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(c);
        if (!used.isEmpty() && fields.contains(used) && RexUtil.isDeterministic(c)) {
          own.add(c);
        }
      }
      if (own.isEmpty()) {
        return Optional.empty();
      }
      derived.add(RexUtil.composeConjunction(rex, own));
    }
    RexNode filter = RexUtil.composeDisjunction(rex, derived);
    // Already true of the side (a filter derived and pushed before, or the query's own)?
    RelMetadataQuery mq = side.getCluster().getMetadataQuery();
    RelOptPredicateList known = mq.getPulledUpPredicates(side);
    RexNode onSide = RexUtil.shift(filter, -offset);
    RexNode simplified =
        new RexSimplify(rex, known == null ? RelOptPredicateList.EMPTY : known, executor)
            .simplifyUnknownAsFalse(onSide);
    if (simplified.isAlwaysTrue()) {
      return Optional.empty();
    }
    return Optional.of(filter);
  }
}
