package dev.quiver.plan.distribute;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.Expand;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Repartition;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.rewrite.PlanRewrite;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps every task busy behind a scan whose split units cannot. A table stored as one large file (a
 * file is read by one task) is read by one task of its stage while the others read nothing, and
 * whatever runs in the scan's stage (the probe of every broadcast join, a partial aggregate, a
 * sort) runs in that one task too. This pass puts a round-robin exchange over such a scan and its
 * filters and projections, so that the work above it runs in all {@code p} tasks; the scan itself
 * gets no more tasks than it has units (no task reads nothing):
 *
 * <pre>
 *   HashJoin[BROADCAST]                   HashJoin[BROADCAST]
 *     Broadcast ...                         Broadcast ...
 *     Filter                        ─►      Repartition[round-robin, p]
 *       Scan[t, units=1, tasks=p]             Filter
 *                                               Scan[t, units=1, tasks=1]
 * </pre>
 *
 * Only rows that survive the scan's filters and projections move. An input is spread only where its
 * consumer works on it in the scan's stage: the probe of a broadcast or collected-build join or of
 * a nested loop join, an aggregate that runs a partial phase there, a sort, a top-k, an expand. Not
 * where rows move anyway right after the scan (a partitioned join, an aggregate without partial
 * states, a window: their hash exchange spreads the rows), nor a build side (it is replicated or
 * gathered), nor a query's result.
 *
 * <p>A scan is unbalanced when, with its units spread over its tasks as the stage planner will
 * ({@link SplitAssigner}), its most loaded task reads at least {@value #MIN_SKEW} times the mean
 * and at least {@code minExcessBytes} more than the mean: below that, the exchange (a stage more,
 * every row serialized once) costs more than the idle task loses. Row counts are not used: units
 * are weighed by the bytes a scan reads, as the assignment does.
 *
 * <p>Splitting a Parquet file by row groups would spread the scan itself; the file reader cannot
 * read a chosen subset of a file's row groups (see the formats module's README), so the planner
 * spreads the rows instead. EXPLAIN shows it as a {@code Repartition[round-robin, p]} directly over
 * a scan (and its filters) that has fewer tasks than the stage above it.
 */
public final class SpreadUnbalancedScans implements PlanRewrite {
  /**
   * The default least excess, in bytes, of the most loaded scan task over the mean: at parallelism
   * 2 a one-file table of 16 MiB is spread, one of 15 MiB is not. The figure is a guess that keeps
   * small tables (every table of the test suite's data) out of the exchange; it was not measured.
   */
  public static final long DEFAULT_MIN_EXCESS_BYTES = 8L << 20;

  /** The least ratio of the most loaded scan task's bytes to the mean. */
  static final double MIN_SKEW = 1.25;

  private final int parallelism;
  private final long minExcessBytes;

  private SpreadUnbalancedScans(int parallelism, long minExcessBytes) {
    this.parallelism = parallelism;
    this.minExcessBytes = minExcessBytes;
  }

  /**
   * Spreads unbalanced scans over {@code parallelism} partitions when their most loaded task reads
   * at least {@code minExcessBytes} more than the mean (and {@value #MIN_SKEW} times it).
   */
  public static SpreadUnbalancedScans withParallelism(int parallelism, long minExcessBytes) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
    }
    if (minExcessBytes < 0) {
      throw new IllegalArgumentException("minExcessBytes is negative: " + minExcessBytes);
    }
    return new SpreadUnbalancedScans(parallelism, minExcessBytes);
  }

  @Override
  public String name() {
    return "spread the rows of unbalanced scans";
  }

  @Override
  public PlanNode apply(PlanNode plan) {
    if (parallelism == 1) {
      return plan;
    }
    List<PlanNode> children = plan.children();
    List<Integer> worked = plan.accept(workedInStage);
    List<PlanNode> next = new ArrayList<>(children.size());
    boolean changed = false;
    for (int i = 0; i < children.size(); i++) {
      PlanNode child = apply(children.get(i));
      if (worked.contains(i)) {
        PlanNode spread = spread(child);
        if (spread != null) {
          child = spread;
        }
      }
      next.add(child);
      changed |= child != children.get(i);
    }
    return changed ? plan.withChildren(next) : plan;
  }

  /**
   * {@code input} behind a round-robin exchange, its scan with no more tasks than units, when it is
   * filters and projections over an unbalanced scan; else null.
   */
  private PlanNode spread(PlanNode input) {
    Scan scan = Scan.underPipeline(input);
    if (scan == null || !unbalanced(scan)) {
      return null;
    }
    int tasks = Math.max(1, Math.min(scan.tasks(), scan.source().units().size()));
    PlanNode chain = Scan.replaceUnderPipeline(input, new Scan(scan.source(), tasks));
    return new Repartition(chain, Repartition.Scheme.roundRobin(), parallelism);
  }

  private boolean unbalanced(Scan scan) {
    if (scan.tasks() > parallelism) {
      return false;
    }
    List<SplitUnit> units = scan.source().units();
    long total = 0;
    long max = 0;
    // The stage's p tasks would share the work evenly: compare with that, not with the scan's own
    // task count (a scan of one task under a stage of p is as unbalanced as one of p tasks).
    for (List<SplitUnit> task : SplitAssigner.assign(units, scan.tasks())) {
      long bytes = 0;
      for (SplitUnit unit : task) {
        bytes += unit.bytes();
      }
      total += bytes;
      max = Math.max(max, bytes);
    }
    double mean = (double) total / parallelism;
    return max >= MIN_SKEW * mean && max - mean >= minExcessBytes;
  }

  /** The indices of a node's inputs that it works on in the stage of those inputs. */
  private static final DefaultPlanVisitor<List<Integer>> workedInStage =
      new DefaultPlanVisitor<>() {
        @Override
        protected List<Integer> visitDefault(PlanNode node) {
          return List.of();
        }

        @Override
        public List<Integer> visitHashJoin(HashJoin join) {
          return join.distribution() == JoinDistribution.PARTITIONED
              ? List.of()
              : List.of(indexOf(join, join.probe()));
        }

        @Override
        public List<Integer> visitNestedLoopJoin(NestedLoopJoin join) {
          return List.of(indexOf(join, join.probe()));
        }

        @Override
        public List<Integer> visitAggregate(Aggregate aggregate) {
          boolean partial =
              switch (aggregate.mode()) {
                case PARTIAL -> true;
                case FINAL -> false;
                case SINGLE -> aggregate.calls().stream().allMatch(AggregateCall::hasPartialState);
              };
          return partial ? List.of(0) : List.of();
        }

        @Override
        public List<Integer> visitSort(Sort sort) {
          return List.of(0);
        }

        @Override
        public List<Integer> visitTopK(TopK topK) {
          return List.of(0);
        }

        @Override
        public List<Integer> visitExpand(Expand expand) {
          return List.of(0);
        }
      };

  private static int indexOf(PlanNode parent, PlanNode child) {
    List<PlanNode> children = parent.children();
    for (int i = 0; i < children.size(); i++) {
      if (children.get(i) == child) {
        return i;
      }
    }
    throw new IllegalStateException(child + " is not an input of " + parent);
  }
}
