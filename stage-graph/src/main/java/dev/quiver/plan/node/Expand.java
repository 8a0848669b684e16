package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * GROUPING SETS, ROLLUP and CUBE before the aggregate: every input row once per grouping set, the
 * group keys outside the set NULL, and a grouping id appended. An ordinary aggregate keyed on (all
 * group keys, grouping id) then computes every set in one pass, each set in groups of its own.
 *
 * <pre>
 *   input (a, b, v)   sets {a,b} {a} {}        output (a, b, v, gid)
 *   (1, 2, 10)        ───────────────────►     (1, 2, 10, 0)   {a,b}: gid 0b00
 *                                              (1, N, 10, 1)   {a}:   gid 0b01
 *                                              (N, N, 10, 3)   {}:    gid 0b11
 * </pre>
 *
 * <p>The grouping id follows SQL's {@code GROUPING_ID} convention over {@link #keys()}: bit {@code
 * k-1-i} (the first key is the most significant of {@code k} bits) is 1 when key {@code i} is not
 * in the set. So a NULL key of the input (bit 0) and a NULL made by the set (bit 1) stay apart.
 *
 * <p>Output schema: the input's columns, the keys nullable, then a non-null BIGINT grouping id.
 * Partitioning: rows are copied, never moved, so a hash partitioning survives only where its key
 * columns keep their values in every copy (columns that are no group key, or keys in every set); a
 * hash key that some set makes NULL leaves those copies in the wrong partition, and the output is
 * unknown. No ordering: the copies of a batch follow one another set by set.
 */
public final class Expand extends PlanNode {
  private static final long serialVersionUID = 1L;

  /** At most this many group keys: the grouping id has one bit per key in a signed BIGINT. */
  public static final int MAX_KEYS = 63;

  private final List<Integer> keys;
  private final List<List<Integer>> sets;

  /**
   * @param keys the group key columns, in grouping id bit order (first = most significant)
   * @param sets the grouping sets, each a subset of {@code keys}, in output order
   */
  public Expand(PlanNode input, List<Integer> keys, List<List<Integer>> sets) {
    super(
        List.of(requireNonNull(input, "input is null")),
        schema(input, keys, sets),
        input.partitioning().remap(unchanged(input, keys, sets)),
        List.of());
    this.keys = List.copyOf(keys);
    List<List<Integer>> copy = new ArrayList<>();
    for (List<Integer> set : sets) {
      copy.add(List.copyOf(set));
    }
    this.sets = List.copyOf(copy);
  }

  private static RowSchema schema(PlanNode input, List<Integer> keys, List<List<Integer>> sets) {
    requireNonNull(keys, "keys is null");
    requireNonNull(sets, "sets is null");
    RowSchema in = input.schema();
    PlanChecks.check(
        keys.size() <= MAX_KEYS,
        "Expand",
        keys.size() + " group keys, at most " + MAX_KEYS + " fit a grouping id");
    PlanChecks.check(!sets.isEmpty(), "Expand", "needs at least one grouping set");
    Set<Integer> seen = new HashSet<>();
    for (int key : keys) {
      PlanChecks.checkColumn(in, key, "Expand", "group key");
      PlanChecks.check(seen.add(key), "Expand", "group key #" + key + " appears twice");
    }
    for (List<Integer> set : sets) {
      requireNonNull(set, "set is null");
      PlanChecks.check(
          seen.containsAll(set) && new HashSet<>(set).size() == set.size(),
          "Expand",
          "grouping set " + set + " must be distinct columns of the keys " + keys);
    }
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < in.size(); i++) {
      columns.add(seen.contains(i) ? in.column(i).asNullable() : in.column(i));
    }
    columns.add(Column.notNull("grouping_id", SqlType.BIGINT));
    return new RowSchema(columns);
  }

  /** Every column keeps its index, except keys that some set makes NULL: -1. */
  private static int[] unchanged(PlanNode input, List<Integer> keys, List<List<Integer>> sets) {
    int[] newIndex = new int[input.schema().size()];
    Arrays.setAll(newIndex, i -> i);
    for (int key : keys) {
      for (List<Integer> set : sets) {
        if (!set.contains(key)) {
          newIndex[key] = -1;
        }
      }
    }
    return newIndex;
  }

  /** The grouping id of {@code set}: bit {@code k-1-i} set where key {@code i} is not in it. */
  public static long groupingId(List<Integer> keys, List<Integer> set) {
    long id = 0;
    for (int i = 0; i < keys.size(); i++) {
      if (!set.contains(keys.get(i))) {
        id |= 1L << (keys.size() - 1 - i);
      }
    }
    return id;
  }

  public PlanNode input() {
    return child(0);
  }

  /** The group key columns, in grouping id bit order. */
  public List<Integer> keys() {
    return keys;
  }

  /** The grouping sets, in output order. */
  public List<List<Integer>> sets() {
    return sets;
  }

  /** The grouping id of each set, in {@link #sets()} order. */
  public long[] groupingIds() {
    return sets.stream().mapToLong(set -> groupingId(keys, set)).toArray();
  }

  /** The index of the grouping id column: after the input's columns. */
  public int groupingIdColumn() {
    return input().schema().size();
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(keys, sets);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitExpand(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children) ? this : new Expand(children.get(0), keys, sets);
  }

  /** {@code Expand[keys=[#0, #1], sets=[{#0, #1}, {#0}, {}], gid=#3]}. */
  @Override
  public String toString() {
    return "Expand[keys="
        + Partitioning.columns(keys)
        + ", sets="
        + sets.stream()
            .map(s -> s.stream().map(c -> "#" + c).collect(Collectors.joining(", ", "{", "}")))
            .collect(Collectors.joining(", ", "[", "]"))
        + ", gid=#"
        + groupingIdColumn()
        + "]";
  }
}
