package dev.quiver.plan.node;

import dev.quiver.plan.join.JoinType;

/** What the two join nodes share: output schemas, partitioning, replicated build sides. */
final class JoinSupport {
  private JoinSupport() {}

  /** The join's output columns, by {@link JoinType#outputSchema} (left = probe, right = build). */
  static RowSchema outputSchema(JoinType type, PlanNode build, PlanNode probe) {
    return RowSchema.fromArrow(type.outputSchema(probe.arrowSchema(), build.arrowSchema()));
  }

  /**
   * The output partitioning of a join whose every task sees all build rows and its own probe
   * partition: the probe's, when the probe columns come first and are never NULL-padded; otherwise
   * nothing is known beyond the count.
   */
  static Partitioning probeSidePartitioning(JoinType type, PlanNode probe) {
    Partitioning in = probe.partitioning();
    return type.emitsLeft() && !type.padsRight() ? in : Partitioning.unknown(in.count());
  }

  /**
   * Whether every task of a join over {@code build} sees all of it: a {@link Broadcast} exchange,
   * filters and projections over a replicated {@link Scan}, or, once the plan is cut into stages, a
   * stage input read in BROADCAST mode.
   */
  static boolean isReplicated(PlanNode build) {
    StageInput input = StageInput.as(build);
    return Broadcast.is(build)
        || (input != null && input.mode() == InputMode.BROADCAST)
        || Scan.replicatedPipeline(build);
  }
}
