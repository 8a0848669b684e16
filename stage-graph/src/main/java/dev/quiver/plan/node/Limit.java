package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;

/**
 * Skips {@code offset} rows and passes on the next {@code fetch} ({@link #ALL} for all), as the
 * limit operator takes it. LOCAL applies per partition and takes no offset; GLOBAL applies to the
 * whole input, which needs one partition (see {@link LimitScope}). Schema, partitioning and
 * ordering pass through.
 */
public final class Limit extends PlanNode {
  private static final long serialVersionUID = 1L;

  /** A fetch without limit (the limit operator's {@code ALL}). */
  public static final long ALL = Long.MAX_VALUE;

  private final long offset;
  private final long fetch;
  private final LimitScope scope;

  public Limit(PlanNode input, long offset, long fetch, LimitScope scope) {
    super(
        List.of(requireNonNull(input, "input is null")),
        input.schema(),
        input.partitioning(),
        input.ordering());
    checkWindow("Limit", fetch, offset, scope);
    this.offset = offset;
    this.fetch = fetch;
    this.scope = scope;
  }

  static void checkWindow(String node, long fetch, long offset, LimitScope scope) {
    requireNonNull(scope, "scope is null");
    PlanChecks.check(
        fetch >= 0 && offset >= 0,
        node,
        "offset and fetch must be >= 0, got offset=" + offset + ", fetch=" + fetch);
    PlanChecks.check(
        scope == LimitScope.GLOBAL || offset == 0,
        node,
        "a LOCAL limit takes no offset (skipping rows is only meaningful over all rows)");
  }

  static String fetchText(long fetch) {
    return fetch == ALL ? "ALL" : Long.toString(fetch);
  }

  /** {@code a + b}, or {@link #ALL} when it overflows. */
  public static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? ALL : sum;
  }

  public PlanNode input() {
    return child(0);
  }

  public long offset() {
    return offset;
  }

  public long fetch() {
    return fetch;
  }

  public LimitScope scope() {
    return scope;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(offset, fetch, scope);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitLimit(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Limit(children.get(0), offset, fetch, scope);
  }

  /** {@code Limit[GLOBAL, offset=10, fetch=5]}. */
  @Override
  public String toString() {
    return "Limit[" + scope + ", offset=" + offset + ", fetch=" + fetchText(fetch) + "]";
  }
}
