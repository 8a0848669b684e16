package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

/**
 * Exchange: reduces n input partitions to m ({@code 1 <= m <= n}) without looking at the rows.
 * Output partition j is the concatenation of a contiguous range of input partitions, {@code [j*n/m,
 * (j+1)*n/m)} (RESCALE); m = 1 gathers everything into one partition, in no particular order.
 *
 * <pre>
 *   p0 ─┐                 p0 ─┐
 *   p1 ─┴─► c0            p1 ─┤
 *   p2 ─┐                 p2 ─┼─► c0     (m = 1: a gather)
 *   p3 ─┴─► c1            p3 ─┘
 * </pre>
 *
 * With m = n nothing moves: partitioning and ordering pass through (a FORWARD edge). Otherwise the
 * output partitioning is unknown (single for m = 1) and unordered.
 */
public final class Coalesce extends Exchange {
  private static final long serialVersionUID = 1L;

  private final int count;

  public Coalesce(PlanNode input, int count) {
    super(
        requireNonNull(input, "input is null"),
        partitioning(input, count),
        count == input.partitions() ? input.ordering() : List.of());
    this.count = count;
  }

  private static Partitioning partitioning(PlanNode input, int count) {
    int n = input.partitions();
    PlanChecks.check(
        count >= 1 && count <= n,
        "Coalesce[" + n + " -> " + count + "]",
        "can only reduce " + n + " partitions to between 1 and " + n);
    return count == n ? input.partitioning() : Partitioning.unknown(count);
  }

  /** The number of output partitions. */
  public int count() {
    return count;
  }

  @Override
  public Distribution distribution() {
    return Distribution.rescale(count);
  }

  @Override
  public Coalesce withInput(PlanNode input) {
    return new Coalesce(input, count);
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(count);
  }

  @Override
  public <R> R accept(ExchangeVisitor<R> visitor) {
    return visitor.visitCoalesce(this);
  }

  /** {@code Coalesce[4 -> 1]}. */
  @Override
  public String toString() {
    return "Coalesce[" + input().partitions() + " -> " + count + "]";
  }
}
