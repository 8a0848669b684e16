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
public final class Broadcast extends Exchange {
  private static final long serialVersionUID = 1L;

  public Broadcast(PlanNode input) {
    super(requireNonNull(input, "input is null"), Partitioning.single(), List.of());
  }

  /** Whether {@code node} is a Broadcast exchange. */
  public static boolean is(PlanNode node) {
    Exchange exchange = Exchange.as(node);
    return exchange != null && exchange.distribution().kind() == Distribution.Kind.BROADCAST;
  }

  @Override
  public Distribution distribution() {
    return Distribution.broadcast();
  }

  @Override
  public Broadcast withInput(PlanNode input) {
    return new Broadcast(input);
  }

  @Override
  protected List<Object> fields() {
    return List.of();
  }

  @Override
  public <R> R accept(ExchangeVisitor<R> visitor) {
    return visitor.visitBroadcast(this);
  }

  /** {@code Broadcast}. */
  @Override
  public String toString() {
    return "Broadcast";
  }
}
