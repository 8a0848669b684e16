package dev.quiver.flink.testing;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * An injected fault: passes a stage's output on, except that task {@code task} throws once it has
 * passed {@code batches} data batches, in its first execution attempt only, so that a job with a
 * restart strategy recovers from it. Attempts are told apart by Flink's attempt number, so nothing
 * outside the job (no static flag, no system property) is needed.
 */
public final class FailOnceOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  /** The message of the injected failure. */
  public static final String MESSAGE = "injected failure";

  private final int task;
  private final long batches;
  private transient long passed;

  public FailOnceOperator(int task, long batches) {
    this.task = task;
    this.batches = batches;
  }

  /** A hook that chains a {@link FailOnceOperator} after the tasks of stage {@code stageId}. */
  public static StageOutputHook inStage(int stageId, int task, long batches) {
    return (stage, output) ->
        stage.id() != stageId
            ? output
            : output
                .forward()
                .transform("fail once", output.getType(), new FailOnceOperator(task, batches))
                .setParallelism(output.getParallelism());
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    BatchRecord record = element.getValue();
    if (record.isData()
        && partition() == task
        && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0
        && ++passed > batches) {
      record.close();
      throw new IllegalStateException(
          MESSAGE + " in " + taskName() + " after " + batches + " batches");
    }
    emit(record);
  }
}
