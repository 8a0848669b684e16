package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputEmitter;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.exec.TaskPipeline;
import org.apache.flink.streaming.api.watermark.Watermark;

/**
 * One task of a stage in a Flink job: runs the stage's operator pipeline over the records of its
 * inputs and sends the pipeline's output through an {@link OutputEmitter} (split into channels when
 * the edge to the next stage shuffles, and ended with end-of-partition markers). The work itself is
 * a {@link StageDriver}'s.
 *
 * <p>Input records are handed to the pipeline, which owns their batches; markers from upstream are
 * dropped (a Flink input ends when every upstream task has ended). Subclasses map Flink's inputs
 * (numbered from 1) to the pipeline's stage inputs (numbered from 0).
 */
public abstract class StageOperator extends BatchOperator {
  private static final long serialVersionUID = 1L;

  private final StageTaskFactory factory;
  private final OutputSplit split;
  private transient TaskMemory memory;
  private transient StageDriver driver;

  protected StageOperator(StageTaskFactory factory, OutputSplit split) {
    this.factory = requireNonNull(factory, "factory is null");
    this.split = requireNonNull(split, "split is null");
  }

  @Override
  public void open() throws Exception {
    super.open();
    memory =
        TaskMemory.of(
            factory, getOperatorConfig(), getContainingTask().getEnvironment(), taskName());
    driver =
        new StageDriver(
            factory,
            memory.budget(),
            split,
            partition(),
            allocator(),
            taskName(),
            parallelism(),
            SpillDirectories.of(getContainingTask().getEnvironment()),
            this::emit);
    driver.stats().register(getRuntimeContext(), factory.stageId(), partition());
    TaskMetrics.register(getMetricGroup(), driver.spillSpace(), memory.budget());
  }

  /** The pipeline of this task (valid while open). */
  protected final TaskPipeline pipeline() {
    return driver.pipeline();
  }

  /** Runs the pipeline's sources that come before its inputs (all of them if it has none). */
  protected final void start() {
    driver.start();
  }

  /** Hands one record of stage input {@code input} to the pipeline. */
  protected final void receive(int input, BatchRecord record) {
    driver.receive(input, record);
  }

  /** Stage input {@code input} has ended; once the pipeline has finished, the output ends too. */
  protected final void inputEnded(int input) {
    driver.inputEnded(input);
  }

  /**
   * Rows the pipeline holds only to fill a batch go out before the watermark: a watermark promises
   * that no earlier row follows, so a row held behind it would arrive late downstream (unbounded
   * jobs; a bounded job sees only the final watermark, after its input).
   */
  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (driver != null) {
      driver.flush();
    }
    super.processWatermark(mark);
  }

  /** And before a checkpoint barrier: rows held in no state would be lost on a restore. */
  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    if (driver != null) {
      driver.flush();
    }
    super.prepareSnapshotPreBarrier(checkpointId);
  }

  @Override
  public void close() throws Exception {
    try {
      if (driver != null) {
        driver.close();
        driver = null;
      }
    } finally {
      try {
        if (memory != null) {
          memory.close();
          memory = null;
        }
      } finally {
        super.close();
      }
    }
  }
}
