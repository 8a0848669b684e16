package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.StageInput;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A sub-plan that runs as {@link #tasks()} parallel tasks with no data exchange inside it. Its
 * leaves are scans (each with its tasks' split units) and {@link StageInput} placeholders that read
 * other stages; its output is split into channels by its {@link OutputDistribution}.
 */
public final class Stage implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int id;
  private final PlanNode plan;
  private final int tasks;
  private final OutputDistribution distribution;
  private final List<StageInput> inputs;

  public Stage(int id, PlanNode plan, OutputDistribution distribution) {
    if (id < 0) {
      throw new IllegalArgumentException("stage id is negative: " + id);
    }
    this.id = id;
    this.plan = requireNonNull(plan, "plan is null");
    this.tasks = plan.partitions();
    this.distribution = requireNonNull(distribution, "distribution is null");
    this.inputs = List.copyOf(collectInputs(plan, new ArrayList<>()));
  }

  private static List<StageInput> collectInputs(PlanNode node, List<StageInput> found) {
    node.accept(
        new DefaultPlanVisitor<Void>() {
          @Override
          protected Void visitDefault(PlanNode other) {
            for (PlanNode child : other.children()) {
              collectInputs(child, found);
            }
            return null;
          }

          @Override
          public Void visitStageInput(StageInput input) {
            found.add(input);
            return null;
          }
        });
    return found;
  }

  /** The stable id: the position in the stage graph, used in EXPLAIN, metrics and errors. */
  public int id() {
    return id;
  }

  /** The stage's operator tree, with {@link StageInput} leaves. */
  public PlanNode plan() {
    return plan;
  }

  /** The number of parallel tasks: the partition count of the plan's root. */
  public int tasks() {
    return tasks;
  }

  public OutputDistribution distribution() {
    return distribution;
  }

  /** The stage input placeholders of the plan, in plan order (depth first, children in order). */
  public List<StageInput> inputs() {
    return inputs;
  }

  /** {@code Stage 1 [tasks=4, output=none]}. */
  @Override
  public String toString() {
    return "Stage " + id + " [tasks=" + tasks + ", output=" + distribution + "]";
  }
}
