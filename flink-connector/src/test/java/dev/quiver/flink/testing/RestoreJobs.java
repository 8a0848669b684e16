package dev.quiver.flink.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import java.time.Duration;
import org.apache.arrow.vector.BigIntVector;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Streaming jobs that fail once and restore from a checkpoint, for the sources' exactly-once tests:
 * checkpoints every 100 ms, two restarts, and the ids of every row as plain records, so that
 * Flink's checkpointed collect sink ({@code DataStream.collectAsync()} with checkpointing on) hands
 * the client each row that a completed checkpoint covers, exactly once.
 */
public final class RestoreJobs {
  private RestoreJobs() {}

  /** A STREAMING environment checkpointing every 100 ms, restarting at most twice. */
  public static StreamExecutionEnvironment environment() {
    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(PipelineOptions.OBJECT_REUSE, true);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.enableCheckpointing(100);
    return env;
  }

  /**
   * The BIGINT ids (column 0) of {@code batches}, after task {@code task} has failed once (first
   * attempt only) at its batch number {@code afterBatches + 1} ({@link FailOnceOperator}).
   */
  public static DataStream<Long> idsAfterOneFailure(
      DataStream<BatchRecord> batches, int task, long afterBatches) {
    return batches
        .forward()
        .transform("fail once", batches.getType(), new FailOnceOperator(task, afterBatches))
        .setParallelism(batches.getParallelism())
        .transform("ids", Types.LONG, new RowIds())
        .setParallelism(batches.getParallelism());
  }

  /** Cancels {@code job} if it still runs and waits until it has ended (for the leak check). */
  public static void cancelAndAwaitEnd(JobClient job, Duration deadline) throws Exception {
    long end = System.nanoTime() + deadline.toNanos();
    while (!job.getJobStatus().get().isGloballyTerminalState()) {
      if (job.getJobStatus().get() == JobStatus.RUNNING) {
        job.cancel().get();
      }
      assertThat(System.nanoTime()).as("the job to end").isLessThan(end);
      Thread.sleep(20);
    }
  }

  /** The ids (column 0) of every batch, one record each. */
  private static final class RowIds extends AbstractStreamOperator<Long>
      implements OneInputStreamOperator<BatchRecord, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(StreamRecord<BatchRecord> element) {
      try (BatchRecord record = element.getValue()) {
        BigIntVector id = (BigIntVector) record.batch().getVector(0);
        for (int i = 0; i < record.rowCount(); i++) {
          output.collect(new StreamRecord<>(id.get(i)));
        }
      }
    }
  }
}
