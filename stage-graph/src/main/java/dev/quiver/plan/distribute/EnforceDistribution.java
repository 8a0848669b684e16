package dev.quiver.plan.distribute;

import dev.quiver.plan.node.Broadcast;
import dev.quiver.plan.node.Coalesce;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Repartition;
import dev.quiver.plan.rewrite.PlanRewrite;
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
 * </pre>
 *
 * The walk is bottom-up: a node is looked at after its inputs got their exchanges, so it decides on
 * their final partitioning (an input already hash-partitioned on the join keys is not moved again).
 * A join whose inputs already are as it needs them is left alone, so the pass is idempotent and
 * keeps exchanges placed by hand. {@code p} is the planner's parallelism, or, when none is given,
 * the larger of the two inputs' partition counts.
 */
public final class EnforceDistribution implements PlanRewrite {
  private final int parallelism; // 0: the larger input's partition count

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
        public PlanNode visitNestedLoopJoin(NestedLoopJoin join) {
          PlanNode build = join.build();
          return build.partitions() > 1
              ? join.withChildren(List.of(new Broadcast(build), join.probe()))
              : join;
        }
      };

  /** {@code node} hash-partitioned on {@code keys} into {@code n}, moved only when it is not. */
  private static PlanNode hashed(PlanNode node, List<Integer> keys, int n) {
    return node.partitioning().equals(Partitioning.hash(keys, n))
        ? node
        : new Repartition(node, Repartition.Scheme.hash(keys), n);
  }
}
