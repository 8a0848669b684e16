package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.stage.StageTaskFactory;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.PlanPipelines;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.plan.node.PlanNode;
import java.util.Set;

/**
 * The recipe of a stage task as plan data: the job carries the stage's (serializable) plan, and
 * each task builds its own pipeline from it with {@link PlanPipelines}. Nothing but the plan
 * crosses from client to task, so no operator state is ever serialized.
 */
final class PlanTaskFactory implements StageTaskFactory {
  private static final long serialVersionUID = 1L;

  private final int stageId;
  private final PlanNode plan;
  private final long memoryBudget;
  private final Set<Integer> unboundedInputs;
  private final Set<Integer> keptInputs;
  private final Set<Integer> keptSources;

  /**
   * @param unboundedInputs the stage inputs that read a stream
   * @param keptInputs the stage inputs whose rows the task keeps ({@link KeptInputs})
   * @param keptSources the VALUES leaves whose rows the task keeps ({@link KeptInputs#sources})
   */
  PlanTaskFactory(
      int stageId,
      PlanNode plan,
      long memoryBudget,
      Set<Integer> unboundedInputs,
      Set<Integer> keptInputs,
      Set<Integer> keptSources) {
    this.stageId = stageId;
    this.plan = requireNonNull(plan, "plan is null");
    this.memoryBudget = memoryBudget;
    this.unboundedInputs = Set.copyOf(unboundedInputs);
    this.keptInputs = Set.copyOf(keptInputs);
    this.keptSources = Set.copyOf(keptSources);
  }

  @Override
  public Set<Integer> unboundedInputs() {
    return unboundedInputs;
  }

  @Override
  public boolean keepsRows(int input) {
    return keptInputs.contains(input);
  }

  @Override
  public boolean keepsSourceRows(int source) {
    return keptSources.contains(source);
  }

  @Override
  public long memoryBudget() {
    return memoryBudget;
  }

  @Override
  public int stageId() {
    return stageId;
  }

  @Override
  public TaskPipeline create(OperatorContext context, BatchSink output) {
    return PlanPipelines.build(plan, context, output);
  }
}
