package dev.quiver.flink.session;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A failure injected after a checkpoint that matters: passes a stage's output batches on; in the
 * first attempt of the {@link #failingStage}'s tasks it sleeps after each batch (the inputs would
 * otherwise end before a checkpoint), and fails on the first batch after a checkpoint has completed
 * whose snapshot it took once an {@link #arming} batch had passed it. So the restored job must
 * resume from state that has seen the arming rows. Tests set the statics before a query and reset
 * {@link #FAILURES}; the operator reads them in the task (one JVM: the MiniCluster).
 */
final class FailAfterCheckpoint extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  /** Every stage's output may fail. */
  static final int ANY_STAGE = -1;

  /** Failures injected so far. */
  static final AtomicInteger FAILURES = new AtomicInteger();

  /** The stage whose output fails, or {@link #ANY_STAGE}. */
  static volatile int failingStage = ANY_STAGE;

  /** The output batches after which a completed checkpoint arms the failure. */
  static volatile Predicate<VectorSchemaRoot> arming = batch -> true;

  private final int stage;
  private transient boolean sawArmingRow;
  private transient Set<Long> snapshotsAfterArmingRow;
  private transient boolean armed;

  private FailAfterCheckpoint(int stage) {
    this.stage = stage;
  }

  /** Puts the operator behind every stage's output. */
  static StageOutputHook hook() {
    return (stage, output) ->
        output
            .forward()
            .transform(
                "fail after a checkpoint", output.getType(), new FailAfterCheckpoint(stage.id()))
            .setParallelism(output.getParallelism());
  }

  /** Four slots, a checkpoint every 100 ms, three restarts 10 ms apart. */
  static Configuration configuration() {
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    return flink;
  }

  /** Batches with a row whose column 1 (VARCHAR) starts with {@code prefix}. */
  static Predicate<VectorSchemaRoot> textStartingWith(String prefix) {
    return batch -> {
      VarCharVector names = (VarCharVector) batch.getVector(1);
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (!names.isNull(row) && new String(names.get(row)).startsWith(prefix)) {
          return true;
        }
      }
      return false;
    };
  }

  /** Batches with a negative key in column 0 (BIGINT). */
  static Predicate<VectorSchemaRoot> negativeKey() {
    return batch -> {
      BigIntVector keys = (BigIntVector) batch.getVector(0);
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (!keys.isNull(row) && keys.get(row) < 0) {
          return true;
        }
      }
      return false;
    };
  }

  @Override
  public void open() throws Exception {
    super.open();
    snapshotsAfterArmingRow = new HashSet<>();
  }

  private boolean failing() {
    return (failingStage == ANY_STAGE || stage == failingStage)
        && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0;
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) throws Exception {
    BatchRecord record = element.getValue();
    if (!record.isData() || !failing()) {
      emit(record);
      return;
    }
    if (armed) {
      record.close();
      FAILURES.incrementAndGet();
      throw new IllegalStateException("injected failure in " + taskName());
    }
    sawArmingRow |= arming.test(record.batch());
    emit(record);
    Thread.sleep(20);
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    if (sawArmingRow) {
      snapshotsAfterArmingRow.add(context.getCheckpointId());
    }
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    armed |= snapshotsAfterArmingRow.contains(checkpointId);
  }
}
