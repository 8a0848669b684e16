package dev.quiver.flink.stage;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A stage task with two inputs in a STREAMING job: Flink hands over both inputs as they come (it
 * refuses checkpoints for operators that select their inputs, as {@link TwoInputStageOperator}
 * does), so the task keeps the pipeline's input order itself: a join's probe batches wait until its
 * build side has ended, and the build side is part of the task's checkpoint ({@link
 * OrderedInputs}).
 */
public final class StreamingTwoInputStageOperator extends StageOperator
    implements TwoInputStreamOperator<BatchRecord, BatchRecord, BatchRecord>, BoundedMultiInput {
  private static final long serialVersionUID = 1L;

  public StreamingTwoInputStageOperator(StageTaskFactory factory, OutputSplit split) {
    super(factory, split);
  }

  @Override
  protected boolean keepsInputOrder() {
    return true;
  }

  @Override
  public void open() throws Exception {
    super.open();
    if (pipeline().inputCount() != 2) {
      throw new IllegalStateException(
          "a two-input stage task got a pipeline with " + pipeline().inputCount() + " inputs");
    }
  }

  @Override
  public void processElement1(StreamRecord<BatchRecord> element) {
    receive(0, element.getValue());
  }

  @Override
  public void processElement2(StreamRecord<BatchRecord> element) {
    receive(1, element.getValue());
  }

  @Override
  public void endInput(int inputId) {
    inputEnded(inputId - 1);
  }
}
