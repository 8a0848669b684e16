package dev.quiver.flink.testing;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Passes a stage's output on, {@code millis} ms per data batch: a query that is still running, with
 * its operators' state (and spill files) open, when a test cancels it.
 */
public final class SlowOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final long millis;

  public SlowOperator(long millis) {
    this.millis = millis;
  }

  /** A hook that slows down the output of every task of stage {@code stageId}. */
  public static StageOutputHook inStage(int stageId, long millis) {
    return (stage, output) ->
        stage.id() != stageId
            ? output
            : output
                .forward()
                .transform("slow", output.getType(), new SlowOperator(millis))
                .setParallelism(output.getParallelism());
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) throws InterruptedException {
    BatchRecord record = element.getValue();
    if (record.isData()) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        record.close(); // cancelled: Flink interrupts the task thread
        throw e;
      }
    }
    emit(record);
  }
}
