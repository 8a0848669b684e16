package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import java.util.Arrays;
import java.util.List;

/**
 * The first {@code fetch} rows after skipping {@code offset} rows in key order (ORDER BY … LIMIT
 * fetch OFFSET offset) without sorting everything, as the top-k operator takes it. LOCAL applies
 * per partition (no offset); GLOBAL over the whole input, which needs one partition (see {@link
 * LimitScope}). The output is sorted by the keys; the partitioning passes through.
 */
public final class TopK extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final List<SortKey> keys;
  private final long fetch;
  private final long offset;
  private final LimitScope scope;

  public TopK(PlanNode input, List<SortKey> keys, long fetch, long offset, LimitScope scope) {
    super(
        List.of(requireNonNull(input, "input is null")),
        input.schema(),
        input.partitioning(),
        Sort.checked(input, keys, "TopK"));
    Limit.checkWindow("TopK", fetch, offset, scope);
    this.keys = List.copyOf(keys);
    this.fetch = fetch;
    this.offset = offset;
    this.scope = scope;
  }

  public PlanNode input() {
    return child(0);
  }

  public List<SortKey> keys() {
    return keys;
  }

  public long fetch() {
    return fetch;
  }

  public long offset() {
    return offset;
  }

  public LimitScope scope() {
    return scope;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(keys, fetch, offset, scope);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitTopK(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new TopK(children.get(0), keys, fetch, offset, scope);
  }

  /** {@code TopK[GLOBAL, #1 DESC NULLS FIRST, offset=0, fetch=10]}. */
  @Override
  public String toString() {
    return "TopK["
        + scope
        + ", "
        + Sort.keys(keys)
        + ", offset="
        + offset
        + ", fetch="
        + Limit.fetchText(fetch)
        + "]";
  }
}
