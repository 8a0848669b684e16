package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowCall;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes physical plans without SQL. Each call wraps the plan so far in one node, which validates
 * its input right there (column indices, types, key counts, partition counts) and fails with a
 * {@link dev.quiver.error.QuiverException} that says what to fix. Immutable: every call returns a
 * new builder.
 *
 * <pre>{@code
 * PlanBuilder orders = scan(ordersTable, 3);
 * AggregateCall total = orders.call(SUM, 2, "total");
 * PlanNode plan =
 *     orders
 *         .filter(call(GREATER_THAN, orders.col(2), decimal("100.00")))
 *         .aggregate(PARTIAL, keys(1), total)
 *         .repartition(hash(0), 4)
 *         .aggregate(FINAL, keys(1), total)
 *         .build();
 * }</pre>
 *
 * Joins are called on the probe side with the build side as argument ({@code probe.hashJoin(INNER,
 * build, ...)}), matching {@link JoinType}: left = probe, right = build. The builder never adds an
 * exchange on its own: a join only names its {@link JoinDistribution}, and the planner's first pass
 * ({@code dev.quiver.plan.distribute.EnforceDistribution}, run by {@code StagePlanner}) broadcasts
 * or gathers the build side and hash-repartitions the inputs of a PARTITIONED join. Exchanges
 * written here by hand are kept when they already give the join what it needs.
 */
public final class PlanBuilder {
  private final PlanNode node;

  private PlanBuilder(PlanNode node) {
    this.node = requireNonNull(node, "node is null");
  }

  public static PlanBuilder from(PlanNode node) {
    return new PlanBuilder(node);
  }

  public static PlanBuilder scan(TableSource source, int tasks) {
    return new PlanBuilder(new Scan(source, tasks));
  }

  public static PlanBuilder values(RowSchema schema, List<List<Object>> rows) {
    return new PlanBuilder(Values.of(schema, rows));
  }

  /** Column indices, e.g. {@code keys(0, 2)}. */
  public static List<Integer> keys(int... columns) {
    return Arrays.stream(columns).boxed().collect(Collectors.toUnmodifiableList());
  }

  /** Hash repartitioning on these columns, for {@link #repartition}. */
  public static Repartition.Scheme hash(int... columns) {
    return Repartition.Scheme.hash(keys(columns));
  }

  public static Repartition.Scheme roundRobin() {
    return Repartition.Scheme.roundRobin();
  }

  /** The plan so far. */
  public PlanNode build() {
    return node;
  }

  public RowSchema schema() {
    return node.schema();
  }

  public int partitions() {
    return node.partitions();
  }

  /** A reference to column {@code index} of the plan so far, with its type, nullability, name. */
  public ColumnRef col(int index) {
    PlanChecks.checkColumn(node.schema(), index, node.toString(), "the referenced column");
    Column column = node.schema().column(index);
    return new ColumnRef(index, column.type(), column.nullable(), column.name());
  }

  /** {@code function(#column) AS name} over column {@code index} of the plan so far. */
  public AggregateCall call(AggregateFunction function, int index, String name) {
    PlanChecks.checkColumn(node.schema(), index, node.toString(), "the argument of " + function);
    return AggregateCall.of(function, index, node.schema().column(index).type().arrow(), name);
  }

  public PlanBuilder filter(Expr predicate) {
    return new PlanBuilder(new Filter(node, predicate));
  }

  public PlanBuilder project(List<Expr> expressions, List<String> names) {
    return new PlanBuilder(new Project(node, expressions, names));
  }

  /** Keeps the given columns, in this order, under their names. */
  public PlanBuilder select(int... columns) {
    List<Expr> expressions = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int column : columns) {
      ColumnRef ref = col(column);
      expressions.add(ref);
      names.add(ref.name());
    }
    return project(expressions, names);
  }

  public PlanBuilder aggregate(
      AggregateMode mode, List<Integer> groupKeys, List<AggregateCall> calls) {
    return new PlanBuilder(new Aggregate(node, mode, groupKeys, calls));
  }

  public PlanBuilder aggregate(
      AggregateMode mode, List<Integer> groupKeys, AggregateCall... calls) {
    return aggregate(mode, groupKeys, List.of(calls));
  }

  /** An aggregate that seeds the empty groups of {@code globalSets} ({@link Aggregate}). */
  public PlanBuilder aggregate(
      AggregateMode mode,
      List<Integer> groupKeys,
      List<AggregateCall> calls,
      List<Long> globalSets) {
    return new PlanBuilder(new Aggregate(node, mode, groupKeys, calls, globalSets));
  }

  /**
   * Each row once per grouping set, the keys outside the set NULL, plus a grouping id column
   * ({@link Expand}).
   */
  public PlanBuilder expand(List<Integer> keys, List<List<Integer>> sets) {
    return new PlanBuilder(new Expand(node, keys, sets));
  }

  /** This plan (the probe side) joined with {@code build} on equal keys. */
  public PlanBuilder hashJoin(
      JoinType type,
      PlanBuilder build,
      List<Integer> buildKeys,
      List<Integer> probeKeys,
      JoinDistribution distribution) {
    return hashJoin(JoinKind.of(type), build, buildKeys, probeKeys, null, distribution);
  }

  /** This plan (the probe side) joined with {@code build}; {@code residual} may be null. */
  public PlanBuilder hashJoin(
      JoinKind kind,
      PlanBuilder build,
      List<Integer> buildKeys,
      List<Integer> probeKeys,
      Expr residual,
      JoinDistribution distribution) {
    return hashJoin(kind, build, buildKeys, probeKeys, residual, distribution, RuntimeFilter.NONE);
  }

  /**
   * This plan (the probe side) joined with {@code build}, with a part in a runtime filter: {@link
   * RuntimeFilter#FILTERED_PROBE} asks {@link dev.quiver.plan.distribute.RuntimeFilters} to filter
   * the probe rows by the build keys before they are shuffled.
   */
  public PlanBuilder hashJoin(
      JoinKind kind,
      PlanBuilder build,
      List<Integer> buildKeys,
      List<Integer> probeKeys,
      Expr residual,
      JoinDistribution distribution,
      RuntimeFilter runtimeFilter) {
    requireNonNull(build, "build is null");
    return new PlanBuilder(
        new HashJoin(
            build.node, node, kind, buildKeys, probeKeys, residual, distribution, runtimeFilter));
  }

  /**
   * This plan (the probe side) joined with every row of {@code build}; {@code condition} may be
   * null (a cross join). A build side of several partitions is broadcast by the planner.
   */
  public PlanBuilder nestedLoopJoin(JoinType type, PlanBuilder build, Expr condition) {
    requireNonNull(build, "build is null");
    return new PlanBuilder(new NestedLoopJoin(build.node, node, type, condition));
  }

  /** Sorts each partition. */
  public PlanBuilder sort(SortKey... keys) {
    return new PlanBuilder(new Sort(node, List.of(keys)));
  }

  /**
   * Sorts all rows into one order (SQL's ORDER BY): a GLOBAL {@link Sort}, which the planner's
   * first pass makes a sort per partition and a merge.
   */
  public PlanBuilder orderBy(SortKey... keys) {
    return new PlanBuilder(new Sort(node, List.of(keys), LimitScope.GLOBAL));
  }

  /**
   * Window functions over this plan. {@link Window} needs its input hash-partitioned on the
   * partition keys and each partition sorted by them and then by the order keys; the planner's
   * first pass adds the exchange and the sort where the plan does not have them.
   */
  public PlanBuilder window(
      List<Integer> partitionKeys, List<SortKey> orderKeys, WindowCall... calls) {
    return new PlanBuilder(new Window(node, partitionKeys, orderKeys, List.of(calls)));
  }

  /** The global top {@code fetch} rows after {@code offset} in key order. */
  public PlanBuilder topK(List<SortKey> keys, long fetch, long offset) {
    return new PlanBuilder(new TopK(node, keys, fetch, offset, LimitScope.GLOBAL));
  }

  /** The top {@code fetch} rows of each partition. */
  public PlanBuilder localTopK(List<SortKey> keys, long fetch) {
    return new PlanBuilder(new TopK(node, keys, fetch, 0, LimitScope.LOCAL));
  }

  /** The global LIMIT {@code fetch} OFFSET {@code offset} ({@link Limit#ALL} for no limit). */
  public PlanBuilder limit(long offset, long fetch) {
    return new PlanBuilder(new Limit(node, offset, fetch, LimitScope.GLOBAL));
  }

  /** The first {@code fetch} rows of each partition. */
  public PlanBuilder localLimit(long fetch) {
    return new PlanBuilder(new Limit(node, 0, fetch, LimitScope.LOCAL));
  }

  /** UNION ALL of this plan and {@code others}. */
  public PlanBuilder union(PlanBuilder... others) {
    List<PlanNode> inputs = new ArrayList<>();
    inputs.add(node);
    for (PlanBuilder other : others) {
      inputs.add(requireNonNull(other, "other is null").node);
    }
    return new PlanBuilder(new Union(inputs));
  }

  /** Every row {@code times} (a BIGINT column, then dropped) times; see {@link RepeatRows}. */
  public PlanBuilder repeatRows(int times) {
    return new PlanBuilder(new RepeatRows(node, times));
  }

  public PlanBuilder repartition(Repartition.Scheme scheme, int count) {
    return new PlanBuilder(new Repartition(node, scheme, count));
  }

  /** Reduces the partitions to {@code count} (1: gather). */
  public PlanBuilder coalesce(int count) {
    return new PlanBuilder(new Coalesce(node, count));
  }

  /** Merges the sorted partitions into one, by the current ordering. */
  public PlanBuilder merge() {
    PlanChecks.check(
        !node.ordering().isEmpty(),
        "SortPreservingMerge",
        "the input " + node + " is not sorted; sort each partition first");
    return new PlanBuilder(new SortPreservingMerge(node, node.ordering()));
  }

  /** Merges the sorted partitions into one, by {@code keys}. */
  public PlanBuilder merge(SortKey... keys) {
    return new PlanBuilder(new SortPreservingMerge(node, List.of(keys)));
  }

  @Override
  public String toString() {
    return node.toString();
  }
}
