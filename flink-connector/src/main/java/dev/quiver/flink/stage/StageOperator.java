package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputEmitter;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.exec.TaskPipeline;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

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
  private transient StageState state;
  private transient boolean idleHeld; // an idle status not forwarded (see processWatermarkStatus)

  protected StageOperator(StageTaskFactory factory, OutputSplit split) {
    this.factory = requireNonNull(factory, "factory is null");
    this.split = requireNonNull(split, "split is null");
  }

  /**
   * Whether this task keeps its pipeline's input order itself and checkpoints what its bounded
   * inputs built ({@link OrderedInputs}): the STREAMING operators, which Flink does not let select
   * their inputs, and whose bounded inputs are not read again after a restore (one input too).
   */
  protected boolean keepsInputOrder() {
    return false;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    state = new StageState();
    state.initialize(
        context, StageState.directory(getContainingTask().getEnvironment(), partition()));
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    if (state != null) {
      state.snapshot(driver, context);
    }
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
    TaskMetrics.register(getMetricGroup(), driver.spillSpace(), memory.budget(), driver.pipeline());
    if (keepsInputOrder()) {
      driver.keepInputOrder();
    }
    if (state != null) {
      state.restore(driver);
    }
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
   * The pipeline sees the watermark before it goes downstream: event-time windows it completes are
   * emitted, and rows held only to fill a batch go out, since a watermark promises that no earlier
   * row follows and a row held behind it would arrive late downstream (unbounded jobs; a bounded
   * job sees only the final watermark, after its input).
   */
  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (driver != null) {
      driver.watermark(mark.getTimestamp());
    }
    super.processWatermark(mark);
  }

  /**
   * An idle input (a Kafka partition without traffic) lets downstream watermarks stop waiting for
   * this task. The pipeline emits what it can first (a partial window aggregate its open windows'
   * partial states); if it still holds rows a later watermark would emit (a final window
   * aggregate's open windows), downstream is not told, so its watermark cannot overtake them, and
   * the matching return to active is not forwarded either.
   */
  @Override
  public void processWatermarkStatus(WatermarkStatus status) throws Exception {
    if (status.isIdle()) {
      if (driver != null && !driver.idle()) {
        idleHeld = true;
        return;
      }
    } else if (idleHeld) {
      idleHeld = false;
      return;
    }
    super.processWatermarkStatus(status);
  }

  /** The same for one input of a two-input task: its pipeline emits what it can. */
  @Override
  protected void processWatermarkStatus(WatermarkStatus status, int index) throws Exception {
    if (status.isIdle() && driver != null) {
      driver.idle();
    }
    super.processWatermarkStatus(status, index);
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
        try {
          super.close();
        } finally {
          if (state != null) {
            state.discard(); // a restore that open did not reach leaves its copy
          }
        }
      }
    }
  }
}
