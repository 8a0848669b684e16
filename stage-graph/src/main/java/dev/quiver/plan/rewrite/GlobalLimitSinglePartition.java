package dev.quiver.plan.rewrite;

import dev.quiver.plan.node.Coalesce;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.LimitScope;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.SortPreservingMerge;
import dev.quiver.plan.node.TopK;

/**
 * A GLOBAL limit or top-k over more than one partition gets a single-partition input. The planner's
 * {@code EnforceDistribution} pass applies it to every GLOBAL limit and top-k (it is not one of the
 * {@link Rewrites#defaults()}); it stays a rewrite of its own so that it can be tested and used
 * alone.
 *
 * <p>Why: a plan cut into stages runs every node once per task. A GLOBAL {@code LIMIT 10} over 4
 * partitions would run as 4 limits and return up to 40 rows (an OFFSET would skip rows 4 times); a
 * GLOBAL top-k would return each partition's top rows. The decision has to be made in one place.
 *
 * <pre>
 *   Limit[GLOBAL, offset, fetch]          Limit[GLOBAL, offset, fetch]                 (1 task)
 *     input (n partitions)        ─►        Coalesce[n -> 1]   or SortPreservingMerge when
 *                                             Limit[LOCAL, offset + fetch]    the input is sorted
 *                                               input (n partitions)                  (n tasks)
 *
 *   TopK[GLOBAL, keys, offset, fetch]     Limit[GLOBAL, offset, fetch]
 *     input (n partitions)        ─►        SortPreservingMerge[keys]
 *                                             TopK[LOCAL, keys, offset + fetch]
 *                                               input (n partitions)
 * </pre>
 *
 * The local limit keeps each task's output down to the {@code offset + fetch} rows that can matter
 * (skipped when there is no fetch, or when the input already is such a local limit). A sorted input
 * is merged rather than gathered, so the first rows stay the first rows. After the merge of local
 * top-k results the rows arrive in key order, so the global step is a plain limit (no second sort).
 * The input is not stopped early: once the limit has its rows, batches that still arrive are closed
 * unread, and the producing stages run to their end (a Flink task cannot end its producers). The
 * local limits are what keeps that cheap. Limits without offset and fetch, and limits over one
 * partition, are left alone.
 */
public final class GlobalLimitSinglePartition extends BottomUpRewrite {
  @Override
  public String name() {
    return "global limit gets a single-partition input";
  }

  @Override
  public PlanNode visitLimit(Limit limit) {
    PlanNode input = limit.input();
    boolean noOp = limit.offset() == 0 && limit.fetch() == Limit.ALL;
    if (limit.scope() != LimitScope.GLOBAL || input.partitions() == 1 || noOp) {
      return limit;
    }
    long bound = Limit.saturatedAdd(limit.offset(), limit.fetch());
    PlanNode local =
        bound == Limit.ALL || isLocalWithin(input, bound)
            ? input
            : new Limit(input, 0, bound, LimitScope.LOCAL);
    PlanNode single =
        local.ordering().isEmpty()
            ? new Coalesce(local, 1)
            : new SortPreservingMerge(local, local.ordering());
    return new Limit(single, limit.offset(), limit.fetch(), LimitScope.GLOBAL);
  }

  @Override
  public PlanNode visitTopK(TopK topK) {
    PlanNode input = topK.input();
    if (topK.scope() != LimitScope.GLOBAL || input.partitions() == 1) {
      return topK;
    }
    long bound = Limit.saturatedAdd(topK.offset(), topK.fetch());
    PlanNode local = new TopK(input, topK.keys(), bound, 0, LimitScope.LOCAL);
    PlanNode merged = new SortPreservingMerge(local, topK.keys());
    return new Limit(merged, topK.offset(), topK.fetch(), LimitScope.GLOBAL);
  }

  /** Whether {@code node} is a LOCAL limit or top-k that already keeps at most {@code bound}. */
  private static boolean isLocalWithin(PlanNode node, long bound) {
    return node.accept(
        new DefaultPlanVisitor<Boolean>() {
          @Override
          protected Boolean visitDefault(PlanNode other) {
            return false;
          }

          @Override
          public Boolean visitLimit(Limit limit) {
            return limit.scope() == LimitScope.LOCAL && limit.fetch() <= bound;
          }

          @Override
          public Boolean visitTopK(TopK topK) {
            return topK.scope() == LimitScope.LOCAL && topK.fetch() <= bound;
          }
        });
  }
}
