package dev.quiver.operators.exec;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.aggregate.UpdatingAggregateOperator;
import dev.quiver.operators.aggregate.WindowAggregateOperator;
import dev.quiver.operators.expand.ExpandOperator;
import dev.quiver.operators.join.HashJoinOperator;
import dev.quiver.operators.join.IntervalJoinOperator;
import dev.quiver.operators.join.JoinFilter;
import dev.quiver.operators.join.NestedLoopJoinOperator;
import dev.quiver.operators.join.WindowJoinOperator;
import dev.quiver.operators.keyrange.BuildKeyRanges;
import dev.quiver.operators.keyrange.ProbeKeyOrigins;
import dev.quiver.operators.limit.LimitOperator;
import dev.quiver.operators.scalar.FilterOperator;
import dev.quiver.operators.scalar.ProjectionOperator;
import dev.quiver.operators.setop.RepeatRowsOperator;
import dev.quiver.operators.sort.PartitionTopN;
import dev.quiver.operators.sort.SortOperator;
import dev.quiver.operators.sort.TopKOperator;
import dev.quiver.operators.union.UnionOperator;
import dev.quiver.operators.window.WindowOperator;
import dev.quiver.operators.windowed.WindowedOperator;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.join.EventTimeJoin;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.Exchange;
import dev.quiver.plan.node.Expand;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.PlanVisitor;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.RepeatRows;
import dev.quiver.plan.node.RuntimeFilter;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.StageInput;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.node.Union;
import dev.quiver.plan.node.Values;
import dev.quiver.plan.node.Window;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Turns the plan of one stage (nodes over {@link StageInput} and {@link Scan} leaves, as the stage
 * planner cuts it) into the {@link TaskPipeline} of one of its tasks.
 *
 * <pre>
 *   HashJoin[build=[#0], probe=[#1]]                 Conform[stage output schema]
 *     Values[rows=3]                 ─────►            HashJoin            (residual: expression
 *     Filter[(#2 > 10)]                                  source: Values      engine via JoinFilter)
 *       StageInput[stage=0, SHUFFLE]                     Filter
 *                                                          Input[0]
 * </pre>
 *
 * <p>Contract: the pipeline's stage inputs are the plan's {@link StageInput} and {@link Scan}
 * leaves, numbered 0.. in depth-first order (children in order), as {@link #inputs} lists them; a
 * scan is read like any other input (a source outside the task feeds it its split units). {@link
 * Values} leaves are {@linkplain TaskPipeline#source pipeline sources}. The root is wrapped in a
 * {@link ConformOperator}, so every output batch has exactly {@code plan.arrowSchema()}. Exchange
 * nodes cannot be inside a stage and fail. Only plan data is read here, so a serialized plan is all
 * a task needs to rebuild its pipeline.
 */
public final class PlanPipelines implements PlanVisitor<TaskPipeline.Spec> {
  private final OperatorContext context;
  private final ProbeKeyOrigins keyOrigins;
  private int nextInput;

  private PlanPipelines(OperatorContext context, PlanNode stage) {
    this.context = requireNonNull(context, "context is null");
    this.keyOrigins = ProbeKeyOrigins.of(stage);
  }

  /** The pipeline of one task of a stage whose plan is {@code plan}, writing to {@code output}. */
  public static TaskPipeline build(PlanNode plan, OperatorContext context, BatchSink output) {
    return TaskPipeline.build(spec(plan, context), output);
  }

  /** The spec of {@link #build}. */
  public static TaskPipeline.Spec spec(PlanNode plan, OperatorContext context) {
    requireNonNull(plan, "plan is null");
    TaskPipeline.Spec root = plan.accept(new PlanPipelines(context, plan));
    return TaskPipeline.operator(sink -> new ConformOperator(plan.arrowSchema(), sink), root);
  }

  /** The leaves that become stage inputs ({@link StageInput}s and {@link Scan}s), by index. */
  public static List<PlanNode> inputs(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    List<PlanNode> found = new ArrayList<>();
    collectInputs(plan, found);
    return found;
  }

  private static void collectInputs(PlanNode node, List<PlanNode> found) {
    node.accept(
        new DefaultPlanVisitor<Void>() {
          @Override
          protected Void visitDefault(PlanNode other) {
            other.children().forEach(child -> collectInputs(child, found));
            return null;
          }

          @Override
          public Void visitScan(Scan scan) {
            found.add(scan);
            return null;
          }

          @Override
          public Void visitStageInput(StageInput input) {
            found.add(input);
            return null;
          }
        });
  }

  private TaskPipeline.Spec child(PlanNode node, int index) {
    return node.child(index).accept(this);
  }

  @Override
  public TaskPipeline.Spec visitScan(Scan node) {
    return TaskPipeline.input(nextInput++);
  }

  @Override
  public TaskPipeline.Spec visitStageInput(StageInput node) {
    return TaskPipeline.input(nextInput++);
  }

  @Override
  public TaskPipeline.Spec visitValues(Values node) {
    return TaskPipeline.source(sink -> new ValuesSource(context, node, sink));
  }

  @Override
  public TaskPipeline.Spec visitFilter(Filter node) {
    return TaskPipeline.operator(
        sink -> new FilterOperator(context, node.predicate(), sink), child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitProject(Project node) {
    return TaskPipeline.operator(
        sink -> new ProjectionOperator(context, node.expressions(), node.names(), sink),
        child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitAggregate(Aggregate node) {
    int[] keys = node.groupKeys().stream().mapToInt(Integer::intValue).toArray();
    long[] globalSets = node.globalSets().stream().mapToLong(Long::longValue).toArray();
    if (node.windowEnd().isPresent()) {
      int windowEnd = node.windowEnd().getAsInt();
      return TaskPipeline.operator(
          sink ->
              new WindowAggregateOperator(
                  context,
                  node.input().arrowSchema(),
                  node.mode(),
                  keys,
                  node.calls(),
                  windowEnd,
                  sink),
          child(node, 0));
    }
    if (node.isUpdating()) {
      return TaskPipeline.operator(
          sink ->
              new UpdatingAggregateOperator(
                  context, node.input().arrowSchema(), node.mode(), keys, node.calls(), sink),
          child(node, 0));
    }
    return TaskPipeline.operator(
        sink ->
            new HashAggregateOperator(
                context,
                node.input().arrowSchema(),
                node.mode(),
                keys,
                node.calls(),
                globalSets,
                sink),
        child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitExpand(Expand node) {
    return TaskPipeline.operator(
        sink ->
            new ExpandOperator(context, node.input().arrowSchema(), node.keys(), node.sets(), sink),
        child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitHashJoin(HashJoin node) {
    int[] buildKeys = node.buildKeys().stream().mapToInt(Integer::intValue).toArray();
    int[] probeKeys = node.probeKeys().stream().mapToInt(Integer::intValue).toArray();
    if (node.eventTime().isPresent()) {
      return streamJoin(node, node.eventTime().get(), buildKeys, probeKeys);
    }
    List<ProbeKeyOrigins.Target> targets = keyOrigins.targets(node);
    return TaskPipeline.operator(
        sink ->
            new HashJoinOperator(
                context,
                node.kind(),
                node.build().arrowSchema(),
                buildKeys,
                node.probe().arrowSchema(),
                probeKeys,
                joinFilter(node.residual(), node.probe(), node.build()),
                sink,
                targets.isEmpty()
                    ? BuildKeyRanges.none()
                    : new BuildKeyRanges(targets, node.buildKeys()),
                node.runtimeFilter() == RuntimeFilter.FILTER),
        child(node, 0),
        child(node, 1));
  }

  /** A join of two streams, bounded by event time ({@link EventTimeJoin}). */
  private TaskPipeline.Spec streamJoin(
      HashJoin node, EventTimeJoin time, int[] buildKeys, int[] probeKeys) {
    return switch (time.kind()) {
      case WINDOW ->
          TaskPipeline.operator(
              sink ->
                  new WindowJoinOperator(
                      context,
                      node.kind(),
                      node.build().arrowSchema(),
                      buildKeys,
                      node.probe().arrowSchema(),
                      probeKeys,
                      joinFilter(node.residual(), node.probe(), node.build()),
                      time.buildColumn(),
                      time.probeColumn(),
                      sink),
              child(node, 0),
              child(node, 1));
      case INTERVAL ->
          TaskPipeline.operator(
              sink ->
                  new IntervalJoinOperator(
                      context,
                      node.kind(),
                      node.build().arrowSchema(),
                      buildKeys,
                      node.probe().arrowSchema(),
                      probeKeys,
                      () -> joinFilter(node.residual(), node.probe(), node.build()),
                      time.buildColumn(),
                      time.probeColumn(),
                      time.lowerMicros(),
                      time.upperMicros(),
                      sink),
              child(node, 0),
              child(node, 1));
    };
  }

  @Override
  public TaskPipeline.Spec visitNestedLoopJoin(NestedLoopJoin node) {
    return TaskPipeline.operator(
        sink ->
            new NestedLoopJoinOperator(
                context,
                node.kind(),
                node.build().arrowSchema(),
                node.probe().arrowSchema(),
                joinFilter(node.condition(), node.probe(), node.build()),
                sink),
        child(node, 0),
        child(node, 1));
  }

  private JoinFilter joinFilter(Expr condition, PlanNode probe, PlanNode build) {
    return condition == null
        ? null
        : new ResidualJoinFilter(
            condition, probe.arrowSchema(), build.arrowSchema(), context.allocator());
  }

  @Override
  public TaskPipeline.Spec visitSort(Sort node) {
    return TaskPipeline.operator(
        sink -> new SortOperator(context, node.input().arrowSchema(), node.keys(), sink),
        child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitTopK(TopK node) {
    return TaskPipeline.operator(
        sink ->
            new TopKOperator(
                context,
                node.input().arrowSchema(),
                node.keys(),
                node.fetch(),
                node.offset(),
                sink),
        child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitWindow(Window node) {
    if (node.windowEnd().isPresent()) {
      return perWindow(node, node.windowEnd().getAsInt());
    }
    return TaskPipeline.operator(windowFunctions(node), child(node, 0));
  }

  private Function<BatchSink, Operator> windowFunctions(Window node) {
    return sink ->
        new WindowOperator(
            context,
            node.input().arrowSchema(),
            node.partitionKeys(),
            node.orderKeys(),
            node.calls(),
            sink);
  }

  /**
   * Window functions partitioned by a window end over a stream: run once per complete window by a
   * {@link WindowedOperator}, together with the sort the distribution pass put below them, so that
   * neither waits for the end of the stream.
   *
   * <pre>
   *   Window[..., window end=#1]            PerWindow[window end=#1, Window ← Sort]
   *     Sort[#0 ASC, #1 ASC, #2 DESC]  ─►     (child of the Sort)
   *       child
   * </pre>
   *
   * A window top-N ({@code Window[..., keep row_number() <= 3]}) prunes each window's rows to the
   * top n of each partition as they come ({@link PartitionTopN}).
   */
  private TaskPipeline.Spec perWindow(Window node, int windowEnd) {
    Function<BatchSink, Operator> inner = windowFunctions(node);
    PlanNode below = node.input();
    if (below instanceof Sort sort) { // sorts the window's rows only: one window at a time
      Function<BatchSink, Operator> window = inner;
      Function<BatchSink, Operator> sorter =
          sink -> new SortOperator(context, sort.input().arrowSchema(), sort.keys(), sink);
      inner = sink -> new OperatorChain(sorter, window, sink);
      below = sort.input();
    }
    Function<BatchSink, Operator> perWindow = inner;
    Schema input = below.arrowSchema();
    // A window top-N: each window holds the top rows of each partition, not all of them.
    PartitionTopN topN =
        node.topN()
            .map(n -> new PartitionTopN(input, node.partitionKeys(), node.orderKeys(), n))
            .orElse(null);
    return TaskPipeline.operator(
        sink -> new WindowedOperator(context, input, windowEnd, perWindow, topN, sink),
        below.accept(this));
  }

  @Override
  public TaskPipeline.Spec visitLimit(Limit node) {
    // Limit.ALL and LimitOperator.ALL are both Long.MAX_VALUE: "no limit" passes through as is.
    return TaskPipeline.operator(
        sink -> new LimitOperator(context, node.offset(), node.fetch(), sink), child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitUnion(Union node) {
    TaskPipeline.Spec[] children = new TaskPipeline.Spec[node.inputs().size()];
    for (int i = 0; i < children.length; i++) {
      children[i] = child(node, i);
    }
    return TaskPipeline.operator(
        sink -> new UnionOperator(context, node.arrowSchema(), children.length, sink), children);
  }

  @Override
  public TaskPipeline.Spec visitRepeatRows(RepeatRows node) {
    return TaskPipeline.operator(
        sink -> new RepeatRowsOperator(context, node.input().arrowSchema(), node.times(), sink),
        child(node, 0));
  }

  @Override
  public TaskPipeline.Spec visitExchange(Exchange node) {
    throw exchangeInside(node);
  }

  private static IllegalArgumentException exchangeInside(PlanNode exchange) {
    return new IllegalArgumentException(
        "the exchange "
            + exchange
            + " cannot run inside a stage task: cut the plan into stages first (StagePlanner)");
  }
}
