package dev.quiver.flink.exchange;

import java.io.Serializable;
import java.util.Arrays;

/**
 * How a producer task divides its output among consumer channels before it leaves the task.
 *
 * <ul>
 *   <li>{@link #none()}: batches keep no channel; the edge forwards, rescales, broadcasts or merges
 *       whole batches.
 *   <li>{@link #hash(int[], int)}: each batch is split by the hash of its key columns into {@code
 *       channels} batches, so every row with the same key reaches the same consumer.
 *   <li>{@link #roundRobin(int)}: whole batches go to channels in turn.
 * </ul>
 */
public final class OutputSplit implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The kinds of split. */
  public enum Kind {
    NONE,
    HASH,
    ROUND_ROBIN
  }

  private final Kind kind;
  private final int[] keys;
  private final int channels;

  private OutputSplit(Kind kind, int[] keys, int channels) {
    if (kind != Kind.NONE && channels <= 0) {
      throw new IllegalArgumentException("channels must be positive: " + channels);
    }
    if (kind == Kind.HASH && keys.length == 0) {
      throw new IllegalArgumentException("a hash split needs at least one key column");
    }
    this.kind = kind;
    this.keys = keys.clone();
    this.channels = channels;
  }

  public static OutputSplit none() {
    return new OutputSplit(Kind.NONE, new int[0], 1);
  }

  public static OutputSplit hash(int[] keys, int channels) {
    return new OutputSplit(Kind.HASH, keys, channels);
  }

  public static OutputSplit roundRobin(int channels) {
    return new OutputSplit(Kind.ROUND_ROBIN, new int[0], channels);
  }

  public Kind kind() {
    return kind;
  }

  public int[] keys() {
    return keys.clone();
  }

  /** Number of consumer channels; 1 for {@link Kind#NONE}. */
  public int channels() {
    return channels;
  }

  @Override
  public String toString() {
    switch (kind) {
      case HASH:
        return "Hash(" + Arrays.toString(keys) + ", " + channels + ")";
      case ROUND_ROBIN:
        return "RoundRobin(" + channels + ")";
      default:
        return "None";
    }
  }
}
