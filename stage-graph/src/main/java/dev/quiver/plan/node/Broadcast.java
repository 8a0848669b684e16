package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Exchange: every consumer task reads every row of every input partition (BROADCAST). It is only
 * meaningful as the build input of a join ({@link JoinDistribution#BROADCAST} hash join, or a
 * {@link NestedLoopJoin}): anywhere else each consumer task would emit the same rows again, so the
 * stage planner rejects it there.
 *
 * <pre>
 *   p0 ──all rows──► c0, c1, c2
 *   p1 ──all rows──► c0, c1, c2
 * </pre>
 *
 * Its output is one logical partition holding all rows (replicated to each consumer task), so it
 * reports {@link Partitioning#single()}; it is not ordered.
 */
public final class Broadcast extends PlanNode {
  private static final long serialVersionUID = 1L;

  public Broadcast(PlanNode input) {
    super(
        List.of(requireNonNull(input, "input is null")),
        input.schema(),
        Partitioning.single(),
        List.of());
  }

  /** Whether {@code node} is a Broadcast exchange. */
  public static boolean is(PlanNode node) {
    return node.accept(
        new DefaultPlanVisitor<Boolean>() {
          @Override
          protected Boolean visitDefault(PlanNode other) {
            return false;
          }

          @Override
          public Boolean visitBroadcast(Broadcast broadcast) {
            return true;
          }
        });
  }

  public PlanNode input() {
    return child(0);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitBroadcast(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Broadcast(children.get(0));
  }

  /** {@code Broadcast}. */
  @Override
  public String toString() {
    return "Broadcast";
  }
}
