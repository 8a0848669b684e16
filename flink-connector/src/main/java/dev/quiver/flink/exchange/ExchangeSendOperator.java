package dev.quiver.flink.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.memory.BatchTransfer;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A standalone producer side of an exchange, for streams whose producer does not send by itself
 * (stage operators use an {@link OutputEmitter} directly): re-tags every batch with this task's
 * partition, splits it as its {@link OutputSplit} says, and ends with the markers.
 *
 * <p>Markers arriving from upstream belong to the upstream edge and are dropped here.
 */
public final class ExchangeSendOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final OutputSplit split;
  private transient OutputEmitter emitter;

  public ExchangeSendOperator(OutputSplit split) {
    this.split = requireNonNull(split, "split is null");
  }

  @Override
  public void open() throws Exception {
    super.open();
    emitter = new OutputEmitter(split, partition(), allocator(), this::emit);
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (record.isData()) {
        // Moved out of the record, so closing the record does not free what is sent on.
        emitter.send(BatchTransfer.move(record.batch(), allocator()));
      }
    }
  }

  @Override
  public void endInput() {
    emitter.finish();
  }
}
