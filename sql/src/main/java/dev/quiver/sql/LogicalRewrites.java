package dev.quiver.sql;

import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.tools.RelBuilder;

/**
 * The logical rewrite program: subquery removal, decorrelation, then filter/project pushdown and
 * merging and constant folding, all with {@link HepPlanner}. Heuristic on purpose: NOTES.md records
 * Volcano's standard program at 36 s on TPC-H Q7, while this sequence plans each query in well
 * under a second.
 */
final class LogicalRewrites {
  private static final List<RelOptRule> SUBQUERY =
      List.of(
          CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
          CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
          CoreRules.JOIN_SUB_QUERY_TO_CORRELATE);

  private static final List<RelOptRule> PUSHDOWN =
      List.of(
          CoreRules.FILTER_INTO_JOIN,
          CoreRules.FILTER_PROJECT_TRANSPOSE,
          CoreRules.FILTER_AGGREGATE_TRANSPOSE,
          CoreRules.FILTER_MERGE,
          CoreRules.PROJECT_MERGE,
          CoreRules.PROJECT_REMOVE,
          // Fold constants such as DATE '1998-12-01' - INTERVAL '90' DAY once, at planning time.
          CoreRules.FILTER_REDUCE_EXPRESSIONS,
          CoreRules.PROJECT_REDUCE_EXPRESSIONS);

  private LogicalRewrites() {}

  static RelNode apply(RelNode rel) {
    RelNode withoutSubqueries = run(rel, SUBQUERY);
    RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null);
    RelNode decorrelated = RelDecorrelator.decorrelateQuery(withoutSubqueries, builder);
    return run(decorrelated, PUSHDOWN);
  }

  private static RelNode run(RelNode rel, List<RelOptRule> rules) {
    HepProgramBuilder program = new HepProgramBuilder().addMatchOrder(HepMatchOrder.BOTTOM_UP);
    program.addRuleCollection(rules);
    HepProgram built = program.build();
    HepPlanner planner = new HepPlanner(built);
    planner.setRoot(rel);
    return planner.findBestExp();
  }
}
