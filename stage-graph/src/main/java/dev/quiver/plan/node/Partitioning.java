package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How a node's output rows are spread over its partitions (one partition per task of the stage that
 * runs the node).
 *
 * <ul>
 *   <li>{@link Kind#HASH}: rows whose key columns are equal are in the same partition, the one the
 *       hash partitioner picks for those keys (so two inputs hashed on keys of equal types with the
 *       same count are co-partitioned);
 *   <li>{@link Kind#ROUND_ROBIN}: rows spread evenly, with no relation between rows and partitions;
 *   <li>{@link Kind#SINGLE}: one partition holds every row;
 *   <li>{@link Kind#UNKNOWN}: n partitions, no promise about which row is where.
 * </ul>
 *
 * Any partitioning of one partition is {@link #single()}: with one partition every promise holds.
 */
public final class Partitioning implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The kinds of partitioning; see the class comment. */
  public enum Kind {
    HASH,
    ROUND_ROBIN,
    SINGLE,
    UNKNOWN
  }

  private static final Partitioning SINGLE = new Partitioning(Kind.SINGLE, List.of(), 1);

  private final Kind kind;
  private final List<Integer> keys;
  private final int count;

  private Partitioning(Kind kind, List<Integer> keys, int count) {
    this.kind = kind;
    this.keys = keys;
    this.count = count;
  }

  /** Hash partitioning on {@code keys} (column indices, in hash order) into {@code count}. */
  public static Partitioning hash(List<Integer> keys, int count) {
    requireNonNull(keys, "keys is null");
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("hash partitioning needs at least one key column");
    }
    for (int key : keys) {
      if (key < 0) {
        throw new IllegalArgumentException("key column is negative: " + key);
      }
    }
    return count == 1 ? SINGLE : new Partitioning(Kind.HASH, List.copyOf(keys), checked(count));
  }

  public static Partitioning roundRobin(int count) {
    return count == 1 ? SINGLE : new Partitioning(Kind.ROUND_ROBIN, List.of(), checked(count));
  }

  public static Partitioning single() {
    return SINGLE;
  }

  public static Partitioning unknown(int count) {
    return count == 1 ? SINGLE : new Partitioning(Kind.UNKNOWN, List.of(), checked(count));
  }

  private static int checked(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("partition count must be at least 1: " + count);
    }
    return count;
  }

  public Kind kind() {
    return kind;
  }

  /** The hash key columns; empty unless {@link Kind#HASH}. */
  public List<Integer> keys() {
    return keys;
  }

  /** The number of partitions. */
  public int count() {
    return count;
  }

  public boolean isHash() {
    return kind == Kind.HASH;
  }

  /**
   * Whether every row of each group of equal values in {@code columns} lies in one partition: true
   * for one partition, and for hash partitioning on a subset of {@code columns}.
   */
  public boolean groups(List<Integer> columns) {
    return count == 1 || kind == Kind.HASH && columns.containsAll(keys);
  }

  /**
   * This partitioning after the columns are renumbered: {@code newIndex[c]} is the new index of
   * column {@code c}, or -1 where it is gone. Hash partitioning that loses a key column becomes
   * {@link #unknown}; round-robin becomes unknown too, since the rows are no longer the ones that
   * were spread.
   */
  public Partitioning remap(int[] newIndex) {
    if (kind == Kind.SINGLE || kind == Kind.UNKNOWN) {
      return this;
    }
    if (kind == Kind.ROUND_ROBIN) {
      return unknown(count);
    }
    Integer[] mapped = new Integer[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      int key = keys.get(i);
      int to = key < newIndex.length ? newIndex[key] : -1;
      if (to < 0) {
        return unknown(count);
      }
      mapped[i] = to;
    }
    return hash(List.of(mapped), count);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Partitioning)) {
      return false;
    }
    Partitioning that = (Partitioning) other;
    return kind == that.kind && count == that.count && keys.equals(that.keys);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, keys, count);
  }

  /** {@code hash([#0, #2], 4)}, {@code round-robin(4)}, {@code single} or {@code unknown(4)}. */
  @Override
  public String toString() {
    return switch (kind) {
      case HASH -> "hash(" + columns(keys) + ", " + count + ")";
      case ROUND_ROBIN -> "round-robin(" + count + ")";
      case SINGLE -> "single";
      case UNKNOWN -> "unknown(" + count + ")";
    };
  }

  /** Column indices as EXPLAIN prints them: {@code [#0, #2]}. */
  static String columns(List<Integer> columns) {
    return columns.stream().map(c -> "#" + c).collect(Collectors.joining(", ", "[", "]"));
  }
}
