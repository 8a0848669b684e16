package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Sorts by the keys (stable). {@link LimitScope#LOCAL}: each partition. {@link LimitScope#GLOBAL}
 * (SQL's ORDER BY): the whole input in one order, which the planner's {@code EnforceDistribution}
 * pass turns into a LOCAL sort per partition followed by a {@link SortPreservingMerge} (or a LOCAL
 * sort of the one partition there is); the stage cutter refuses a GLOBAL sort of several
 * partitions.
 */
public final class Sort extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final List<SortKey> keys;
  private final LimitScope scope;

  /** A LOCAL sort: each partition by itself. */
  public Sort(PlanNode input, List<SortKey> keys) {
    this(input, keys, LimitScope.LOCAL);
  }

  public Sort(PlanNode input, List<SortKey> keys, LimitScope scope) {
    super(
        List.of(requireNonNull(input, "input is null")),
        input.schema(),
        input.partitioning(),
        checked(input, keys, "Sort"));
    this.keys = List.copyOf(keys);
    this.scope = requireNonNull(scope, "scope is null");
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

  public LimitScope scope() {
    return scope;
  }

  /** Fails for a GLOBAL sort of several partitions; the stage cutter calls this. */
  public void checkInputsDistributed() {
    PlanChecks.check(
        scope == LimitScope.LOCAL || input().partitions() == 1,
        toString(),
        "a GLOBAL sort needs one input partition, got "
            + input().partitions()
            + " (the EnforceDistribution pass sorts each and merges them)");
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(keys, scope);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitSort(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Sort(children.get(0), keys, scope);
  }

  /** {@code Sort[#1 DESC NULLS FIRST, #0 ASC NULLS LAST]}, {@code Sort[GLOBAL, #0 ASC ...]}. */
  @Override
  public String toString() {
    return "Sort[" + (scope == LimitScope.GLOBAL ? "GLOBAL, " : "") + keys(keys) + "]";
  }
}
