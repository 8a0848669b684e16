package dev.quiver.flink.stage;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A stage task whose pipeline has no stage inputs, only sources (VALUES): Flink runs an operator
 * only when some input drives it, so a trivial trigger stream (one task per stage task, forward)
 * does; its elements are ignored and its end runs the pipeline.
 *
 * <pre>
 *   trigger task p ──(ignored, end)──► stage task p: pipeline.start() ─► output, end markers
 * </pre>
 */
public final class SourceStageOperator extends StageOperator
    implements OneInputStreamOperator<Long, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  public SourceStageOperator(StageTaskFactory factory, OutputSplit split) {
    super(factory, split);
  }

  @Override
  public void open() throws Exception {
    super.open();
    if (pipeline().inputCount() != 0) {
      throw new IllegalStateException(
          "a source stage task got a pipeline with " + pipeline().inputCount() + " inputs");
    }
  }

  @Override
  public void processElement(StreamRecord<Long> element) {
    // A trigger only: the pipeline runs when the trigger ends.
  }

  @Override
  public void endInput() {
    start();
  }
}
