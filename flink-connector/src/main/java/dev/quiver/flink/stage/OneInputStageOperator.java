package dev.quiver.flink.stage;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/** A stage task with one input. */
public final class OneInputStageOperator extends StageOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  public OneInputStageOperator(StageTaskFactory factory, OutputSplit split) {
    super(factory, split);
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
