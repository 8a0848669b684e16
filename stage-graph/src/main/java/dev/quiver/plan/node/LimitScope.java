package dev.quiver.plan.node;

/**
 * Whether a {@link Limit}, {@link TopK} or {@link Sort} applies to each partition or to the whole
 * input.
 *
 * <pre>
 *   LOCAL:  p0 ─► first n of p0     GLOBAL:  p0 ─┐
 *           p1 ─► first n of p1              p1 ─┴─► first n of all rows (one partition)
 * </pre>
 *
 * A GLOBAL one is only right over one partition; the {@code EnforceDistribution} pass makes its
 * input one partition before the plan is cut into stages.
 */
public enum LimitScope {
  /** Per partition: an optimization below a global limit. Takes no offset. */
  LOCAL,
  /** Over all rows of the input. */
  GLOBAL
}
