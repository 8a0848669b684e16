package dev.quiver.plan.node;

import dev.quiver.plan.sort.SortKey;
import java.util.List;

/**
 * A node without inputs (a scan, literal rows, a stage input).
 *
 * <p>Why: a leaf has no children to replace, so {@link #withChildren} only checks that it got none
 * and returns the node itself; that rule is the same for every leaf and lives here.
 */
abstract class LeafNode extends PlanNode {
  private static final long serialVersionUID = 1L;

  LeafNode(RowSchema schema, Partitioning partitioning, List<SortKey> ordering) {
    super(List.of(), schema, partitioning, ordering);
  }

  @Override
  public final PlanNode withChildren(List<PlanNode> children) {
    sameChildren(children);
    return this;
  }
}
