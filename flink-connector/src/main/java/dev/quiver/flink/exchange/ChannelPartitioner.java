package dev.quiver.flink.exchange;

import dev.quiver.flink.batch.BatchRecord;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * Routes a record to the consumer its producer chose: the channel was computed when the producer
 * split the batch (see {@link OutputSplit}), so routing is a lookup, never a second hash.
 */
public final class ChannelPartitioner implements Partitioner<Integer> {
  private static final long serialVersionUID = 1L;

  /** The key Flink hands to {@link #partition}: the record's channel. */
  public static final KeySelector<BatchRecord, Integer> CHANNEL = new ChannelKey();

  @Override
  public int partition(Integer channel, int consumers) {
    if (channel < 0 || channel >= consumers) {
      throw new IllegalStateException(
          "record for channel " + channel + " on an edge with " + consumers + " consumers");
    }
    return channel;
  }

  /**
   * All channel partitioners are equal: Flink then gives the SHUFFLE readers of a shared stage that
   * run the same number of tasks one result partition instead of one each.
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof ChannelPartitioner;
  }

  @Override
  public int hashCode() {
    return ChannelPartitioner.class.hashCode();
  }

  private static final class ChannelKey implements KeySelector<BatchRecord, Integer> {
    private static final long serialVersionUID = 1L;

    @Override
    public Integer getKey(BatchRecord record) {
      return record.channel();
    }
  }
}
