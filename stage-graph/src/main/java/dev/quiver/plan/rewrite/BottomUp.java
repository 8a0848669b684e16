package dev.quiver.plan.rewrite;

import dev.quiver.plan.node.Coalesce;
import dev.quiver.plan.node.Partitioning;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Repartition;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Applies a rule to every node of a plan, children first, rebuilding (and so re-validating) each
 * parent whose children changed.
 *
 * <p>A rule may change a node's partition count (a global limit goes from n partitions to one). A
 * single-input parent simply follows: it runs with its input's partitions. A parent with several
 * inputs (union, join) needs its inputs to agree, so the changed child is restored to its old
 * partitioning with an exchange:
 *
 * <pre>
 *   Union (4)                      Union (4)
 *     Limit GLOBAL (4)     ─►        Repartition[round-robin, 4]   (hash keys: hash again)
 *     Scan (4)                         Limit GLOBAL (1) ◄─ Coalesce ◄─ Limit LOCAL ◄─ ...
 *                                    Scan (4)
 * </pre>
 */
final class BottomUp {
  private BottomUp() {}

  static PlanNode apply(PlanNode node, UnaryOperator<PlanNode> rule) {
    List<PlanNode> children = node.children();
    List<PlanNode> rewritten = new ArrayList<>(children.size());
    boolean changed = false;
    for (PlanNode child : children) {
      PlanNode next = apply(child, rule);
      if (children.size() > 1 && next.partitions() != child.partitions()) {
        next = restore(next, child.partitioning());
      }
      rewritten.add(next);
      changed |= next != child;
    }
    PlanNode rebuilt = changed ? node.withChildren(rewritten) : node;
    return rule.apply(rebuilt);
  }

  /** {@code node} spread again the way {@code wanted} says. */
  private static PlanNode restore(PlanNode node, Partitioning wanted) {
    return switch (wanted.kind()) {
      case HASH -> new Repartition(node, Repartition.Scheme.hash(wanted.keys()), wanted.count());
      case SINGLE -> new Coalesce(node, 1);
      case ROUND_ROBIN, UNKNOWN ->
          new Repartition(node, Repartition.Scheme.roundRobin(), wanted.count());
    };
  }
}
