package dev.quiver.plan.rewrite;

import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Distribution;
import dev.quiver.plan.node.Exchange;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Repartition;
import java.util.List;

/**
 * A COLLECT_LEFT or BROADCAST hash join whose type must emit rows about the <em>build</em> side
 * becomes a PARTITIONED join with both inputs hash-repartitioned on the join keys.
 *
 * <p><b>Why.</b> With a replicated build side each of the n join tasks holds <em>all</em> build
 * rows but only its own slice of the probe rows. Whether a build row matched is therefore known per
 * task, never globally:
 *
 * <pre>
 *   type        emits                                     with the build side on n tasks
 *   INNER       matching pairs                            right: each pair is found once, in the
 *   LEFT        + unmatched probe rows, padded              task of its probe row, and a probe
 *   LEFT_SEMI   probe rows with a match                     row's fate depends only on the whole
 *   LEFT_ANTI   probe rows without a match                  build side, which that task has
 *   LEFT_MARK   every probe row + matched flag
 *   (null-aware LEFT_ANTI / LEFT_MARK: "is the build side empty, has it a NULL key" is also
 *    answered by the whole build side: right)
 *   RIGHT       + unmatched build rows, padded            WRONG: every task pads the build rows it
 *                                                           did not match: n copies of a row no one
 *                                                           matched, and copies of rows that another
 *                                                           task did match
 *   FULL        + both kinds of unmatched rows            WRONG, as RIGHT
 *   RIGHT_SEMI  build rows with a match, once             WRONG: once per task that matched it
 *   RIGHT_ANTI  build rows without a match                WRONG: by every task that did not match
 *                                                           it, even if another task did
 * </pre>
 *
 * The wrong ones are exactly {@link JoinType#tracksRightMatches()}: the operator keeps a matched
 * flag per build row, and tasks cannot OR their flags together. Partitioned on the join keys, every
 * build row lives in one task together with every probe row that could match it, so its flag is
 * complete there. (The other direction fails for the null-aware types, whose answer needs the whole
 * build side in every task; {@link HashJoin} rejects them PARTITIONED.) With one join task nothing
 * is replicated, and the join is left alone.
 *
 * <pre>
 *   HashJoin[RIGHT, BROADCAST]                HashJoin[RIGHT, PARTITIONED]
 *     Broadcast                        ─►       Repartition[hash(build keys), n]
 *       build (m partitions)                      build (m partitions)
 *     probe (n partitions)                      Repartition[hash(probe keys), n]
 *                                                 probe (n partitions)
 * </pre>
 *
 * The replicating exchange of the build side (a Broadcast, or a gather to one partition) is
 * dropped, since the build rows are repartitioned anyway; a side that is already hash-partitioned
 * on its keys into n is not repartitioned again.
 */
public final class PartitionedJoinForUnmatchedBuildRows extends BottomUpRewrite {
  @Override
  public String name() {
    return "partitioned join for joins that emit unmatched build rows";
  }

  @Override
  public PlanNode visitHashJoin(HashJoin join) {
    int n = join.probe().partitions();
    if (join.distribution() == JoinDistribution.PARTITIONED
        || !join.kind().type().tracksRightMatches()
        || n == 1) {
      return join;
    }
    PlanNode build = hashed(unreplicated(join.build()), join.buildKeys(), n);
    PlanNode probe = hashed(join.probe(), join.probeKeys(), n);
    return join.with(build, probe, JoinDistribution.PARTITIONED);
  }

  private static PlanNode hashed(PlanNode node, List<Integer> keys, int n) {
    return node.partitioning().equals(Partitioning.hash(keys, n))
        ? node
        : new Repartition(node, Repartition.Scheme.hash(keys), n);
  }

  /** The build input without the exchange that replicated or gathered it. */
  private static PlanNode unreplicated(PlanNode build) {
    Exchange exchange = Exchange.as(build);
    if (exchange == null) {
      return build;
    }
    Distribution distribution = exchange.distribution();
    boolean replicates =
        switch (distribution.kind()) {
          case BROADCAST -> true;
          case RESCALE -> distribution.count() == 1;
          case HASH, ROUND_ROBIN, MERGE -> false;
        };
    return replicates ? exchange.input() : build;
  }
}
