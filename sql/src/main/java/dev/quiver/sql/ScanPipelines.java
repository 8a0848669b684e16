package dev.quiver.sql;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;

/**
 * Relational pipelines of projections and filters, the shape the planner's rules look through to
 * find what a side of a join reads (a table scan, an aggregate, VALUES).
 */
final class ScanPipelines {
  private ScanPipelines() {}

  /**
   * The first node under {@code node}'s projections and filters ({@code node} if it is neither).
   */
  static RelNode under(RelNode node) {
    RelNode n = node;
    while (n instanceof Project || n instanceof Filter) {
      n = n.getInput(0);
    }
    return n;
  }

  /** Whether one of {@code node}'s projections and filters is a filter. */
  static boolean filters(RelNode node) {
    for (RelNode n = node; n instanceof Project || n instanceof Filter; n = n.getInput(0)) {
      if (n instanceof Filter) {
        return true;
      }
    }
    return false;
  }
}
