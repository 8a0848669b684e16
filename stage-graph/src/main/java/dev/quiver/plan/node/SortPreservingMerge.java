package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import java.util.Arrays;
import java.util.List;

/**
 * Exchange: merges n partitions, each sorted by the keys, into one sorted partition (MERGE). The
 * consumer is one task that reads every producer partition tagged with its index and merges them
 * k-way; the input's ordering must start with the keys.
 *
 * <pre>
 *   p0 ─(sorted, tagged)─┐
 *   p1 ─(sorted, tagged)─┼─► k-way merge ─► one sorted partition
 *   p2 ─(sorted, tagged)─┘
 * </pre>
 */
public final class SortPreservingMerge extends Exchange {
  private static final long serialVersionUID = 1L;

  private final List<SortKey> keys;

  public SortPreservingMerge(PlanNode input, List<SortKey> keys) {
    super(requireNonNull(input, "input is null"), Partitioning.single(), checked(input, keys));
    this.keys = List.copyOf(keys);
  }

  private static List<SortKey> checked(PlanNode input, List<SortKey> keys) {
    Sort.checked(input, keys, "SortPreservingMerge");
    List<SortKey> ordering = input.ordering();
    PlanChecks.check(
        ordering.size() >= keys.size() && ordering.subList(0, keys.size()).equals(keys),
        "SortPreservingMerge[" + Sort.keys(keys) + "]",
        "each input partition must be sorted by the merge keys, but it is sorted by "
            + (ordering.isEmpty() ? "nothing" : Sort.keys(ordering))
            + "; sort each partition first");
    return keys;
  }

  public List<SortKey> keys() {
    return keys;
  }

  @Override
  public Distribution distribution() {
    return Distribution.merge(keys);
  }

  @Override
  public SortPreservingMerge withInput(PlanNode input) {
    return new SortPreservingMerge(input, keys);
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(keys);
  }

  @Override
  public <R> R accept(ExchangeVisitor<R> visitor) {
    return visitor.visitSortPreservingMerge(this);
  }

  /** {@code SortPreservingMerge[#1 DESC NULLS FIRST]}. */
  @Override
  public String toString() {
    return "SortPreservingMerge[" + Sort.keys(keys) + "]";
  }
}
