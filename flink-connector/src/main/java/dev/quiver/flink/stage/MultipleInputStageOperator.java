package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.operators.memory.TaskAllocators;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractInput;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorV2;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.Input;
import org.apache.flink.streaming.api.operators.InputSelectable;
import org.apache.flink.streaming.api.operators.InputSelection;
import org.apache.flink.streaming.api.operators.MultipleInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * A stage task with more than two inputs (Flink input i = stage input i - 1), read one after the
 * other in the pipeline's {@link dev.quiver.operators.exec.TaskPipeline#inputOrder() input order},
 * like {@link TwoInputStageOperator}: a join over a union, a join whose build side is a join.
 *
 * <pre>
 *   input 1 ─┐
 *   input 2 ─┼─► [selected one at a time, in input order] ─► pipeline ─► emitter
 *   input 3 ─┘
 * </pre>
 *
 * <p>Flink's n-input operators extend {@link AbstractStreamOperatorV2}, not the {@code
 * AbstractStreamOperator} that {@link dev.quiver.flink.runtime.ArrowOperator} builds on, so this
 * class binds the task's Arrow allocator itself, with the same rules: shared with the chained
 * operators of the task, a leak fails a task that finished and is only logged for one that failed
 * or was cancelled. Create it with {@link MultipleInputStageOperatorFactory}.
 *
 * <p>In a BATCH job the task is a {@link Selecting} operator: Flink hands over one input at a time.
 * In a STREAMING job Flink refuses checkpoints for operators that select their inputs, so the task
 * takes every input as it comes and keeps the input order itself, with its bounded inputs' part in
 * the checkpoint ({@link OrderedInputs}).
 */
public class MultipleInputStageOperator extends AbstractStreamOperatorV2<BatchRecord>
    implements MultipleInputStreamOperator<BatchRecord>, BoundedMultiInput {
  private static final long serialVersionUID = 1L;

  private final StageTaskFactory factory;
  private final OutputSplit split;

  @SuppressWarnings("rawtypes") // MultipleInputStreamOperator.getInputs() returns a raw List<Input>
  private final List<Input> inputs = new ArrayList<>();

  private final StreamRecord<BatchRecord> reuse = new StreamRecord<>(null);
  private final List<Path> spillDirectories;
  private final Environment environment;
  private TaskAllocators.Binding memory;
  private TaskMemory budget;
  private StageDriver driver;
  private int[] order;
  private int reading;
  private boolean finished;
  private final boolean keepsInputOrder;
  private StageState state;

  // Flink's AbstractInput implements the generic AsyncKeyOrderedProcessing.getRecordProcessor with
  // its own element type: subclassing it is an unchecked conversion javac reports at each subclass.
  @SuppressWarnings("unchecked")
  MultipleInputStageOperator(
      StreamOperatorParameters<BatchRecord> parameters,
      int inputCount,
      StageTaskFactory factory,
      OutputSplit split,
      boolean keepsInputOrder) {
    super(parameters, inputCount);
    this.keepsInputOrder = keepsInputOrder;
    this.environment = parameters.getContainingTask().getEnvironment();
    this.spillDirectories = SpillDirectories.of(environment);
    this.factory = requireNonNull(factory, "factory is null");
    this.split = requireNonNull(split, "split is null");
    for (int id = 1; id <= inputCount; id++) {
      int input = id - 1;
      inputs.add(
          new AbstractInput<BatchRecord, BatchRecord>(this, id) {
            @Override
            public void processElement(StreamRecord<BatchRecord> element) {
              driver.receive(input, element.getValue());
            }
          });
    }
  }

  private String taskName() {
    return getOperatorName()
        + "["
        + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask()
        + "/"
        + getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks()
        + "]";
  }

  @Override
  public void open() throws Exception {
    super.open();
    memory = TaskAllocators.acquire(taskName());
    int partition = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    budget = TaskMemory.of(factory, getOperatorConfig(), environment, taskName());
    driver =
        new StageDriver(
            factory,
            budget.budget(),
            split,
            partition,
            memory.allocator(),
            taskName(),
            getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
            spillDirectories,
            this::emit);
    driver.stats().register(getRuntimeContext(), factory.stageId(), partition);
    TaskMetrics.register(getMetricGroup(), driver.spillSpace(), budget.budget(), driver.pipeline());
    if (driver.pipeline().inputCount() != inputs.size()) {
      throw new IllegalStateException(
          "a "
              + inputs.size()
              + "-input stage task got a pipeline with "
              + driver.pipeline().inputCount()
              + " inputs");
    }
    order = driver.pipeline().inputOrder();
    if (keepsInputOrder) {
      driver.keepInputOrder();
    }
    if (state != null) {
      state.restore(driver);
    }
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    state = new StageState();
    state.initialize(
        context,
        StageState.directory(
            environment, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask()));
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    if (state != null) {
      state.snapshot(driver, context);
    }
  }

  private void emit(BatchRecord record) {
    try {
      output.collect(reuse.replace(record));
    } finally {
      record.close();
    }
  }

  @Override
  @SuppressWarnings("rawtypes")
  public List<Input> getInputs() {
    return inputs;
  }

  /** The input to read next in the pipeline's order (all, once the ordered ones have ended). */
  protected final InputSelection selection() {
    if (order == null || reading >= order.length) {
      return InputSelection.ALL;
    }
    return new InputSelection.Builder().select(order[reading] + 1).build();
  }

  @Override
  public void endInput(int inputId) {
    int input = inputId - 1;
    if (reading < order.length && order[reading] == input) {
      reading++;
    }
    driver.inputEnded(input);
  }

  @Override
  public void finish() throws Exception {
    super.finish();
    finished = true;
  }

  /** Held rows go out before the watermark and the checkpoint barrier (see StageOperator). */
  @Override
  public void processWatermark(Watermark mark) throws Exception {
    if (driver != null) {
      driver.watermark(mark.getTimestamp());
    }
    super.processWatermark(mark);
  }

  /** An idle input: the pipeline emits what it can first (see StageOperator). */
  @Override
  public void processWatermarkStatus(WatermarkStatus status, int inputId) throws Exception {
    if (status.isIdle() && driver != null) {
      driver.idle();
    }
    super.processWatermarkStatus(status, inputId);
  }

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
      if (budget != null) {
        budget.close();
        budget = null;
      }
      super.close();
    } finally {
      try {
        releaseMemory();
      } finally {
        if (state != null) {
          state.discard(); // a restore that open did not reach leaves its copy
        }
      }
    }
  }

  private void releaseMemory() {
    if (memory == null) {
      return;
    }
    TaskAllocators.Binding binding = memory;
    memory = null;
    // a leak after a normal end is a bug: fail the task
    binding.close(finished);
  }

  /** The BATCH form: Flink hands over the inputs one at a time, in the pipeline's order. */
  public static final class Selecting extends MultipleInputStageOperator
      implements InputSelectable {
    private static final long serialVersionUID = 1L;

    Selecting(
        StreamOperatorParameters<BatchRecord> parameters,
        int inputCount,
        StageTaskFactory factory,
        OutputSplit split) {
      super(parameters, inputCount, factory, split, false);
    }

    @Override
    public InputSelection nextSelection() {
      return selection();
    }
  }
}
