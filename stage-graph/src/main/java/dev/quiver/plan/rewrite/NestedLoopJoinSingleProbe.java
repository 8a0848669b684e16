package dev.quiver.plan.rewrite;

import dev.quiver.plan.node.Coalesce;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import java.util.List;

/**
 * A nested loop join that must emit rows about the build side gets a single-partition probe input.
 *
 * <p>Why: a nested loop join always replicates its build side to every task (it has no keys to
 * partition on), so it has the problem {@link PartitionedJoinForUnmatchedBuildRows} describes for
 * RIGHT, FULL, RIGHT_SEMI and RIGHT_ANTI joins: each task only knows which build rows matched its
 * own probe rows. Without keys the fix is to give the join one task, which sees every probe row.
 *
 * <pre>
 *   NestedLoopJoin[RIGHT] (n)        NestedLoopJoin[RIGHT] (1)
 *     build (1)               ─►       build (1)
 *     probe (n)                        Coalesce[n -> 1]
 *                                        probe (n)
 * </pre>
 */
public final class NestedLoopJoinSingleProbe extends BottomUpRewrite {
  @Override
  public String name() {
    return "single probe partition for nested loop joins that emit unmatched build rows";
  }

  @Override
  public PlanNode visitNestedLoopJoin(NestedLoopJoin join) {
    if (!join.type().tracksRightMatches() || join.probe().partitions() == 1) {
      return join;
    }
    return join.withChildren(List.of(join.build(), new Coalesce(join.probe(), 1)));
  }
}
