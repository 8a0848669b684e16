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

  /**
   * Every exchange (repartition, coalesce, sort-preserving merge, broadcast); a visitor that treats
   * them differently goes on with {@link Exchange#accept(ExchangeVisitor)}.
   */
  R visitExchange(Exchange node);

  R visitStageInput(StageInput node);
}
