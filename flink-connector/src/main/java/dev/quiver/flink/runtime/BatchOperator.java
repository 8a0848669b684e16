package dev.quiver.flink.runtime;

import dev.quiver.flink.batch.BatchRecord;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Base of every Flink operator that emits Arrow batches (memory: see {@link ArrowOperator}).
 *
 * <p>Ownership: a received record belongs to the operator, which must {@link BatchRecord#close()}
 * it (or transfer its buffers) before {@code processElement} returns. {@link #emit} closes what it
 * emitted once Flink has passed it on (a chained consumer has taken what it keeps, a network edge
 * has serialized it).
 */
public abstract class BatchOperator extends ArrowOperator<BatchRecord> {
  private static final long serialVersionUID = 1L;

  private transient StreamRecord<BatchRecord> reuse;

  @Override
  public void open() throws Exception {
    super.open();
    reuse = new StreamRecord<>(null);
  }

  /** Sends {@code record} downstream and releases it. */
  protected final void emit(BatchRecord record) {
    try {
      output.collect(reuse.replace(record));
    } finally {
      record.close();
    }
  }
}
