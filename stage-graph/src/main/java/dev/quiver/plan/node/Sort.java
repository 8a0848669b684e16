package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Sorts each partition by the keys (stable). A total order over several partitions is a sort per
 * partition followed by a {@link SortPreservingMerge}.
 */
public final class Sort extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final List<SortKey> keys;

  public Sort(PlanNode input, List<SortKey> keys) {
    super(
        List.of(requireNonNull(input, "input is null")),
        input.schema(),
        input.partitioning(),
        checked(input, keys, "Sort"));
    this.keys = List.copyOf(keys);
  }

  static List<SortKey> checked(PlanNode input, List<SortKey> keys, String node) {
    requireNonNull(keys, "keys is null");
    PlanChecks.checkSortKeys(input.schema(), keys, node);
    return keys;
  }

  static String keys(List<SortKey> keys) {
    return keys.stream().map(SortKey::toString).collect(Collectors.joining(", "));
  }

  public PlanNode input() {
    return child(0);
  }

  public List<SortKey> keys() {
    return keys;
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitSort(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Sort(children.get(0), keys);
  }

  /** {@code Sort[#1 DESC NULLS FIRST, #0 ASC NULLS LAST]}. */
  @Override
  public String toString() {
    return "Sort[" + keys(keys) + "]";
  }
}
