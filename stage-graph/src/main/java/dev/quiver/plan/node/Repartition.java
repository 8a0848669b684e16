package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * Exchange: spreads the input's rows over {@code count} partitions, by the hash of key columns or
 * round-robin. The stage planner cuts here: the producer stage splits each batch into {@code count}
 * channels, and consumer task p reads channel p of every producer task (SHUFFLE).
 *
 * <pre>
 *   p0 ─┬─ch0──► c0
 *       └─ch1──► c1     hash(keys) % count picks the channel, on the producer
 *   p1 ─┬─ch0──► c0
 *       └─ch1──► c1
 * </pre>
 *
 * The output is not ordered.
 */
public final class Repartition extends Exchange {
  private static final long serialVersionUID = 1L;

  /**
   * How rows are spread: by the hash of {@link #keys} (column indices, in hash order), or
   * round-robin when there are none.
   */
  public record Scheme(List<Integer> keys) implements Serializable {
    public Scheme {
      keys = List.copyOf(requireNonNull(keys, "keys is null"));
    }

    public static Scheme hash(List<Integer> keys) {
      if (keys.isEmpty()) {
        throw new IllegalArgumentException("hash repartitioning needs at least one key column");
      }
      return new Scheme(keys);
    }

    public static Scheme roundRobin() {
      return new Scheme(List.of());
    }

    public boolean isHash() {
      return !keys.isEmpty();
    }

    /** {@code hash([#0])} or {@code round-robin}. */
    @Override
    public String toString() {
      return isHash() ? "hash(" + Partitioning.columns(keys) + ")" : "round-robin";
    }
  }

  private final Scheme scheme;
  private final int count;

  public Repartition(PlanNode input, Scheme scheme, int count) {
    super(
        requireNonNull(input, "input is null"),
        partitioning(input, requireNonNull(scheme, "scheme is null"), count),
        List.of());
    this.scheme = scheme;
    this.count = count;
  }

  private static Partitioning partitioning(PlanNode input, Scheme scheme, int count) {
    String node = "Repartition[" + scheme + ", " + count + "]";
    PlanChecks.check(count >= 1, node, "needs at least one partition, got " + count);
    for (int key : scheme.keys()) {
      PlanChecks.checkColumn(input.schema(), key, node, "hash key");
    }
    return scheme.isHash()
        ? Partitioning.hash(scheme.keys(), count)
        : Partitioning.roundRobin(count);
  }

  public Scheme scheme() {
    return scheme;
  }

  /** The number of output partitions (channels of each producer task). */
  public int count() {
    return count;
  }

  @Override
  public Distribution distribution() {
    return scheme.isHash()
        ? Distribution.hash(scheme.keys(), count)
        : Distribution.roundRobin(count);
  }

  @Override
  public Repartition withInput(PlanNode input) {
    return new Repartition(input, scheme, count);
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(scheme, count);
  }

  @Override
  public <R> R accept(ExchangeVisitor<R> visitor) {
    return visitor.visitRepartition(this);
  }

  /** {@code Repartition[hash([#0]), 4]} or {@code Repartition[round-robin, 4]}. */
  @Override
  public String toString() {
    return "Repartition[" + scheme + ", " + count + "]";
  }
}
