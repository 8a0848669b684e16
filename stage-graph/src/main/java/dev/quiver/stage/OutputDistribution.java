package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How each task of a stage splits its output into channels for its consumer.
 *
 * <ul>
 *   <li>{@link Kind#HASH}: row goes to channel {@code channelOf(hash(keys), channels)} (the hash
 *       partitioner), so consumer task p, reading channel p of every producer, gets every row of
 *       its keys (SHUFFLE);
 *   <li>{@link Kind#ROUND_ROBIN}: batches go to the channels in turn (SHUFFLE);
 *   <li>{@link Kind#NONE}: one channel, the task's whole output (FORWARD, BROADCAST, MERGE, RESCALE
 *       inputs, and the final stage).
 * </ul>
 */
public final class OutputDistribution implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The kinds of distribution; see the class comment. */
  public enum Kind {
    HASH,
    ROUND_ROBIN,
    NONE
  }

  private static final OutputDistribution NONE = new OutputDistribution(Kind.NONE, List.of(), 1);

  private final Kind kind;
  private final List<Integer> keys;
  private final int channels;

  private OutputDistribution(Kind kind, List<Integer> keys, int channels) {
    this.kind = kind;
    this.keys = keys;
    this.channels = channels;
  }

  /** Channels by the hash of {@code keys} (column indices of the stage's output). */
  public static OutputDistribution hash(List<Integer> keys, int channels) {
    requireNonNull(keys, "keys is null");
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("hash distribution needs at least one key column");
    }
    return new OutputDistribution(Kind.HASH, List.copyOf(keys), checked(channels));
  }

  public static OutputDistribution roundRobin(int channels) {
    return new OutputDistribution(Kind.ROUND_ROBIN, List.of(), checked(channels));
  }

  /** One channel holding the task's whole output. */
  public static OutputDistribution none() {
    return NONE;
  }

  private static int checked(int channels) {
    if (channels < 1) {
      throw new IllegalArgumentException("channels must be at least 1: " + channels);
    }
    return channels;
  }

  public Kind kind() {
    return kind;
  }

  /** The hash key columns; empty unless {@link Kind#HASH}. */
  public List<Integer> keys() {
    return keys;
  }

  /** The number of channels each task writes (1 for {@link Kind#NONE}). */
  public int channels() {
    return channels;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof OutputDistribution)) {
      return false;
    }
    OutputDistribution that = (OutputDistribution) other;
    return kind == that.kind && channels == that.channels && keys.equals(that.keys);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, keys, channels);
  }

  /** {@code hash([#0], 4)}, {@code round-robin(4)} or {@code none}. */
  @Override
  public String toString() {
    switch (kind) {
      case HASH:
        return "hash("
            + keys.stream().map(k -> "#" + k).collect(Collectors.joining(", ", "[", "]"))
            + ", "
            + channels
            + ")";
      case ROUND_ROBIN:
        return "round-robin(" + channels + ")";
      default:
        return "none";
    }
  }
}
