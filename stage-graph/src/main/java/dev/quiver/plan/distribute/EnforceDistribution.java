package dev.quiver.plan.distribute;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Broadcast;
import dev.quiver.plan.node.Coalesce;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.LimitScope;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Repartition;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.SortPreservingMerge;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.node.Union;
import dev.quiver.plan.node.Window;
import dev.quiver.plan.rewrite.GlobalLimitSinglePartition;
import dev.quiver.plan.rewrite.PlanRewrite;
import dev.quiver.plan.sort.SortKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The first pass of the distributed planner: inserts the exchanges every operator needs from its
 * inputs, so that the plan runs correctly when each node runs once per partition. It is the one
 * place that decides where rows move between tasks; the front ends (SQL, {@link
 * dev.quiver.plan.node.PlanBuilder}) only pick operators and strategies.
 *
 * <pre>
 *   HashJoin[BROADCAST]           HashJoin[BROADCAST]
 *     build (m)           ─►        Broadcast
 *     probe (n)                       build (m)
 *                                   probe (n)
 *
 *   HashJoin[COLLECT_LEFT]        HashJoin[COLLECT_LEFT]
 *     build (m > 1)       ─►        Coalesce[m -> 1]
 *     probe (n)                       build (m)
 *                                   probe (n)
 *
 *   HashJoin[PARTITIONED]         HashJoin[PARTITIONED]
 *     build (m)           ─►        Repartition[hash(build keys), p]   (each side only when it is
 *     probe (n)                       build (m)                        not hash(keys, p) already)
 *                                   Repartition[hash(probe keys), p]
 *                                     probe (n)
 *
 *   NestedLoopJoin                NestedLoopJoin
 *     build (m > 1)       ─►        Broadcast
 *     probe (n)                       build (m)
 *                                   probe (n)
 *
 *   Aggregate[SINGLE, keys]       Aggregate[FINAL, keys]             (every call has a mergeable
 *     input (n)           ─►        Repartition[hash(0..k-1), p]      partial state; no keys:
 *                                     Aggregate[PARTIAL, keys]        Coalesce[n -> 1] instead)
 *                                       input (n)
 *
 *   Aggregate[SINGLE, keys]       Aggregate[SINGLE, keys]            (DISTINCT, holistic calls)
 *     input (n)           ─►        Repartition[hash(keys), p]
 *                                     input (n)
 *
 *   Aggregate[FINAL, keys]        Aggregate[FINAL, keys]
 *     partial (n)         ─►        Repartition[hash(0..k-1), p]
 *                                     partial (n)
 * </pre>
 *
 * <pre>
 *   Window[partition, order]      Window[partition, order]
 *     input (n)           ─►        Sort[partition ASC.., order..]   (skipped when the input is
 *                                     Repartition[hash(partition), p]  already sorted exactly so)
 *                                       input (n)                     (no PARTITION BY: Coalesce
 *                                                                      to 1; skipped when the
 *                                                                      input groups the keys)
 * </pre>
 *
 * <pre>
 *   Union (n)                     Union (n)                          (inputs of fewer partitions
 *     input (n)           ─►        input (n)                         than the largest one)
 *     input (m < n)                 Repartition[round-robin, n]
 *                                     input (m)
 * </pre>
 *
 * <pre>
 *   Sort[GLOBAL, keys]            SortPreservingMerge[keys]          (one input partition: a LOCAL
 *     input (n > 1)       ─►        Sort[keys]                        Sort, nothing moves)
 *                                     input (n)
 *
 *   Limit[GLOBAL] / TopK[GLOBAL]  as {@link GlobalLimitSinglePartition} writes them: a LOCAL limit
 *     input (n > 1)                 or top-k per partition, gathered or merged into one, then the
 *                                   GLOBAL limit
 * </pre>
 *
 * An aggregate whose input already holds every group in one partition (one partition, or hashed on
 * a subset of its keys, e.g. by a partitioned join on them) stays a SINGLE aggregate in place.
 *
 * <p>The walk is bottom-up: a node is looked at after its inputs got their exchanges, so it decides
 * on their final partitioning (an input already hash-partitioned on the join keys is not moved
 * again). A join whose inputs already are as it needs them is left alone, so the pass is idempotent
 * and keeps exchanges placed by hand. {@code p} is the planner's parallelism, or, when none is
 * given, the larger of the two inputs' partition counts.
 */
public final class EnforceDistribution implements PlanRewrite {
  private final int parallelism; // 0: the larger input's partition count
  private final GlobalLimitSinglePartition globalLimits = new GlobalLimitSinglePartition();

  private EnforceDistribution(int parallelism) {
    this.parallelism = parallelism;
  }

  /** Hash exchanges spread rows over {@code parallelism} partitions. */
  public static EnforceDistribution withParallelism(int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
    }
    return new EnforceDistribution(parallelism);
  }

  /** Hash exchanges keep the larger input partition count (plans written without a parallelism). */
  public static EnforceDistribution atInputPartitions() {
    return new EnforceDistribution(0);
  }

  @Override
  public String name() {
    return "enforce the distribution every operator needs";
  }

  @Override
  public PlanNode apply(PlanNode plan) {
    List<PlanNode> children = plan.children();
    List<PlanNode> enforced = new ArrayList<>(children.size());
    boolean changed = false;
    for (PlanNode child : children) {
      PlanNode next = apply(child);
      enforced.add(next);
      changed |= next != child;
    }
    return enforceAt(changed ? plan.withChildren(enforced) : plan);
  }

  /**
   * {@code node} with the exchanges it needs added below it, its inputs taken as they are (already
   * enforced). For a front end that builds a plan bottom-up and reads each node's partitioning as
   * it goes; {@link #apply} does the same for every node of a plan.
   */
  public PlanNode enforceAt(PlanNode node) {
    return node.accept(requirements);
  }

  /** Each node over its enforced inputs, with the exchanges it needs added below it. */
  private final DefaultPlanVisitor<PlanNode> requirements =
      new DefaultPlanVisitor<>() {
        @Override
        protected PlanNode visitDefault(PlanNode node) {
          return node;
        }

        @Override
        public PlanNode visitHashJoin(HashJoin join) {
          if (join.inputsDistributed()) {
            return join;
          }
          PlanNode build = join.build();
          PlanNode probe = join.probe();
          return switch (join.distribution()) {
            case BROADCAST -> join.with(new Broadcast(build), probe, join.distribution());
            case COLLECT_LEFT -> join.with(new Coalesce(build, 1), probe, join.distribution());
            case PARTITIONED -> {
              int n =
                  parallelism > 0 ? parallelism : Math.max(build.partitions(), probe.partitions());
              yield join.with(
                  hashed(build, join.buildKeys(), n),
                  hashed(probe, join.probeKeys(), n),
                  join.distribution());
            }
          };
        }

        @Override
        public PlanNode visitAggregate(Aggregate aggregate) {
          if (aggregate.inputsDistributed()) {
            return aggregate;
          }
          PlanNode input = aggregate.input();
          return switch (aggregate.mode()) {
            case PARTIAL -> aggregate; // distributed by definition
            case FINAL ->
                aggregate.withChildren(List.of(grouped(input, aggregate.inputKeyColumns())));
            case SINGLE -> single(aggregate);
          };
        }

        @Override
        public PlanNode visitWindow(Window window) {
          List<Integer> partition = window.partitionKeys();
          PlanNode input = window.input();
          PlanNode grouped =
              input.partitioning().groups(partition) ? input : grouped(input, partition);
          List<SortKey> keys = new ArrayList<>();
          partition.forEach(column -> keys.add(SortKey.asc(column)));
          keys.addAll(window.orderKeys());
          List<SortKey> current = grouped.ordering();
          boolean sorted =
              current.size() >= keys.size() && current.subList(0, keys.size()).equals(keys);
          PlanNode ready = sorted ? grouped : new Sort(grouped, keys);
          return ready == input ? window : window.withChildren(List.of(ready));
        }

        @Override
        public PlanNode visitUnion(Union union) {
          if (union.inputsDistributed()) {
            return union;
          }
          int count = union.partitions(); // the largest input's
          List<PlanNode> inputs = new ArrayList<>();
          for (PlanNode input : union.inputs()) {
            inputs.add(
                input.partitions() == count
                    ? input
                    : new Repartition(input, Repartition.Scheme.roundRobin(), count));
          }
          return union.withChildren(inputs);
        }

        @Override
        public PlanNode visitSort(Sort sort) {
          if (sort.scope() == LimitScope.LOCAL) {
            return sort;
          }
          PlanNode input = sort.input();
          Sort local = new Sort(input, sort.keys());
          return input.partitions() == 1 ? local : new SortPreservingMerge(local, sort.keys());
        }

        @Override
        public PlanNode visitLimit(Limit limit) {
          return limit.accept(globalLimits);
        }

        @Override
        public PlanNode visitTopK(TopK topK) {
          return topK.accept(globalLimits);
        }

        @Override
        public PlanNode visitNestedLoopJoin(NestedLoopJoin join) {
          PlanNode build = join.build();
          return build.partitions() > 1
              ? join.withChildren(List.of(new Broadcast(build), join.probe()))
              : join;
        }
      };

  /**
   * A SINGLE aggregate over an input that does not group its keys: in two phases around the
   * exchange when every call has a mergeable partial state (only the partial states move; the
   * PARTIALs seed the global grouping sets, the FINAL merges the seeds), else after the exchange
   * (DISTINCT and holistic calls), which gathers everything into one task when there are global
   * grouping sets: the grand total's row must come from one task only.
   */
  private PlanNode single(Aggregate aggregate) {
    List<Integer> keys = aggregate.groupKeys();
    List<AggregateCall> calls = aggregate.calls();
    List<Long> globalSets = aggregate.globalSets();
    if (!calls.stream().allMatch(AggregateCall::hasPartialState)) {
      PlanNode input = aggregate.input();
      PlanNode gathered = globalSets.isEmpty() ? grouped(input, keys) : new Coalesce(input, 1);
      return windowed(
          new Aggregate(gathered, AggregateMode.SINGLE, keys, calls, globalSets), aggregate);
    }
    Aggregate partial =
        windowed(
            new Aggregate(aggregate.input(), AggregateMode.PARTIAL, keys, calls, globalSets),
            aggregate);
    return windowed(
        new Aggregate(grouped(partial, leading(keys.size())), AggregateMode.FINAL, keys, calls),
        aggregate);
  }

  /** {@code aggregate} over the event-time windows of {@code like}, if it has any. */
  private static Aggregate windowed(Aggregate aggregate, Aggregate like) {
    return like.windowEnd().isPresent()
        ? aggregate.withWindowEnd(like.windowEnd().getAsInt())
        : aggregate;
  }

  /** Columns 0 .. n-1. */
  private static List<Integer> leading(int n) {
    List<Integer> columns = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      columns.add(i);
    }
    return columns;
  }

  /**
   * {@code node} with every group of {@code keys} in one partition: hash-repartitioned on them, or
   * gathered to one partition when there are no keys (a global aggregate).
   */
  private PlanNode grouped(PlanNode node, List<Integer> keys) {
    if (keys.isEmpty()) {
      return new Coalesce(node, 1);
    }
    return new Repartition(
        node, Repartition.Scheme.hash(keys), parallelism > 0 ? parallelism : node.partitions());
  }

  /** {@code node} hash-partitioned on {@code keys} into {@code n}, moved only when it is not. */
  private static PlanNode hashed(PlanNode node, List<Integer> keys, int n) {
    return node.partitioning().equals(Partitioning.hash(keys, n))
        ? node
        : new Repartition(node, Repartition.Scheme.hash(keys), n);
  }
}
