package dev.quiver.flink.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.hash.HashPartitioner;
import dev.quiver.operators.memory.BatchTransfer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The producer side of an exchange: tags every batch with this task's partition, splits it into
 * channels as its {@link OutputSplit} says, and after the last batch sends one end-of-partition
 * marker per channel, so consumers can tell when each producer is done.
 *
 * <pre>
 *  task p ──batch──► split ──(p, ch0, rows)──► partitionCustom ──► consumer 0
 *                          └─(p, ch1, rows)──►                 └─► consumer 1
 *  end of input ──► (p, ch0, END) (p, ch1, END)
 * </pre>
 *
 * Markers arriving from upstream belong to the upstream edge and are dropped here.
 */
public final class ExchangeSendOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final OutputSplit split;
  private transient HashPartitioner partitioner;
  private transient int nextChannel;

  public ExchangeSendOperator(OutputSplit split) {
    this.split = requireNonNull(split, "split is null");
  }

  @Override
  public void open() throws Exception {
    super.open();
    if (split.kind() == OutputSplit.Kind.HASH) {
      partitioner = new HashPartitioner(split.keys(), split.channels());
    }
    // Start each producer at a different channel so small inputs still spread.
    nextChannel = partition() % split.channels();
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (!record.isData() || record.rowCount() == 0) {
        return;
      }
      switch (split.kind()) {
        case HASH:
          partitioner.split(
              record.batch(),
              allocator(),
              (channel, batch) -> emit(BatchRecord.data(partition(), channel, batch)));
          break;
        case ROUND_ROBIN:
          emit(BatchRecord.data(partition(), nextChannel, takeBatch(record)));
          nextChannel = (nextChannel + 1) % split.channels();
          break;
        default:
          emit(BatchRecord.data(partition(), takeBatch(record)));
      }
    }
  }

  /** The record's batch moved into a new root, so closing the record does not free it. */
  private VectorSchemaRoot takeBatch(BatchRecord record) {
    return BatchTransfer.move(record.batch(), allocator());
  }

  @Override
  public void endInput() {
    if (split.kind() == OutputSplit.Kind.NONE) {
      emit(BatchRecord.endOfPartition(partition(), BatchRecord.NO_CHANNEL));
      return;
    }
    for (int channel = 0; channel < split.channels(); channel++) {
      emit(BatchRecord.endOfPartition(partition(), channel));
    }
  }
}
