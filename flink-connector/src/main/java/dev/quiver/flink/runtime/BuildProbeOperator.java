package dev.quiver.flink.runtime;

import dev.quiver.flink.batch.BatchRecord;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.InputSelectable;
import org.apache.flink.streaming.api.operators.InputSelection;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A two-input operator that reads its whole build input (input 1) before its first probe record
 * (input 2), as a hash join needs. Flink reads only the selected input ({@link InputSelectable}),
 * so probe data waits in Flink's network buffers, not in this operator.
 *
 * <p>Subclasses receive data records only (end-of-partition markers are consumed here) and own each
 * record they are given.
 */
public abstract class BuildProbeOperator extends BatchOperator
    implements TwoInputStreamOperator<BatchRecord, BatchRecord, BatchRecord>,
        InputSelectable,
        BoundedMultiInput {
  private static final long serialVersionUID = 1L;

  private transient boolean buildFinished;

  @Override
  public final InputSelection nextSelection() {
    return buildFinished ? InputSelection.SECOND : InputSelection.FIRST;
  }

  @Override
  public final void processElement1(StreamRecord<BatchRecord> element) throws Exception {
    BatchRecord record = element.getValue();
    if (buildFinished) {
      record.close();
      throw new IllegalStateException(taskName() + ": build record after the build input ended");
    }
    if (record.isData()) {
      build(record);
    } else {
      record.close();
    }
  }

  @Override
  public final void processElement2(StreamRecord<BatchRecord> element) throws Exception {
    BatchRecord record = element.getValue();
    if (!buildFinished) {
      record.close();
      throw new IllegalStateException(taskName() + ": probe record before the build input ended");
    }
    if (record.isData()) {
      probe(record);
    } else {
      record.close();
    }
  }

  @Override
  public final void endInput(int inputId) throws Exception {
    if (inputId == 1) {
      buildFinished = true;
      buildFinished();
    } else {
      probeFinished();
    }
  }

  /** One batch of the build input; the subclass owns {@code record}. */
  protected abstract void build(BatchRecord record) throws Exception;

  /** The build input has ended; no probe record has been read yet. */
  protected abstract void buildFinished() throws Exception;

  /** One batch of the probe input; the subclass owns {@code record}. */
  protected abstract void probe(BatchRecord record) throws Exception;

  /** The probe input has ended. */
  protected abstract void probeFinished() throws Exception;
}
