package dev.quiver.flink.exchange;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.plan.sort.SortKey;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Wires the producer side of each input mode onto a stream of batches. The returned stream is what
 * the consumer transforms; the consumer sets its own parallelism (for {@link #shuffle} and {@link
 * #roundRobin} it must equal {@code consumers}).
 *
 * <pre>
 * mode        producer task p sends                 Flink edge
 * forward     (p, batch)…, (p, END)                 forward()
 * rescale     (p, batch)…, (p, END)                 rescale()
 * broadcast   (p, batch)…, (p, END)                 broadcast()
 * shuffle     (p, ch, rows of ch)…, (p, ch, END)∀ch partitionCustom(channel)
 * round robin (p, ch, batch)…, (p, ch, END)∀ch      partitionCustom(channel)
 * merge       (p, sorted batch)…, (p, END)          global() → one merging task
 * </pre>
 */
public final class Exchanges {
  private Exchanges() {}

  static DataStream<BatchRecord> send(DataStream<BatchRecord> producer, OutputSplit split) {
    return producer
        .transform("send " + split, producer.getType(), new ExchangeSendOperator(split))
        .setParallelism(producer.getParallelism());
  }

  public static DataStream<BatchRecord> forward(DataStream<BatchRecord> producer) {
    return send(producer, OutputSplit.none()).forward();
  }

  public static DataStream<BatchRecord> rescale(DataStream<BatchRecord> producer) {
    return send(producer, OutputSplit.none()).rescale();
  }

  public static DataStream<BatchRecord> broadcast(DataStream<BatchRecord> producer) {
    return send(producer, OutputSplit.none()).broadcast();
  }

  /**
   * Merges the sorted outputs of every producer task into one sorted stream in one task. Each
   * producer's stream must be sorted by {@code keys}.
   */
  public static DataStream<BatchRecord> merge(
      DataStream<BatchRecord> producer, List<SortKey> keys) {
    BatchTypeInfo type = (BatchTypeInfo) producer.getType();
    return send(producer, OutputSplit.none())
        .global()
        .transform(
            "merge " + keys, type, new MergeReceiveOperator(type, producer.getParallelism(), keys))
        .setParallelism(1);
  }

  /** Rows with equal values in {@code keys} reach the same one of {@code consumers} tasks. */
  public static DataStream<BatchRecord> shuffle(
      DataStream<BatchRecord> producer, int[] keys, int consumers) {
    return send(producer, OutputSplit.hash(keys, consumers))
        .partitionCustom(new ChannelPartitioner(), ChannelPartitioner.CHANNEL);
  }

  /** Whole batches are dealt to {@code consumers} tasks in turn. */
  public static DataStream<BatchRecord> roundRobin(
      DataStream<BatchRecord> producer, int consumers) {
    return send(producer, OutputSplit.roundRobin(consumers))
        .partitionCustom(new ChannelPartitioner(), ChannelPartitioner.CHANNEL);
  }
}
