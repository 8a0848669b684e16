package dev.quiver.flink.compiler;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.exchange.ChannelPartitioner;
import dev.quiver.flink.exchange.MergeReceiveOperator;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.plan.node.StageInput;
import dev.quiver.stage.OutputDistribution;
import dev.quiver.stage.Stage;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The two ends of an edge between stages. The producer end is the producer task's {@link
 * OutputSplit}, chosen by the stage's {@link OutputDistribution}; the consumer end is the Flink
 * partitioning that gives each consumer task what its {@link StageInput} mode says.
 *
 * <pre>
 *  FORWARD    p0 ──► c0        p1 ──► c1                     forward()  (chained when possible)
 *  SHUFFLE    p0 ─┬ch0─► c0    producer splits each batch by  partitionCustom(channel)
 *                 └ch1─► c1    hash / round-robin into channels
 *  BROADCAST  p0 ──► c0, c1    every consumer reads everything  broadcast()
 *  RESCALE    p0, p1 ──► c0    a contiguous range of producers  rescale()
 *  MERGE      p0 ─(p0, sorted…, END)─┐  global() ─► merge task (1) ─forward()─► c0
 *             p1 ─(p1, sorted…, END)─┘  k-way merge by producer tag
 * </pre>
 */
final class StageEdges {
  private StageEdges() {}

  /** How each task of a stage with {@code distribution} splits its output. */
  static OutputSplit split(OutputDistribution distribution) {
    switch (distribution.kind()) {
      case HASH:
        return OutputSplit.hash(
            distribution.keys().stream().mapToInt(Integer::intValue).toArray(),
            distribution.channels());
      case ROUND_ROBIN:
        return OutputSplit.roundRobin(distribution.channels());
      default:
        return OutputSplit.none();
    }
  }

  /**
   * The stream a consumer task reads for {@code input}, from the output of {@code producer}'s
   * tasks; {@code consumer} names the merge task.
   */
  static DataStream<BatchRecord> read(
      DataStream<BatchRecord> output, Stage producer, StageInput input, Stage consumer) {
    switch (input.mode()) {
      case FORWARD:
        return output.forward();
      case SHUFFLE:
        // The channel was chosen by the producer's split; routing is a lookup.
        return output.partitionCustom(new ChannelPartitioner(), ChannelPartitioner.CHANNEL);
      case BROADCAST:
        return output.broadcast();
      case RESCALE:
        return output.rescale();
      case MERGE:
        BatchTypeInfo type = (BatchTypeInfo) output.getType();
        return output
            .global()
            .transform(
                "stage " + consumer.id() + ": merge " + input,
                type,
                new MergeReceiveOperator(type, producer.tasks(), input.ordering()))
            .setParallelism(1)
            .forward();
      default:
        throw new IllegalArgumentException("unknown input mode " + input.mode());
    }
  }
}
