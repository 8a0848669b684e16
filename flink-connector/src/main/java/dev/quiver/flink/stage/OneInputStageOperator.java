package dev.quiver.flink.stage;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A stage task with one input. In a STREAMING job ({@code streaming}) the task checkpoints what a
 * bounded input brought whose rows it keeps, as the tasks of several inputs do ({@link
 * OrderedInputs}): an aggregate of a table that a stream is joined with has read part of the table
 * at a checkpoint, the table's source resumes after those rows, and a restored task that did not
 * replay them would aggregate the rest only.
 */
public final class OneInputStageOperator extends StageOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final boolean streaming;

  /** A task of a BATCH job. */
  public OneInputStageOperator(StageTaskFactory factory, OutputSplit split) {
    this(factory, split, false);
  }

  /** A task of a BATCH or ({@code streaming}) a STREAMING job. */
  public OneInputStageOperator(StageTaskFactory factory, OutputSplit split, boolean streaming) {
    super(factory, split);
    this.streaming = streaming;
  }

  @Override
  protected boolean keepsInputOrder() {
    return streaming;
  }

  @Override
  public void open() throws Exception {
    super.open();
    if (pipeline().inputCount() != 1) {
      throw new IllegalStateException(
          "a one-input stage task got a pipeline with " + pipeline().inputCount() + " inputs");
    }
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    receive(0, element.getValue());
  }

  @Override
  public void endInput() {
    inputEnded(0);
  }
}
