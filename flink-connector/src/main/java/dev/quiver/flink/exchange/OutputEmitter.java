package dev.quiver.flink.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.operators.hash.HashPartitioner;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The sending end of a producer task: tags each output batch with the task's partition, splits it
 * into channels as the task's {@link OutputSplit} says, and after the last batch sends one
 * end-of-partition marker per channel (or one untargeted marker when the edge does not split).
 *
 * <pre>
 *  batch ──► split ──(p, ch0, rows)──► emit
 *                  └─(p, ch1, rows)──► emit
 *  finish ──► (p, ch0, END) (p, ch1, END)
 * </pre>
 */
public final class OutputEmitter {
  private final OutputSplit split;
  private final int partition;
  private final BufferAllocator allocator;
  private final Consumer<BatchRecord> emit;
  private final HashPartitioner partitioner;
  private int nextChannel;

  /**
   * @param emit receives each record and owns it
   */
  public OutputEmitter(
      OutputSplit split, int partition, BufferAllocator allocator, Consumer<BatchRecord> emit) {
    this.split = requireNonNull(split, "split is null");
    this.partition = partition;
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.emit = requireNonNull(emit, "emit is null");
    this.partitioner =
        split.kind() == OutputSplit.Kind.HASH
            ? new HashPartitioner(split.keys(), split.channels())
            : null;
    // Start each producer at a different channel so small outputs still spread.
    this.nextChannel = partition % split.channels();
  }

  /** Sends {@code batch} (taking ownership) to the channels it belongs to. */
  public void send(VectorSchemaRoot batch) {
    if (batch.getRowCount() == 0) {
      batch.close();
      return;
    }
    switch (split.kind()) {
      case HASH:
        try (batch) {
          partitioner.split(
              batch,
              allocator,
              (channel, part) -> emit.accept(BatchRecord.data(partition, channel, part)));
        }
        break;
      case ROUND_ROBIN:
        emit.accept(BatchRecord.data(partition, nextChannel, batch));
        nextChannel = (nextChannel + 1) % split.channels();
        break;
      default:
        emit.accept(BatchRecord.data(partition, batch));
    }
  }

  /** Sends the end-of-partition markers: no batch follows. */
  public void finish() {
    if (split.kind() == OutputSplit.Kind.NONE) {
      emit.accept(BatchRecord.endOfPartition(partition, BatchRecord.NO_CHANNEL));
      return;
    }
    for (int channel = 0; channel < split.channels(); channel++) {
      emit.accept(BatchRecord.endOfPartition(partition, channel));
    }
  }
}
