package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import java.io.Serializable;
import java.util.List;

/**
 * What an {@link Exchange} does with its input's rows: the one description of data movement that
 * every exchange carries and every pass reads (the stage cutter, the rewrites, the enforcement of
 * distributions).
 *
 * <pre>
 *   kind         exchange              output                         consumer reads
 *   HASH         Repartition           hash(keys, count)              channel p of every producer
 *   ROUND_ROBIN  Repartition           round-robin(count)             channel p of every producer
 *   RESCALE      Coalesce              count <= n partitions          a contiguous range of producers
 *   BROADCAST    Broadcast             every row, in every task       everything
 *   MERGE        SortPreservingMerge   one partition, sorted by keys  everything, merged in order
 * </pre>
 *
 * Code that acts on the kind uses a {@code switch} <em>expression</em> (no {@code default}), which
 * javac requires to cover every kind: a new kind that a pass forgets does not compile.
 *
 * @param kind how rows move
 * @param hashKeys the hash key columns (HASH only, otherwise empty)
 * @param count the number of output partitions (1 for BROADCAST and MERGE)
 * @param mergeKeys the keys every input partition is sorted by (MERGE only, otherwise empty)
 */
public record Distribution(Kind kind, List<Integer> hashKeys, int count, List<SortKey> mergeKeys)
    implements Serializable {

  /** The kinds of data movement; see the class comment. */
  public enum Kind {
    HASH,
    ROUND_ROBIN,
    RESCALE,
    BROADCAST,
    MERGE
  }

  public Distribution {
    requireNonNull(kind, "kind is null");
    hashKeys = List.copyOf(requireNonNull(hashKeys, "hashKeys is null"));
    mergeKeys = List.copyOf(requireNonNull(mergeKeys, "mergeKeys is null"));
    if (count < 1) {
      throw new IllegalArgumentException("partition count must be at least 1: " + count);
    }
    if (hashKeys.isEmpty() == (kind == Kind.HASH)) {
      throw new IllegalArgumentException("hash keys are for HASH only, and HASH needs some");
    }
    if (!mergeKeys.isEmpty() && kind != Kind.MERGE) {
      throw new IllegalArgumentException("merge keys are for MERGE only");
    }
  }

  /** Rows with equal {@code keys} go to the same one of {@code count} partitions. */
  public static Distribution hash(List<Integer> keys, int count) {
    return new Distribution(Kind.HASH, keys, count, List.of());
  }

  /** Rows spread evenly over {@code count} partitions. */
  public static Distribution roundRobin(int count) {
    return new Distribution(Kind.ROUND_ROBIN, List.of(), count, List.of());
  }

  /** Contiguous ranges of the input partitions concatenated into {@code count} (1: a gather). */
  public static Distribution rescale(int count) {
    return new Distribution(Kind.RESCALE, List.of(), count, List.of());
  }

  /** Every row to every consumer task. */
  public static Distribution broadcast() {
    return new Distribution(Kind.BROADCAST, List.of(), 1, List.of());
  }

  /** Sorted partitions merged into one, by {@code keys}. */
  public static Distribution merge(List<SortKey> keys) {
    return new Distribution(Kind.MERGE, List.of(), 1, keys);
  }

  /** Whether the output is one partition that one consumer task reads whole (a gather). */
  public boolean gathers() {
    return switch (kind) {
      case HASH, ROUND_ROBIN, RESCALE -> count == 1;
      case MERGE -> true;
      case BROADCAST -> false;
    };
  }

  /** {@code hash([#0], 4)}, {@code round-robin(4)}, {@code rescale(1)}, ... */
  @Override
  public String toString() {
    return switch (kind) {
      case HASH -> "hash(" + Partitioning.columns(hashKeys) + ", " + count + ")";
      case ROUND_ROBIN -> "round-robin(" + count + ")";
      case RESCALE -> "rescale(" + count + ")";
      case BROADCAST -> "broadcast";
      case MERGE -> "merge(" + Sort.keys(mergeKeys) + ")";
    };
  }
}
