package dev.quiver.plan.node;

/**
 * A {@link PlanVisitor} whose every method falls back to {@link #visitDefault}: a pass overrides
 * only the node types it handles.
 */
public abstract class DefaultPlanVisitor<R> implements PlanVisitor<R> {
  /** What the visitor returns for node types it does not override. */
  protected abstract R visitDefault(PlanNode node);

  @Override
  public R visitScan(Scan node) {
    return visitDefault(node);
  }

  @Override
  public R visitValues(Values node) {
    return visitDefault(node);
  }

  @Override
  public R visitFilter(Filter node) {
    return visitDefault(node);
  }

  @Override
  public R visitProject(Project node) {
    return visitDefault(node);
  }

  @Override
  public R visitAggregate(Aggregate node) {
    return visitDefault(node);
  }

  @Override
  public R visitExpand(Expand node) {
    return visitDefault(node);
  }

  @Override
  public R visitHashJoin(HashJoin node) {
    return visitDefault(node);
  }

  @Override
  public R visitNestedLoopJoin(NestedLoopJoin node) {
    return visitDefault(node);
  }

  @Override
  public R visitSort(Sort node) {
    return visitDefault(node);
  }

  @Override
  public R visitTopK(TopK node) {
    return visitDefault(node);
  }

  @Override
  public R visitWindow(Window node) {
    return visitDefault(node);
  }

  @Override
  public R visitLimit(Limit node) {
    return visitDefault(node);
  }

  @Override
  public R visitUnion(Union node) {
    return visitDefault(node);
  }

  @Override
  public R visitRepeatRows(RepeatRows node) {
    return visitDefault(node);
  }

  @Override
  public R visitExchange(Exchange node) {
    return visitDefault(node);
  }

  @Override
  public R visitStageInput(StageInput node) {
    return visitDefault(node);
  }
}
