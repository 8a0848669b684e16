package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputEmitter;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.operators.memory.MemoryBudget;

/**
 * One task of a stage in a Flink job: runs the stage's operator pipeline over the records of its
 * inputs and sends the pipeline's output through an {@link OutputEmitter} (split into channels when
 * the edge to the next stage shuffles, and ended with end-of-partition markers).
 *
 * <p>Input records are handed to the pipeline, which owns their batches; markers from upstream are
 * dropped (a Flink input ends when every upstream task has ended). Subclasses map Flink's inputs
 * (numbered from 1) to the pipeline's stage inputs (numbered from 0).
 */
public abstract class StageOperator extends BatchOperator {
  private static final long serialVersionUID = 1L;

  private final StageTaskFactory factory;
  private final OutputSplit split;
  private transient TaskPipeline pipeline;
  private transient OutputEmitter emitter;
  private transient int unfinishedInputs;

  protected StageOperator(StageTaskFactory factory, OutputSplit split) {
    this.factory = requireNonNull(factory, "factory is null");
    this.split = requireNonNull(split, "split is null");
  }

  @Override
  public void open() throws Exception {
    super.open();
    emitter = new OutputEmitter(split, partition(), allocator(), this::emit);
    OperatorContext context =
        new OperatorContext(
            allocator(), MemoryBudget.unlimited(taskName()), OperatorContext.DEFAULT_BATCH_ROWS);
    pipeline = factory.create(context, emitter::send);
    unfinishedInputs = pipeline.inputCount();
  }

  /** The pipeline of this task (valid while open). */
  protected final TaskPipeline pipeline() {
    return pipeline;
  }

  /** Hands one record of stage input {@code input} to the pipeline. */
  protected final void receive(int input, BatchRecord record) {
    if (record.isData()) {
      pipeline.add(input, record.batch()); // the pipeline owns the batch now
    } else {
      record.close();
    }
  }

  /** Stage input {@code input} has ended; after the last one, the output ends too. */
  protected final void inputEnded(int input) {
    pipeline.finish(input);
    if (--unfinishedInputs == 0) {
      emitter.finish();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (pipeline != null) {
        pipeline.close();
        pipeline = null;
      }
    } finally {
      super.close();
    }
  }
}
