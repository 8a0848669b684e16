package dev.quiver.operators.keyrange;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.RuntimeFilter;
import dev.quiver.plan.node.Scan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which scan columns of its own stage a hash join's build keys can restrict: a probe key column
 * that is a scan's column read unchanged, through filters, projections that pass it on and the
 * probe sides of other joins. A probe row whose key lies outside the build keys' {@link KeyRange}
 * finds no match, and so do the rows of the scan it came from; where the join drops probe rows
 * without a match, the scan may skip them.
 *
 * <pre>
 *   HashJoin[INNER, build=[#0], probe=[#2]]       build keys of date_dim: [2451545, 2451910]
 *     Scan[date_dim ...]
 *     Filter                                      #2 passes unchanged
 *       Scan[store_sales [.., ss_sold_date_sk, ..]]  ─► target: store_sales column 2
 * </pre>
 *
 * Why each condition:
 *
 * <ul>
 *   <li>the join drops unmatched probe rows ({@link RuntimeFilter#dropsUnmatchedProbeRows}: INNER,
 *       RIGHT, LEFT_SEMI, RIGHT_SEMI, RIGHT_ANTI; not null-aware), else a row that matches nothing
 *       is still output;
 *   <li>the value reaches the key unchanged: a filter only removes rows, a projection by column
 *       reference renames, and a join emits each probe row's columns first and unchanged (a row
 *       padded with NULLs has a NULL key and matches nothing either); any other node (an aggregate,
 *       a computed expression, a stage input) ends the search;
 *   <li>the table is scanned once in the stage, as ranges are published by table name;
 *   <li>the key's type has ranges ({@link KeyRangeBuilder#supports}).
 * </ul>
 */
public final class ProbeKeyOrigins {
  /**
   * Build key {@code buildKey} (an index into the join's key lists) restricts {@code column} of the
   * scan of {@code table}.
   */
  public record Target(int buildKey, String table, int column) {}

  private final Map<String, Integer> scans = new HashMap<>(); // table -> scans of it in the stage

  private ProbeKeyOrigins(PlanNode stage) {
    countScans(requireNonNull(stage, "stage is null"), scans);
  }

  /** The origins in the stage plan {@code stage} (its scans are counted once, here). */
  public static ProbeKeyOrigins of(PlanNode stage) {
    return new ProbeKeyOrigins(stage);
  }

  /** The targets of {@code join}, a node of this stage's plan; often none. */
  public List<Target> targets(HashJoin join) {
    requireNonNull(join, "join is null");
    if (!RuntimeFilter.dropsUnmatchedProbeRows(join.kind())) {
      return List.of();
    }
    List<Target> targets = new ArrayList<>();
    for (int key = 0; key < join.probeKeys().size(); key++) {
      int buildColumn = join.buildKeys().get(key);
      if (!KeyRangeBuilder.supports(
          join.build().arrowSchema().getFields().get(buildColumn).getType())) {
        continue;
      }
      Target target = origin(join.probe(), join.probeKeys().get(key), key);
      if (target != null && scans.getOrDefault(target.table(), 0) == 1) {
        targets.add(target);
      }
    }
    return targets;
  }

  private static Target origin(PlanNode node, int column, int key) {
    while (true) {
      if (node instanceof Scan scan) {
        return new Target(key, scan.source().name(), column);
      } else if (node instanceof Filter filter) {
        node = filter.input();
      } else if (node instanceof Project project) {
        Expr expr = project.expressions().get(column);
        if (!(expr instanceof ColumnRef ref)) {
          return null;
        }
        column = ref.index();
        node = project.input();
      } else if (node instanceof HashJoin join
          && join.kind().type().emitsLeft()
          && column < join.probe().schema().size()) {
        node = join.probe();
      } else {
        return null;
      }
    }
  }

  private static void countScans(PlanNode node, Map<String, Integer> scans) {
    if (node instanceof Scan scan) {
      scans.merge(scan.source().name(), 1, Integer::sum);
    }
    node.children().forEach(child -> countScans(child, scans));
  }
}
