package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.exec.PlanPipelines;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.Expand;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.RepeatRows;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.StageInput;
import dev.quiver.plan.node.Union;
import dev.quiver.plan.node.Values;
import dev.quiver.plan.node.Window;
import java.util.Set;
import java.util.TreeSet;

/**
 * The inputs of a stage (numbered as its task pipeline's, {@link PlanPipelines#inputs}) whose rows
 * stay in the task: those that reach, on their way up, a join's build side (a hash table of a
 * broadcast table, kept for every probe row to come) or an operator that holds rows or counts them
 * until its input ends (aggregate, sort, top-n, window functions, limit). A STREAMING task logs
 * such an input's batches for its checkpoints and replays them on a restore (OrderedInputs); the
 * rows of every other input pass straight through to the task's output, so a restore must not send
 * them again and only needs to know whether the input ended.
 *
 * <pre>
 *   Union                                   HashJoin[build=#0]
 *     Scan[table]   input 0: passes           Scan[table]     input 0: kept (build side)
 *     Scan[stream]  input 1: passes           Scan[stream]    input 1: passes (probe)
 * </pre>
 *
 * Operators that snapshot their own state (window and updating aggregates, window and interval
 * joins, window functions per window) pass rows on as far as this is concerned: what they hold is
 * in their snapshots. Node types not named here count as keeping their inputs' rows: logging an
 * input that passes through costs checkpoint space, while not logging one that is kept loses rows.
 */
final class KeptInputs extends DefaultPlanVisitor<Void> {
  private final Set<Integer> kept = new TreeSet<>();
  private final Set<Integer> keptSources = new TreeSet<>();
  private int next; // the number of the next input leaf, depth first as PlanPipelines numbers them
  private int nextSource; // the number of the next VALUES leaf, depth first (TaskPipeline's order)
  private boolean keeps; // whether the rows of the node being visited stay in the task

  private KeptInputs() {}

  /** The inputs of the stage whose plan is {@code plan} whose rows its tasks keep. */
  static Set<Integer> of(PlanNode plan) {
    return visit(plan).kept;
  }

  /**
   * The VALUES leaves (the task pipeline's sources, numbered depth first) of the stage whose plan
   * is {@code plan} whose rows its tasks keep, by the same rules: a restored task runs them again
   * to rebuild what they fed, and not the others, whose rows are downstream already or in a
   * restored operator's state.
   */
  static Set<Integer> sources(PlanNode plan) {
    return visit(plan).keptSources;
  }

  private static KeptInputs visit(PlanNode plan) {
    KeptInputs visitor = new KeptInputs();
    requireNonNull(plan, "plan is null").accept(visitor);
    return visitor;
  }

  /** Visits {@code node}'s children, whose rows stay in the task if {@code childrenKeep}. */
  private Void children(PlanNode node, boolean childrenKeep) {
    for (PlanNode child : node.children()) {
      visit(child, childrenKeep);
    }
    return null;
  }

  private void visit(PlanNode node, boolean nodeKeeps) {
    boolean saved = keeps;
    keeps = nodeKeeps;
    node.accept(this);
    keeps = saved;
  }

  /** An operator that passes each batch on at once: its inputs keep what it keeps. */
  private Void passes(PlanNode node) {
    return children(node, keeps);
  }

  /** Aggregates, sorts, top-n, window functions, limits and whatever comes later. */
  @Override
  protected Void visitDefault(PlanNode node) {
    return children(node, true);
  }

  private Void leaf() {
    if (keeps) {
      kept.add(next);
    }
    next++;
    return null;
  }

  @Override
  public Void visitScan(Scan node) {
    return leaf();
  }

  @Override
  public Void visitStageInput(StageInput node) {
    return leaf();
  }

  @Override
  public Void visitValues(Values node) {
    if (keeps) { // a source of the pipeline, not an input
      keptSources.add(nextSource);
    }
    nextSource++;
    return null;
  }

  @Override
  public Void visitFilter(Filter node) {
    return passes(node);
  }

  @Override
  public Void visitProject(Project node) {
    return passes(node);
  }

  @Override
  public Void visitExpand(Expand node) {
    return passes(node);
  }

  @Override
  public Void visitRepeatRows(RepeatRows node) {
    return passes(node);
  }

  @Override
  public Void visitUnion(Union node) {
    return passes(node);
  }

  /**
   * A window aggregate snapshots its open windows, an updating one its groups (a PARTIAL emits its
   * groups at every flush, so holds none at a checkpoint): replaying an input into their restored
   * state would count its rows twice.
   */
  @Override
  public Void visitAggregate(Aggregate node) {
    return node.windowEnd().isPresent() || node.isUpdating() ? passes(node) : visitDefault(node);
  }

  @Override
  public Void visitWindow(Window node) {
    if (node.windowEnd().isEmpty()) {
      return visitDefault(node);
    }
    // Per window, with the sort below it (PlanPipelines#perWindow): one stateful operator.
    return node.input() instanceof Sort sort ? passes(sort) : passes(node);
  }

  /**
   * The build side (child 0) stays; the probe side passes, unless the join remembers which build
   * rows it matched (RIGHT, FULL, RIGHT_SEMI / ANTI: those rows' marks are the probe rows' effect).
   * A join of two streams snapshots its own state.
   */
  @Override
  public Void visitHashJoin(HashJoin node) {
    return node.eventTime().isPresent() ? passes(node) : join(node, node.kind().type());
  }

  @Override
  public Void visitNestedLoopJoin(NestedLoopJoin node) {
    return join(node, node.type());
  }

  private Void join(PlanNode join, JoinType type) {
    visit(join.child(0), true);
    visit(join.child(1), keeps || type.tracksRightMatches());
    return null;
  }
}
