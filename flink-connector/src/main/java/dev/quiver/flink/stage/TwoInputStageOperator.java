package dev.quiver.flink.stage;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.InputSelectable;
import org.apache.flink.streaming.api.operators.InputSelection;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A stage task with two inputs (Flink input 1 = stage input 0, Flink input 2 = stage input 1), read
 * one after the other in the pipeline's {@link dev.quiver.operators.exec.TaskPipeline#inputOrder()
 * input order}: a hash join's build side is read completely before its first probe record, which
 * waits in Flink's network buffers.
 */
public final class TwoInputStageOperator extends StageOperator
    implements TwoInputStreamOperator<BatchRecord, BatchRecord, BatchRecord>,
        InputSelectable,
        BoundedMultiInput {
  private static final long serialVersionUID = 1L;

  private transient int[] order;
  private transient int reading;

  public TwoInputStageOperator(StageTaskFactory factory, OutputSplit split) {
    super(factory, split);
  }

  @Override
  public void open() throws Exception {
    super.open();
    if (pipeline().inputCount() != 2) {
      throw new IllegalStateException(
          "a two-input stage task got a pipeline with " + pipeline().inputCount() + " inputs");
    }
    order = pipeline().inputOrder();
    reading = 0;
  }

  @Override
  public InputSelection nextSelection() {
    if (reading >= order.length) {
      return InputSelection.ALL;
    }
    return order[reading] == 0 ? InputSelection.FIRST : InputSelection.SECOND;
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
    int input = inputId - 1;
    if (reading < order.length && order[reading] == input) {
      reading++;
    }
    inputEnded(input);
  }
}
