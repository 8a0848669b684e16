package dev.quiver.plan.node;

/**
 * Dispatch over the plan node types (instead of {@code instanceof} chains). Passes that care about
 * a few node types extend {@link DefaultPlanVisitor}.
 */
public interface PlanVisitor<R> {
  R visitScan(Scan node);

  R visitValues(Values node);

  R visitFilter(Filter node);

  R visitProject(Project node);

  R visitAggregate(Aggregate node);

  R visitExpand(Expand node);

  R visitHashJoin(HashJoin node);

  R visitNestedLoopJoin(NestedLoopJoin node);

  R visitSort(Sort node);

  R visitTopK(TopK node);

  R visitWindow(Window node);

  R visitLimit(Limit node);

  R visitUnion(Union node);

  R visitRepeatRows(RepeatRows node);

  R visitRepartition(Repartition node);

  R visitCoalesce(Coalesce node);

  R visitSortPreservingMerge(SortPreservingMerge node);

  R visitBroadcast(Broadcast node);

  R visitStageInput(StageInput node);
}
