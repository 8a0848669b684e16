package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputEmitter;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What every stage task does, whatever Flink operator hosts it: builds the stage's pipeline, hands
 * it the records of its inputs, and sends its output through an {@link OutputEmitter}.
 *
 * <pre>
 *   record of input i ─► move batch into the task ─► pipeline.add(i) ─► ... ─► emitter ─► Flink
 *   end of input i    ─► pipeline.finish(i) ─► pipeline finished? ─► end-of-partition markers
 * </pre>
 *
 * <p>Batches are moved (zero-copy) out of the records they arrive in: when the producer is chained
 * into the same Flink task it closes what it emitted right after {@code collect} returns, and a
 * pipeline that keeps batches (sort, join build side) must not lose them then. Markers from
 * upstream are dropped: a Flink input ends when every upstream task has ended. Not thread-safe.
 */
final class StageDriver implements AutoCloseable {
  private final BufferAllocator allocator;
  private final OutputEmitter emitter;
  private final TaskPipeline pipeline;
  private boolean outputFinished;

  /**
   * @param emit receives every output record and owns it
   */
  StageDriver(
      StageTaskFactory factory,
      OutputSplit split,
      int partition,
      BufferAllocator allocator,
      String taskName,
      Consumer<BatchRecord> emit) {
    requireNonNull(factory, "factory is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.emitter = new OutputEmitter(split, partition, allocator, emit);
    OperatorContext context =
        new OperatorContext(
            allocator, MemoryBudget.unlimited(taskName), OperatorContext.DEFAULT_BATCH_ROWS);
    this.pipeline = requireNonNull(factory.create(context, emitter::send), "pipeline is null");
  }

  TaskPipeline pipeline() {
    return pipeline;
  }

  /** Runs the pipeline's leading sources; a pipeline of sources only finishes its output here. */
  void start() {
    pipeline.start();
    finishOutputIfDone();
  }

  /** Hands one record of stage input {@code input} to the pipeline. */
  void receive(int input, BatchRecord record) {
    try (record) {
      if (record.isData()) {
        pipeline.add(input, BatchTransfer.move(record.batch(), allocator));
      }
    }
  }

  /** Stage input {@code input} has ended; once the pipeline is finished, so is the output. */
  void inputEnded(int input) {
    pipeline.finish(input);
    finishOutputIfDone();
  }

  private void finishOutputIfDone() {
    if (!outputFinished && pipeline.isFinished()) {
      outputFinished = true;
      emitter.finish();
    }
  }

  @Override
  public void close() {
    pipeline.close();
  }
}
