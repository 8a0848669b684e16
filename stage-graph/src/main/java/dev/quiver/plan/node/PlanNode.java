package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A node of a physical plan: an immutable tree, {@link Serializable} because stage plans travel
 * inside Flink jobs.
 *
 * <p>Every node knows, from the moment it is built (constructors validate their inputs and fail
 * with a {@link dev.quiver.error.QuiverException} that says what to fix):
 *
 * <ul>
 *   <li>its output {@link #schema()} (convertible to Arrow with {@link #arrowSchema()});
 *   <li>its output {@link #partitioning()}: how many partitions (= tasks of the stage that runs it)
 *       and which rows are in which;
 *   <li>its output {@link #ordering()}: the keys each partition is sorted by (empty: no order);
 *   <li>its {@link #children()}, in the operator's input order (joins: build = input 0 first, then
 *       probe = input 1);
 *   <li>a one-line description, {@link #toString()}, as EXPLAIN prints it.
 * </ul>
 *
 * Dispatch over node types goes through {@link #accept(PlanVisitor)}; rewrites rebuild a node over
 * new children with {@link #withChildren(List)}, which validates again.
 *
 * <p>Nodes compare structurally ({@link #equals}): two nodes are equal when they are of the same
 * class, have equal {@link #fields()} (every parameter of the operator: expressions, keys, types, a
 * scan's source with its units, options and filter, task counts), equal schema, partitioning and
 * ordering, and equal children. Equal subplans compute the same rows in the same partitions, which
 * is what lets the stage planner compute a subplan used several times only once.
 */
public abstract class PlanNode implements Serializable {
  private static final long serialVersionUID = 1L;

  private final List<PlanNode> children;
  private final RowSchema schema;
  private final Partitioning partitioning;
  private final List<SortKey> ordering;
  private transient int hash; // 0 until hashCode() computes it; equal trees are compared often

  protected PlanNode(
      List<PlanNode> children,
      RowSchema schema,
      Partitioning partitioning,
      List<SortKey> ordering) {
    this.children = List.copyOf(requireNonNull(children, "children is null"));
    this.schema = requireNonNull(schema, "schema is null");
    this.partitioning = requireNonNull(partitioning, "partitioning is null");
    this.ordering = List.copyOf(requireNonNull(ordering, "ordering is null"));
  }

  /** The direct inputs, in operator input order. */
  public final List<PlanNode> children() {
    return children;
  }

  public final PlanNode child(int index) {
    return children.get(index);
  }

  public final RowSchema schema() {
    return schema;
  }

  /** The output schema as Arrow sees it. */
  public final Schema arrowSchema() {
    return schema.toArrow();
  }

  public final Partitioning partitioning() {
    return partitioning;
  }

  /** The number of output partitions: the task count of the stage that runs this node. */
  public final int partitions() {
    return partitioning.count();
  }

  /** The sort keys every output partition is ordered by; empty when there is no order. */
  public final List<SortKey> ordering() {
    return ordering;
  }

  public abstract <R> R accept(PlanVisitor<R> visitor);

  /**
   * The same node over new children (same number, in the same order), validated again. Returns
   * {@code this} when the children are the same instances.
   */
  public abstract PlanNode withChildren(List<PlanNode> children);

  /**
   * Everything that defines this node besides its children, schema, partitioning and ordering: the
   * operator's own parameters, each a value with {@code equals} and {@code hashCode} (nulls
   * allowed), in a fixed order. {@link #equals} and {@link #hashCode} are built on it, so a node
   * that leaves a parameter out here would be mistaken for another one.
   */
  protected abstract List<Object> fields();

  /** Structural equality: see the class comment. */
  @Override
  public final boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (other == null || other.getClass() != getClass()) {
      return false;
    }
    PlanNode that = (PlanNode) other;
    return hashCode() == that.hashCode()
        && schema.equals(that.schema)
        && partitioning.equals(that.partitioning)
        && ordering.equals(that.ordering)
        && fields().equals(that.fields())
        && children.equals(that.children);
  }

  /** A hash of the whole subtree, computed once per node. */
  @Override
  public final int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Objects.hash(getClass().getName(), schema, partitioning, ordering, fields(), children);
      h = h == 0 ? 1 : h;
      hash = h;
    }
    return h;
  }

  /** The node in one line, e.g. {@code Limit[GLOBAL, offset=0, fetch=10]}. */
  @Override
  public abstract String toString();

  /** Whether {@code newChildren} are the current children, instance by instance. */
  protected final boolean sameChildren(List<PlanNode> newChildren) {
    requireNonNull(newChildren, "newChildren is null");
    if (newChildren.size() != children.size()) {
      throw new IllegalArgumentException(
          this + " has " + children.size() + " children, got " + newChildren.size());
    }
    for (int i = 0; i < children.size(); i++) {
      if (newChildren.get(i) != children.get(i)) {
        return false;
      }
    }
    return true;
  }
}
