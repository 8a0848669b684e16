package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.distribute.SplitAssigner;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Broadcast;
import dev.quiver.plan.node.Distribution;
import dev.quiver.plan.node.Exchange;
import dev.quiver.plan.node.Expand;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanVisitor;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.RepeatRows;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.StageInput;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.node.Union;
import dev.quiver.plan.node.Values;
import dev.quiver.plan.node.Window;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts a plan into stages, bottom-up: each exchange's input becomes a stage of its own and the
 * exchange becomes a {@link StageInput} of the consumer. Stages are numbered in the order they are
 * finished (children in input order), which is a topological order.
 *
 * <p>Every exchange is dispatched by its {@link Distribution} kind, in one switch expression:
 *
 * <pre>
 *   Repartition(hash|round-robin, n)  producer: hash(keys, n) | round-robin(n)   consumer: SHUFFLE
 *   Coalesce(n -> m), m < n            producer: none                            consumer: RESCALE
 *   Coalesce(n -> n)                   producer: none                            consumer: FORWARD
 *   SortPreservingMerge(keys)          producer: none                            consumer: MERGE
 *   Broadcast (a join's build input)   producer: none                            consumer: BROADCAST
 * </pre>
 *
 * A gather to one partition is a RESCALE into one task (every producer feeds it) rather than a
 * MERGE: nothing needs ordering, so nothing pays for tagging batches with their producer.
 *
 * <p>The build edge of a join that replicates its build side (COLLECT_LEFT or BROADCAST hash joins,
 * nested loop joins) is always a BROADCAST stage input: a Broadcast exchange is cut as above; a
 * one-partition build input that already arrives through an exchange (a gather, a merge) is simply
 * read in BROADCAST mode, since reading all of a one-partition producer is what every mode does
 * there; any other one-partition build sub-plan (VALUES, a global aggregate) becomes a one-task
 * stage of its own. This is the only cut not made at an exchange node; it is needed because the
 * build sub-plan runs once while the join runs in every task of the probe side.
 *
 * <p>Scans get their split assignment here ({@link SplitAssigner}).
 *
 * <p>Shared stages ({@link #cutSharing}): a stage equal to one already cut (the same plan, whose
 * stage inputs read the same stages, and the same output distribution) is that stage, so a subplan
 * that occurs several times becomes one stage that several stage inputs read, and the graph a DAG.
 * Equal stages arise from equal exchange inputs (two {@code Broadcast}s of the same scan) and from
 * the {@code Coalesce[n -> n]} that {@link SharedSubplans} puts above a repeated subplan. A stage
 * that would only forward another stage of the same tasks unsplit (an exchange right above such a
 * coalesce) is not made: its consumer reads the other stage directly, in its own mode.
 */
final class StageCutter implements PlanVisitor<PlanNode> {
  private final List<Stage> stages = new ArrayList<>();
  private final Map<StageKey, Integer> cut = new HashMap<>(); // only when sharing

  private final boolean share;
  private boolean replicating; // inside the build input of a join that reads it in every task

  private StageCutter(boolean share) {
    this.share = share;
  }

  /** A stage's content: equal keys would be equal stages. */
  private record StageKey(PlanNode plan, OutputDistribution distribution) {}

  /** Cuts {@code plan} into a tree of stages; the graph's last stage runs the plan's root. */
  static StageGraph cut(PlanNode plan) {
    return cut(plan, false);
  }

  /** Cuts {@code plan}, making equal stages one: the graph is a DAG. */
  static StageGraph cutSharing(PlanNode plan) {
    return cut(plan, true);
  }

  private static StageGraph cut(PlanNode plan, boolean share) {
    requireNonNull(plan, "plan is null");
    StageCutter cutter = new StageCutter(share);
    PlanNode root = plan.accept(cutter);
    cutter.stages.add(new Stage(cutter.stages.size(), root, OutputDistribution.none()));
    return new StageGraph(cutter.stages);
  }

  private int addStage(PlanNode plan, OutputDistribution distribution) {
    if (!share) {
      return newStage(plan, distribution);
    }
    StageInput forwarded = StageInput.as(plan);
    if (forwarded != null
        && forwarded.mode() == InputMode.FORWARD
        && distribution.kind() == OutputDistribution.Kind.NONE
        && stages.get(forwarded.stage()).distribution().kind() == OutputDistribution.Kind.NONE) {
      return forwarded.stage(); // the stage would only pass that one's output on
    }
    StageKey key = new StageKey(plan, distribution);
    Integer known = cut.get(key);
    if (known != null) {
      return known;
    }
    int id = newStage(plan, distribution);
    cut.put(key, id);
    return id;
  }

  private int newStage(PlanNode plan, OutputDistribution distribution) {
    int id = stages.size();
    stages.add(new Stage(id, plan, distribution));
    return id;
  }

  /** The node over its children cut, for nodes that run inside the stage of their inputs. */
  private PlanNode inStage(PlanNode node) {
    List<PlanNode> children = new ArrayList<>();
    for (PlanNode child : node.children()) {
      children.add(child.accept(this));
    }
    return node.withChildren(children);
  }

  /** The build input of a join that every task reads whole, as a BROADCAST stage input. */
  private PlanNode replicatedBuild(PlanNode build) {
    if (Scan.replicatedPipeline(build)) {
      replicating = true; // every task of this stage reads the build itself
      try {
        return build.accept(this);
      } finally {
        replicating = false;
      }
    }
    if (Broadcast.is(build)) {
      PlanNode producer = build.child(0).accept(this); // the broadcast's input
      int id = addStage(producer, OutputDistribution.none());
      return new StageInput(
          id, InputMode.BROADCAST, build.schema(), build.partitioning(), List.of());
    }
    PlanNode cut = build.accept(this);
    StageInput exchanged = StageInput.as(cut);
    if (exchanged != null) {
      return exchanged.withMode(InputMode.BROADCAST);
    }
    int id = addStage(cut, OutputDistribution.none());
    return new StageInput(id, InputMode.BROADCAST, cut.schema(), cut.partitioning(), List.of());
  }

  private StageInput exchange(Exchange exchange, OutputDistribution distribution, InputMode mode) {
    PlanNode producer = exchange.input().accept(this);
    int id = addStage(producer, distribution);
    return new StageInput(
        id, mode, exchange.schema(), exchange.partitioning(), exchange.ordering());
  }

  @Override
  public PlanNode visitScan(Scan node) {
    if (node.isReplicated()) {
      if (!replicating) {
        throw new QuiverException(
            ErrorCode.INVALID_ARGUMENT,
            "a replicated scan can only be the build input of a BROADCAST hash join; elsewhere"
                + " every task would emit its rows again: "
                + node);
      }
      return node.withAssignment(
          Collections.nCopies(node.tasks(), List.copyOf(node.source().units())));
    }
    return node.withAssignment(SplitAssigner.assign(node.source().units(), node.tasks()));
  }

  @Override
  public PlanNode visitValues(Values node) {
    return node;
  }

  @Override
  public PlanNode visitFilter(Filter node) {
    return inStage(node);
  }

  @Override
  public PlanNode visitProject(Project node) {
    return inStage(node);
  }

  @Override
  public PlanNode visitAggregate(Aggregate node) {
    node.checkInputsDistributed();
    return inStage(node);
  }

  @Override
  public PlanNode visitExpand(Expand node) {
    return inStage(node);
  }

  @Override
  public PlanNode visitHashJoin(HashJoin node) {
    node.checkInputsDistributed();
    if (node.distribution() == JoinDistribution.PARTITIONED) {
      return inStage(node);
    }
    PlanNode build = replicatedBuild(node.build());
    return node.withChildren(List.of(build, node.probe().accept(this)));
  }

  @Override
  public PlanNode visitNestedLoopJoin(NestedLoopJoin node) {
    node.checkInputsDistributed();
    PlanNode build = replicatedBuild(node.build());
    return node.withChildren(List.of(build, node.probe().accept(this)));
  }

  @Override
  public PlanNode visitSort(Sort node) {
    node.checkInputsDistributed();
    return inStage(node);
  }

  @Override
  public PlanNode visitTopK(TopK node) {
    return inStage(node);
  }

  @Override
  public PlanNode visitWindow(Window node) {
    node.checkInputsDistributed();
    return inStage(node);
  }

  @Override
  public PlanNode visitLimit(Limit node) {
    return inStage(node);
  }

  @Override
  public PlanNode visitUnion(Union node) {
    node.checkInputsDistributed();
    return inStage(node);
  }

  @Override
  public PlanNode visitRepeatRows(RepeatRows node) {
    return inStage(node);
  }

  @Override
  public PlanNode visitExchange(Exchange node) {
    Distribution distribution = node.distribution();
    int count = distribution.count();
    return switch (distribution.kind()) {
      case HASH ->
          exchange(
              node, OutputDistribution.hash(distribution.hashKeys(), count), InputMode.SHUFFLE);
      case ROUND_ROBIN -> exchange(node, OutputDistribution.roundRobin(count), InputMode.SHUFFLE);
      case RESCALE ->
          exchange(
              node,
              OutputDistribution.none(),
              count == node.input().partitions() ? InputMode.FORWARD : InputMode.RESCALE);
      case MERGE -> exchange(node, OutputDistribution.none(), InputMode.MERGE);
      // Reached only where a Broadcast is not the build input of a join (replicatedBuild
      // handles that case): every consumer task would emit the same rows again.
      case BROADCAST ->
          throw new QuiverException(
              ErrorCode.INVALID_ARGUMENT,
              "a Broadcast exchange can only be the build input of a BROADCAST hash join or a nested"
                  + " loop join; elsewhere every consumer task would emit its rows again");
    };
  }

  @Override
  public PlanNode visitStageInput(StageInput node) {
    throw new IllegalArgumentException("the plan is already cut into stages: " + node);
  }
}
