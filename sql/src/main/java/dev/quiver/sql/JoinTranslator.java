package dev.quiver.sql;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.distribute.EnforceDistribution;
import dev.quiver.plan.distribute.ReplicateSmallBuilds;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.JoinDistribution;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.RuntimeFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Plans one Calcite join as a Quiver hash join (equi keys plus an optional residual) or, without
 * equi keys, a nested loop join. The choices, in order:
 *
 * <ol>
 *   <li><b>Build side</b>: the side estimated smaller (rows × average row size) is built into the
 *       hash table and the other streamed, mirroring the join type when the SQL left side builds
 *       (LEFT ↔ RIGHT, SEMI ↔ RIGHT_SEMI, ...). A mark join always builds its subquery side.
 *   <li><b>Distribution</b>:
 *       <pre>
 *   BROADCAST    build ──all rows──► every probe task      (build small, or NOT IN semantics)
 *   PARTITIONED  build ──hash(keys)──► task p ◄──hash(keys)── probe   (both sides large)
 *       </pre>
 *       A join that emits unmatched build rows (RIGHT, FULL, RIGHT_SEMI/ANTI) is never broadcast:
 *       every task would emit them. The exchanges themselves are placed by {@link
 *       EnforceDistribution}, which does not move inputs already hash-partitioned on the keys.
 *   <li><b>Columns</b>: Quiver's join emits {@code [probe][build]}; a projection restores SQL's
 *       {@code [left][right]} order when the sides were swapped and drops helper key columns.
 * </ol>
 */
final class JoinTranslator {
  private final RelTranslator inputs;
  private final PlannerOptions options;

  JoinTranslator(RelTranslator inputs, PlannerOptions options) {
    this.inputs = requireNonNull(inputs, "inputs is null");
    this.options = requireNonNull(options, "options is null");
  }

  PlanBuilder translate(Join join) {
    RexBuilder rexBuilder = join.getCluster().getRexBuilder();
    // (a = b AND x) OR (a = b AND y) → a = b AND (x OR y): TPC-H Q19 has its key only like this.
    RexNode condition = RexUtil.pullFactors(rexBuilder, join.getCondition());
    List<Integer> leftKeys = new ArrayList<>();
    List<Integer> rightKeys = new ArrayList<>();
    List<Boolean> filterNulls = new ArrayList<>();
    RexNode rest =
        RelOptUtil.splitJoinCondition(
            join.getLeft(), join.getRight(), condition, leftKeys, rightKeys, filterNulls);
    RexNode residual = rest.isAlwaysTrue() ? null : rest;
    JoinType sqlType = joinType(join.getJoinType());
    PlanBuilder left = inputs.translate(join.getLeft());
    PlanBuilder right = inputs.translate(join.getRight());
    boolean buildLeft = buildsLeft(join, sqlType);
    if (leftKeys.isEmpty()) {
      return nestedLoop(join, sqlType, left, right, residual, buildLeft);
    }
    List<Boolean> nullSafe = new ArrayList<>();
    for (boolean filters : filterNulls) {
      nullSafe.add(!filters);
    }
    JoinKeys.Side[] sides = JoinKeys.prepare(left, leftKeys, right, rightKeys, nullSafe);
    JoinKeys.Side probe = buildLeft ? sides[1] : sides[0];
    JoinKeys.Side build = buildLeft ? sides[0] : sides[1];
    JoinType type = buildLeft ? sqlType.swap() : sqlType;
    Expr residualExpr =
        residual == null ? null : residual(join, residual, sides[0], sides[1], buildLeft);
    JoinKind kind = kind(join, type, leftKeys, rightKeys, left, right, residualExpr, nullSafe);
    JoinDistribution distribution = distribution(join, type, kind, probe.plan(), buildLeft);
    RuntimeFilter runtimeFilter =
        distribution == JoinDistribution.PARTITIONED
                && RuntimeFilter.dropsUnmatchedProbeRows(kind)
                && switch (options.runtimeFilters()) {
                  case OFF -> false;
                  case BY_STATISTICS -> filtersProbe(join, buildLeft, leftKeys, rightKeys);
                  case EVERY_JOIN -> true;
                }
            ? RuntimeFilter.FILTERED_PROBE
            : RuntimeFilter.NONE;
    PlanBuilder joined =
        probe
            .plan()
            .hashJoin(
                kind,
                build.plan(),
                build.keys(),
                probe.keys(),
                residualExpr,
                distribution,
                runtimeFilter);
    return restoreColumns(join, joined, type, sides[0], sides[1], buildLeft);
  }

  private static JoinType joinType(JoinRelType type) {
    switch (type) {
      case INNER:
        return JoinType.INNER;
      case LEFT:
        return JoinType.LEFT;
      case RIGHT:
        return JoinType.RIGHT;
      case FULL:
        return JoinType.FULL;
      case SEMI:
        return JoinType.LEFT_SEMI;
      case ANTI:
        return JoinType.LEFT_ANTI;
      case LEFT_MARK:
        return JoinType.LEFT_MARK;
      default:
        throw Errors.unsupported(type + " join");
    }
  }

  /**
   * Whether the SQL left side should be the build side: the smaller one, except that of two sides
   * small enough to broadcast, an inner join builds the one that is a small table's scan (with its
   * filters and projections): such a build is scanned inside the probe's stage ({@code
   * ReplicateSmallBuilds}), while building the other side would make that scan the probe of a stage
   * of its own, after the other side's. TPC-DS q7's sales joined with three filtered dimensions,
   * once estimated smaller than {@code item}, were broadcast to a stage scanning {@code item} (0.52
   * -> 0.78 s).
   */
  private boolean buildsLeft(Join join, JoinType sqlType) {
    if (sqlType == JoinType.LEFT_MARK) {
      return false;
    }
    double left = bytes(join.getLeft());
    double right = bytes(join.getRight());
    if (sqlType == JoinType.INNER
        && left <= options.broadcastThresholdBytes()
        && right <= options.broadcastThresholdBytes()) {
      boolean leftScan = replicableScan(join.getLeft());
      if (leftScan != replicableScan(join.getRight())) {
        return leftScan;
      }
    }
    return left < right;
  }

  /**
   * Filters and projections over a scan of a table small enough to replicate as a build: its bytes
   * times the tasks at most the replication bound.
   */
  private boolean replicableScan(RelNode node) {
    if (!(ScanPipelines.under(node) instanceof TableScan scan)) {
      return false;
    }
    QuiverTable table = scan.getTable().unwrap(QuiverTable.class);
    return table != null
        && ReplicateSmallBuilds.replicable(
            table.table().bytes(), options.parallelism(), options.replicateBuildBytes());
  }

  /**
   * Whether the probe side of a partitioned join is worth filtering by its build keys before the
   * shuffle ({@link RuntimeFilter}): the probe side is large, and the build side keeps at most half
   * of the key values its key columns have in the table they come from. That is the share of probe
   * rows that can match when the probe's keys refer to that table (a foreign key to a dimension or
   * to a filtered fact table), whatever the statistics of the probe's own key column say: a column
   * of six million rows whose values span six million need not hold six million distinct values (a
   * first version compared the two sides' distinct counts and filtered TPC-H Q9's lineitem by all
   * of orders). Costs of the filter, which these bounds weigh: a stage that keeps each build key
   * once and broadcasts the keys (about 0.1 s of scheduling here), a hash lookup per probe row, and
   * the probe's stage starting only after the build side has finished.
   */
  private static boolean filtersProbe(
      Join join, boolean buildLeft, List<Integer> leftKeys, List<Integer> rightKeys) {
    RelNode probe = buildLeft ? join.getRight() : join.getLeft();
    RelNode build = buildLeft ? join.getLeft() : join.getRight();
    List<Integer> buildKeys = buildLeft ? leftKeys : rightKeys;
    if (bytes(probe) < RUNTIME_FILTER_MIN_PROBE_BYTES) {
      return false;
    }
    RelMetadataQuery mq = join.getCluster().getMetadataQuery();
    RelOptTable table = null;
    List<Integer> tableColumns = new ArrayList<>();
    for (int key : buildKeys) {
      Set<RelColumnOrigin> origins = mq.getColumnOrigins(build, key);
      if (origins == null || origins.size() != 1) {
        return false;
      }
      RelColumnOrigin origin = origins.iterator().next();
      if (origin.isDerived() || (table != null && table != origin.getOriginTable())) {
        return false;
      }
      table = origin.getOriginTable();
      tableColumns.add(origin.getOriginColumnOrdinal());
    }
    Double kept = mq.getDistinctRowCount(build, ImmutableBitSet.of(buildKeys), null);
    Double all =
        mq.getDistinctRowCount(
            LogicalTableScan.create(join.getCluster(), table, List.of()),
            ImmutableBitSet.of(tableColumns),
            null);
    return kept != null
        && all != null
        && kept <= RUNTIME_FILTER_MAX_KEYS
        && kept <= RUNTIME_FILTER_MAX_PASS * all;
  }

  /** A probe side smaller than this is shuffled unfiltered: the filter's stage would cost more. */
  static final double RUNTIME_FILTER_MIN_PROBE_BYTES = 32 << 20;

  /** At most this many distinct build keys (the filter's hash table in every probe task). */
  static final double RUNTIME_FILTER_MAX_KEYS = 4_000_000;

  /** The largest share of its key columns' values in their table the build side may keep. */
  static final double RUNTIME_FILTER_MAX_PASS = 0.5;

  /** Estimated size of {@code rel}'s output, from Calcite's row count and average row size. */
  static double bytes(RelNode rel) {
    RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
    Double rows = mq.getRowCount(rel);
    Double width = mq.getAverageRowSize(rel);
    double w = width == null ? 8.0 * rel.getRowType().getFieldCount() : width;
    return (rows == null ? 1e9 : rows) * w;
  }

  /**
   * The join kind. Calcite's mark join has SQL's three-valued IN semantics; Quiver's LEFT_MARK is
   * two-valued unless null-aware, and null-aware needs one key and no residual. Where the columns
   * cannot be NULL the two agree.
   */
  private static JoinKind kind(
      Join join,
      JoinType type,
      List<Integer> leftKeys,
      List<Integer> rightKeys,
      PlanBuilder left,
      PlanBuilder right,
      Expr residual,
      List<Boolean> nullSafe) {
    if (type != JoinType.LEFT_MARK) {
      return JoinKind.of(type);
    }
    boolean nullable = residual != null && residual.nullable();
    for (int i = 0; i < leftKeys.size(); i++) {
      if (!nullSafe.get(i)) {
        nullable |= left.schema().column(leftKeys.get(i)).nullable();
        nullable |= right.schema().column(rightKeys.get(i)).nullable();
      }
    }
    if (!nullable) {
      return JoinKind.of(type);
    }
    if (leftKeys.size() == 1 && residual == null && !nullSafe.get(0)) {
      return JoinKind.nullAware(type);
    }
    throw Errors.unsupported(
        "IN / NOT IN subquery over nullable columns with more than one column or a condition: "
            + join.getCondition());
  }

  private JoinDistribution distribution(
      Join join, JoinType type, JoinKind kind, PlanBuilder probe, boolean buildLeft) {
    if (probe.partitions() == 1 && options.parallelism() == 1) {
      return JoinDistribution.PARTITIONED; // one task: nothing to distribute
    }
    if (type.tracksRightMatches()) {
      return JoinDistribution.PARTITIONED;
    }
    RelNode build = buildLeft ? join.getLeft() : join.getRight();
    if (kind.nullAware() || bytes(build) <= options.broadcastThresholdBytes()) {
      return JoinDistribution.BROADCAST;
    }
    return JoinDistribution.PARTITIONED;
  }

  /**
   * The residual over Quiver's joined row {@code [probe][build]} (each side with its helper key
   * columns), from Calcite's condition over {@code [left][right]}.
   */
  private Expr residual(
      Join join, RexNode residual, JoinKeys.Side left, JoinKeys.Side right, boolean buildLeft) {
    int leftFields = join.getLeft().getRowType().getFieldCount();
    int leftWidth = left.plan().schema().size();
    int rightWidth = right.plan().schema().size();
    RexNode remapped =
        residual.accept(
            new RexShuttle() {
              @Override
              public RexNode visitInputRef(RexInputRef ref) {
                int i = ref.getIndex();
                boolean isLeft = i < leftFields;
                int within = isLeft ? i : i - leftFields;
                int index =
                    buildLeft
                        ? (isLeft ? rightWidth + within : within)
                        : (isLeft ? within : leftWidth + within);
                return new RexInputRef(index, ref.getType());
              }
            });
    RowSchema joined =
        buildLeft
            ? right.plan().schema().concat(left.plan().schema())
            : left.plan().schema().concat(right.plan().schema());
    return new RexTranslator(joined, join.getCluster().getRexBuilder()).translate(remapped);
  }

  /**
   * Projects Quiver's join output back to Calcite's row: [left][right], [left], or [left][mark].
   */
  private static PlanBuilder restoreColumns(
      Join join,
      PlanBuilder joined,
      JoinType type,
      JoinKeys.Side left,
      JoinKeys.Side right,
      boolean buildLeft) {
    List<Integer> columns = new ArrayList<>();
    int probeWidth = (buildLeft ? right : left).plan().schema().size();
    int leftStart;
    int rightStart = -1;
    if (!buildLeft) {
      leftStart = 0;
      if (type.emitsRight()) {
        rightStart = probeWidth;
      }
    } else if (type.emitsLeft()) {
      // Pairs: [right (probe)][left (build)].
      rightStart = 0;
      leftStart = probeWidth;
    } else {
      leftStart = 0; // RIGHT_SEMI / RIGHT_ANTI: only the build (SQL left) columns
    }
    for (int i = 0; i < left.originalWidth(); i++) {
      columns.add(leftStart + i);
    }
    if (rightStart >= 0) {
      for (int i = 0; i < right.originalWidth(); i++) {
        columns.add(rightStart + i);
      }
    }
    if (type == JoinType.LEFT_MARK) {
      columns.add(joined.schema().size() - 1);
    }
    return RelTranslator.project(joined, columns, join.getRowType().getFieldNames());
  }

  private PlanBuilder nestedLoop(
      Join join,
      JoinType sqlType,
      PlanBuilder left,
      PlanBuilder right,
      RexNode residual,
      boolean buildLeft) {
    JoinKeys.Side l = new JoinKeys.Side(left, List.of(), left.schema().size());
    JoinKeys.Side r = new JoinKeys.Side(right, List.of(), right.schema().size());
    JoinType type = buildLeft ? sqlType.swap() : sqlType;
    Expr condition = residual == null ? null : residual(join, residual, l, r, buildLeft);
    if (type == JoinType.LEFT_MARK && condition != null && condition.nullable()) {
      throw Errors.unsupported("IN / EXISTS subquery with a nullable non-equi condition");
    }
    PlanBuilder probe = buildLeft ? right : left;
    PlanBuilder build = buildLeft ? left : right;
    PlanBuilder joined = probe.nestedLoopJoin(type, build, condition);
    return restoreColumns(join, joined, type, l, r, buildLeft);
  }
}
