package dev.quiver.sql;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.plan.RelOptListener;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql2rel.TopDownGeneralDecorrelator;
import org.apache.calcite.tools.RelBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logical rewrite program, all heuristic ({@link HepPlanner}): Calcite's standard Volcano
 * program (join commute and associate) took 36 s to plan TPC-H Q7 on a 2-core machine, while this
 * sequence plans each of the 22 queries in well under a second.
 *
 * <ol>
 *   <li>Untyped NULLs of UNION / INTERSECT / EXCEPT inputs get their column's type ({@link
 *       UntypedNulls}).
 *   <li>Simple correlated [NOT] EXISTS become semi and anti joins directly ({@link ExistsToJoin}).
 *   <li>Other subqueries become mark / correlate joins, and the top-down decorrelator unnests them
 *       into semi, anti and mark joins (EXISTS, NOT EXISTS, IN, NOT IN with SQL's NULL semantics)
 *       or joins with aggregates (scalar subqueries).
 *   <li>Filters move into and below joins, projections and aggregates; constants fold. A join
 *       condition's OR whose branches each constrain one side gives that side a filter of its own
 *       ({@link SideFilters}). An aggregate joined on its group keys reads only the rows whose keys
 *       its partner can match ({@link SemiJoinIntoAggregate}).
 *   <li>Inner joins are reordered with row-count statistics: runs of inner joins become one
 *       multi-join, which Calcite's LoptOptimizeJoinRule orders greedily by estimated result size.
 *   <li>Unused columns are trimmed, so that each scan reads only what the query needs.
 * </ol>
 */
final class LogicalRewrites {
  private static final List<RelOptRule> SUBQUERY =
      List.of(
          CoreRules.FILTER_SUB_QUERY_TO_MARK_CORRELATE,
          CoreRules.PROJECT_SUB_QUERY_TO_MARK_CORRELATE,
          CoreRules.JOIN_SUB_QUERY_TO_CORRELATE);

  private static final List<RelOptRule> PUSHDOWN =
      List.of(
          CoreRules.MARK_TO_SEMI_OR_ANTI_JOIN_RULE,
          SemiJoinPushdown.INSTANCE,
          CoreRules.FILTER_INTO_JOIN,
          CoreRules.JOIN_CONDITION_PUSH,
          CoreRules.FILTER_PROJECT_TRANSPOSE,
          CoreRules.FILTER_AGGREGATE_TRANSPOSE,
          CoreRules.FILTER_MERGE,
          CoreRules.PROJECT_MERGE,
          CoreRules.PROJECT_REMOVE,
          CoreRules.AGGREGATE_PROJECT_MERGE,
          CoreRules.UNION_TO_DISTINCT,
          // a INTERSECT b INTERSECT c as one n-ary set op: one count per row value, not two.
          CoreRules.INTERSECT_MERGE,
          CoreRules.MINUS_MERGE,
          // Fold constants such as DATE '1998-12-01' - INTERVAL '90' DAY once, at planning time.
          CoreRules.FILTER_REDUCE_EXPRESSIONS,
          CoreRules.PROJECT_REDUCE_EXPRESSIONS,
          CoreRules.JOIN_REDUCE_EXPRESSIONS);

  private static final List<RelOptRule> TO_MULTI_JOIN =
      List.of(
          CoreRules.JOIN_TO_MULTI_JOIN,
          CoreRules.PROJECT_MULTI_JOIN_MERGE,
          CoreRules.FILTER_MULTI_JOIN_MERGE);

  private static final List<RelOptRule> ORDER_JOINS = List.of(CoreRules.MULTI_JOIN_OPTIMIZE);

  private static final List<RelOptRule> TIDY =
      List.of(
          CoreRules.FILTER_INTO_JOIN,
          CoreRules.JOIN_CONDITION_PUSH,
          CoreRules.FILTER_PROJECT_TRANSPOSE,
          CoreRules.FILTER_MERGE,
          CoreRules.PROJECT_MERGE,
          CoreRules.PROJECT_REMOVE);

  private static final List<RelOptRule> WINDOWS =
      List.of(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW);

  private static final int MATCH_LIMIT = 20_000;

  private static final int SIDE_FILTER_ROUNDS = 4;

  private static final Logger LOG = LoggerFactory.getLogger(LogicalRewrites.class);

  /**
   * How many rule programs stopped at {@link #MATCH_LIMIT} in this JVM: a pair of rules undoing
   * each other, which costs seconds of planning (the TPC-H golden test keeps it at zero).
   */
  static final AtomicInteger MATCH_LIMIT_HITS = new AtomicInteger();

  private LogicalRewrites() {}

  static RelNode apply(RelNode rel) {
    RelNode typed = rel.accept(new UntypedNulls());
    RelNode withoutSubqueries = run(typed.accept(new ExistsToJoin()), SUBQUERY);
    RelNode decorrelated =
        TopDownGeneralDecorrelator.decorrelateQuery(withoutSubqueries, builder(rel));
    RelNode pushed = run(decorrelated.accept(new CommonFactors()), PUSHDOWN);
    // Filters each side of a join can take from an OR across both, pushed in turn; a derived filter
    // that reaches a join below may give that join's sides filters again (bounded: each round
    // needs a new one, and a side never takes the same one twice).
    for (int round = 0; round < SIDE_FILTER_ROUNDS; round++) {
      RelNode derived = SideFilters.derive(pushed);
      if (derived == pushed) {
        break;
      }
      pushed = run(derived, PUSHDOWN);
    }
    RelNode restricted = SemiJoinIntoAggregate.apply(pushed, builder(rel));
    if (restricted != pushed) {
      pushed = run(restricted, PUSHDOWN);
    }
    RelNode ordered = run(run(pushed, TO_MULTI_JOIN), ORDER_JOINS);
    RelNode tidy = run(ordered, TIDY);
    RelNode trimmed = new WindowFieldTrimmer(builder(rel)).trim(tidy);
    // OVER calls inside projections become Window nodes (one group per PARTITION BY / ORDER BY /
    // frame), which the translator plans as partition, sort and window.
    return run(trimmed, WINDOWS);
  }

  /**
   * Pulls the conjuncts that every branch of an OR shares out of it, in filter and join conditions:
   * {@code (k = x AND a AND b) OR (k = x AND a AND c)} becomes {@code k = x AND a AND (b OR c)}, so
   * that pushdown can move {@code a} into the scan below and use {@code k = x} as a join key (TPC-H
   * Q19 writes its key and its lineitem filters only like this).
   */
  private static final class CommonFactors extends RelShuttleImpl {
    @Override
    public RelNode visit(LogicalFilter filter) {
      RelNode visited = super.visit(filter);
      LogicalFilter f = (LogicalFilter) visited;
      RexNode pulled = RexUtil.pullFactors(f.getCluster().getRexBuilder(), f.getCondition());
      return pulled.equals(f.getCondition()) ? f : f.copy(f.getTraitSet(), f.getInput(), pulled);
    }

    @Override
    public RelNode visit(LogicalJoin join) {
      LogicalJoin j = (LogicalJoin) super.visit(join);
      RexNode pulled = RexUtil.pullFactors(j.getCluster().getRexBuilder(), j.getCondition());
      return pulled.equals(j.getCondition())
          ? j
          : j.copy(
              j.getTraitSet(),
              pulled,
              j.getLeft(),
              j.getRight(),
              j.getJoinType(),
              j.isSemiJoinDone());
    }
  }

  private static RelBuilder builder(RelNode rel) {
    return RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null);
  }

  private static RelNode run(RelNode rel, List<RelOptRule> rules) {
    // A bound on rule firings: a rule pair that undoes each other must end in a plan, not a hang.
    HepProgramBuilder program =
        new HepProgramBuilder().addMatchOrder(HepMatchOrder.BOTTOM_UP).addMatchLimit(MATCH_LIMIT);
    program.addRuleCollection(rules);
    HepPlanner planner = new HepPlanner(program.build());
    FiringCounter firings = new FiringCounter();
    planner.addListener(firings);
    planner.setRoot(rel);
    RelNode best = planner.findBestExp();
    if (firings.count >= MATCH_LIMIT) {
      MATCH_LIMIT_HITS.incrementAndGet();
      LOG.warn(
          "a rewrite program stopped after {} rule firings (rules undoing each other?): {}",
          firings.count,
          rules);
    }
    return best;
  }

  /** Counts the rule firings that changed the plan. */
  private static final class FiringCounter implements RelOptListener {
    private int count;

    @Override
    public void ruleProductionSucceeded(RuleProductionEvent event) {
      if (event.isBefore()) {
        count++;
      }
    }

    @Override
    public void relEquivalenceFound(RelEquivalenceEvent event) {}

    @Override
    public void ruleAttempted(RuleAttemptedEvent event) {}

    @Override
    public void relDiscarded(RelDiscardedEvent event) {}

    @Override
    public void relChosen(RelChosenEvent event) {}
  }
}
