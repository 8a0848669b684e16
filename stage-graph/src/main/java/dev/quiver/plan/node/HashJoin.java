package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.join.EventTimeJoin;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * An equi join, as the hash join operator takes it: the join kind, the key columns of each side
 * (equal counts, pairwise equal types), an optional residual condition and how the inputs are
 * distributed ({@link JoinDistribution}).
 *
 * <pre>
 *   build (child 0, input 0) = right ──┐
 *                                      ├─► HashJoin ─► JoinType.outputSchema(probe, build)
 *   probe (child 1, input 1) = left  ──┘
 * </pre>
 *
 * <p>The residual condition is a BOOLEAN expression over the joined row {@code [probe columns]
 * [build columns]} (build column {@code b} is {@code #(probeColumns + b)}), whatever the join type
 * emits. Null-aware kinds take one key and no residual; since they decide on facts about the whole
 * build side (is it empty, does it hold a NULL key), they cannot run PARTITIONED over more than one
 * partition: replicate the build side instead (COLLECT_LEFT or BROADCAST).
 *
 * <p>The node does not place exchanges, and it may be built over inputs that are not yet
 * distributed as its {@link JoinDistribution} needs (a single-node plan): the pass that enforces
 * distributions ({@code dev.quiver.plan.distribute.EnforceDistribution}) adds them, and the stage
 * cutter refuses a join whose inputs are still not distributed ({@link #checkInputsDistributed}).
 */
public final class HashJoin extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final JoinKind kind;
  private final List<Integer> buildKeys;
  private final List<Integer> probeKeys;
  private final Expr residual; // null for none
  private final JoinDistribution distribution;
  private final RuntimeFilter runtimeFilter;
  private final EventTimeJoin eventTime; // null: not a join of two streams

  public HashJoin(
      PlanNode build,
      PlanNode probe,
      JoinKind kind,
      List<Integer> buildKeys,
      List<Integer> probeKeys,
      Expr residual,
      JoinDistribution distribution) {
    this(build, probe, kind, buildKeys, probeKeys, residual, distribution, RuntimeFilter.NONE);
  }

  /** A join with a part in a runtime filter ({@link RuntimeFilter}). */
  public HashJoin(
      PlanNode build,
      PlanNode probe,
      JoinKind kind,
      List<Integer> buildKeys,
      List<Integer> probeKeys,
      Expr residual,
      JoinDistribution distribution,
      RuntimeFilter runtimeFilter) {
    this(build, probe, kind, buildKeys, probeKeys, residual, distribution, runtimeFilter, null);
  }

  private HashJoin(
      PlanNode build,
      PlanNode probe,
      JoinKind kind,
      List<Integer> buildKeys,
      List<Integer> probeKeys,
      Expr residual,
      JoinDistribution distribution,
      RuntimeFilter runtimeFilter,
      EventTimeJoin eventTime) {
    super(
        List.of(requireNonNull(build, "build is null"), requireNonNull(probe, "probe is null")),
        JoinSupport.outputSchema(requireNonNull(kind, "kind is null").type(), build, probe),
        partitioning(build, probe, kind, buildKeys, probeKeys, residual, distribution),
        List.of());
    this.kind = kind;
    this.buildKeys = List.copyOf(buildKeys);
    this.probeKeys = List.copyOf(probeKeys);
    this.residual = residual;
    this.distribution = distribution;
    this.runtimeFilter = requireNonNull(runtimeFilter, "runtimeFilter is null");
    runtimeFilter.check(kind, distribution, "HashJoin[" + kind + ", " + distribution + "]");
    this.eventTime = eventTime;
    if (eventTime != null) {
      String node = "HashJoin[" + kind + ", " + distribution + "]";
      PlanChecks.check(
          eventTime.buildColumn() < build.schema().size()
              && eventTime.probeColumn() < probe.schema().size(),
          node,
          "the event-time columns of " + eventTime + " are not columns of its inputs");
      if (eventTime.kind() == EventTimeJoin.Kind.WINDOW) {
        PlanChecks.check(
            IntStream.range(0, this.buildKeys.size())
                .anyMatch(
                    i ->
                        this.buildKeys.get(i) == eventTime.buildColumn()
                            && this.probeKeys.get(i) == eventTime.probeColumn()),
            node,
            "the window ends of "
                + eventTime
                + " are not a pair of join keys "
                + this.buildKeys
                + " = "
                + this.probeKeys);
      }
      PlanChecks.check(
          runtimeFilter == RuntimeFilter.NONE, node, "a join of two streams is no runtime filter");
    }
  }

  /**
   * This join as a join of two streams that bounds its state by event time ({@link EventTimeJoin}:
   * a window join or an interval join). Streaming plans join two streams only this way ({@code
   * dev.quiver.stage.UnboundedInputs}).
   */
  public HashJoin withEventTime(EventTimeJoin join) {
    return new HashJoin(
        build(),
        probe(),
        kind,
        buildKeys,
        probeKeys,
        residual,
        distribution,
        runtimeFilter,
        requireNonNull(join, "join is null"));
  }

  /** How this join of two streams bounds its state, if it is one ({@link #withEventTime}). */
  public Optional<EventTimeJoin> eventTime() {
    return Optional.ofNullable(eventTime);
  }

  private static Partitioning partitioning(
      PlanNode build,
      PlanNode probe,
      JoinKind kind,
      List<Integer> buildKeys,
      List<Integer> probeKeys,
      Expr residual,
      JoinDistribution distribution) {
    requireNonNull(buildKeys, "buildKeys is null");
    requireNonNull(probeKeys, "probeKeys is null");
    requireNonNull(distribution, "distribution is null");
    String node = "HashJoin[" + kind + ", " + distribution + "]";
    PlanChecks.check(!buildKeys.isEmpty(), node, "needs at least one key column per side");
    PlanChecks.check(
        buildKeys.size() == probeKeys.size(),
        node,
        buildKeys.size() + " build keys but " + probeKeys.size() + " probe keys");
    for (int i = 0; i < buildKeys.size(); i++) {
      PlanChecks.checkColumn(build.schema(), buildKeys.get(i), node, "build key " + i);
      PlanChecks.checkColumn(probe.schema(), probeKeys.get(i), node, "probe key " + i);
      Column b = build.schema().column(buildKeys.get(i));
      Column p = probe.schema().column(probeKeys.get(i));
      if (!b.type().equals(p.type())) {
        throw PlanChecks.mismatch(
            node
                + ": key "
                + i
                + " is "
                + b
                + " on the build side but "
                + p
                + " on the probe side;"
                + " cast one side so both hash alike");
      }
    }
    if (residual != null) {
      PlanChecks.checkBoolean(residual, node, "residual");
      PlanChecks.checkExpr(residual, probe.schema().concat(build.schema()), node, "residual");
    }
    if (kind.nullAware()) {
      PlanChecks.check(
          buildKeys.size() == 1 && residual == null,
          node,
          "a null-aware join takes exactly one key column and no residual");
    }
    int n = probe.partitions();
    return switch (distribution) {
      case PARTITIONED -> {
        PlanChecks.check(
            !kind.nullAware() || n == 1,
            node,
            "a null-aware join needs the whole build side in every task (is it empty? does it"
                + " hold a NULL key?): use COLLECT_LEFT or BROADCAST");
        yield coPartitioned(build, probe, buildKeys, probeKeys)
            ? partitionedOutput(kind.type(), build, probe, buildKeys)
            : Partitioning.unknown(n); // not distributed yet: the enforcing pass rebuilds it
      }
      case COLLECT_LEFT -> {
        PlanChecks.check(
            !Broadcast.is(build), node, "the build input is a Broadcast: use BROADCAST");
        yield JoinSupport.probeSidePartitioning(kind.type(), probe);
      }
      case BROADCAST -> JoinSupport.probeSidePartitioning(kind.type(), probe);
    };
  }

  /** Whether both inputs have n partitions and, for n > 1, are hash-partitioned on their keys. */
  private static boolean coPartitioned(
      PlanNode build, PlanNode probe, List<Integer> buildKeys, List<Integer> probeKeys) {
    int n = probe.partitions();
    return build.partitions() == n
        && (n == 1
            || build.partitioning().equals(Partitioning.hash(buildKeys, n))
                && probe.partitioning().equals(Partitioning.hash(probeKeys, n)));
  }

  /**
   * Whether the inputs are distributed as {@link #distribution()} needs; see {@link
   * #checkInputsDistributed}.
   */
  public boolean inputsDistributed() {
    return switch (distribution) {
      case PARTITIONED -> coPartitioned(build(), probe(), buildKeys, probeKeys);
      case COLLECT_LEFT -> build().partitions() == 1;
      case BROADCAST -> JoinSupport.isReplicated(build());
    };
  }

  /**
   * Fails unless the inputs are distributed as {@link #distribution()} needs. The stage cutter
   * calls this: a join over undistributed inputs would silently drop matches across tasks.
   */
  public void checkInputsDistributed() {
    String node = toString();
    PlanNode build = build();
    PlanNode probe = probe();
    int n = probe.partitions();
    switch (distribution) {
      case PARTITIONED -> {
        PlanChecks.check(
            build.partitions() == n,
            node,
            "the build input has " + build.partitions() + " partitions, the probe input " + n);
        PlanChecks.check(
            coPartitioned(build, probe, buildKeys, probeKeys),
            node,
            "the inputs must be co-partitioned on the join keys: build is "
                + build.partitioning()
                + " (needs "
                + Partitioning.hash(buildKeys, n)
                + "), probe is "
                + probe.partitioning()
                + " (needs "
                + Partitioning.hash(probeKeys, n)
                + "); hash-repartition both sides on their keys");
      }
      case COLLECT_LEFT ->
          PlanChecks.check(
              build.partitions() == 1,
              node,
              "the build input has "
                  + build.partitions()
                  + " partitions; COLLECT_LEFT needs one (gather it with a coalesce to 1), or use"
                  + " BROADCAST");
      case BROADCAST ->
          PlanChecks.check(
              JoinSupport.isReplicated(build),
              node,
              "the build input must be a Broadcast exchange (or a stage input read in BROADCAST)");
    }
  }

  /** Which output columns still carry the key values every row of a partition hashed to. */
  private static Partitioning partitionedOutput(
      JoinType type, PlanNode build, PlanNode probe, List<Integer> buildKeys) {
    int n = probe.partitions();
    if (n == 1) {
      return Partitioning.single();
    }
    if (type.emitsLeft() && !type.padsRight()) {
      return probe.partitioning(); // probe columns come first, never NULL-padded
    }
    if (type.emitsRight() && !type.padsLeft()) {
      int offset = type.emitsLeft() ? probe.schema().size() : 0; // RIGHT, RIGHT_SEMI/ANTI
      List<Integer> keys = new ArrayList<>();
      for (int key : buildKeys) {
        keys.add(key + offset);
      }
      return Partitioning.hash(keys, n);
    }
    return Partitioning.unknown(n); // FULL: both sides may be NULL-padded
  }

  public PlanNode build() {
    return child(0);
  }

  public PlanNode probe() {
    return child(1);
  }

  public JoinKind kind() {
    return kind;
  }

  public List<Integer> buildKeys() {
    return buildKeys;
  }

  public List<Integer> probeKeys() {
    return probeKeys;
  }

  /** The residual condition over {@code [probe columns][build columns]}, or null. */
  public Expr residual() {
    return residual;
  }

  public JoinDistribution distribution() {
    return distribution;
  }

  /** This join's part in a runtime filter. */
  public RuntimeFilter runtimeFilter() {
    return runtimeFilter;
  }

  /** The same join with another part in a runtime filter. */
  public HashJoin withRuntimeFilter(RuntimeFilter role) {
    return role == runtimeFilter
        ? this
        : new HashJoin(
            build(), probe(), kind, buildKeys, probeKeys, residual, distribution, role, eventTime);
  }

  /** The same join with other inputs and distribution (rewrites change these). */
  public HashJoin with(PlanNode newBuild, PlanNode newProbe, JoinDistribution newDistribution) {
    return new HashJoin(
        newBuild,
        newProbe,
        kind,
        buildKeys,
        probeKeys,
        residual,
        newDistribution,
        runtimeFilter,
        eventTime);
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(
        kind, buildKeys, probeKeys, residual, distribution, runtimeFilter, eventTime);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitHashJoin(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : with(children.get(0), children.get(1), distribution);
  }

  /** {@code HashJoin[INNER, PARTITIONED, build=[#0], probe=[#1], residual=(#2 < #5)]}. */
  @Override
  public String toString() {
    return "HashJoin["
        + kind
        + ", "
        + distribution
        + ", build="
        + Partitioning.columns(buildKeys)
        + ", probe="
        + Partitioning.columns(probeKeys)
        + (residual == null ? "" : ", residual=" + residual)
        + runtimeFilter.label()
        + (eventTime == null ? "" : ", " + eventTime)
        + "]";
  }
}
