package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

/**
 * Prints a plan tree, one node per line, children indented two spaces under their parent in input
 * order (joins: build, then probe). Each line ends with the node's partitioning, and its ordering
 * when it has one, in braces, since that is what the distributed rewrites reason about:
 *
 * <pre>
 * Limit[GLOBAL, offset=0, fetch=10]  {unknown(4)}
 *   Scan[orders, units=13, tasks=4]  {unknown(4)}
 * </pre>
 */
public final class PlanPrinter {
  private PlanPrinter() {}

  /** The whole tree, each line ending in a newline. */
  public static String explain(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    StringBuilder text = new StringBuilder();
    print(plan, 0, text);
    return text.toString();
  }

  private static void print(PlanNode node, int depth, StringBuilder text) {
    text.append("  ".repeat(depth)).append(node).append("  {").append(node.partitioning());
    if (!node.ordering().isEmpty()) {
      text.append(", sorted ").append(Sort.keys(node.ordering()));
    }
    text.append("}\n");
    for (PlanNode child : node.children()) {
      print(child, depth + 1, text);
    }
  }
}
