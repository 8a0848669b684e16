package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.exchange.OutputEmitter;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.operators.keyrange.TaskKeyRanges;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.state.spill.FileSpillSpace;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.runtime.tasks.ExceptionInChainedOperatorException;

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
  private final TaskStats stats = new TaskStats();
  private final SpillSpace spill;
  private final int stageId;
  private final int partition;
  private final int tasks;
  private final TaskKeyRanges.Scope keyRanges;
  private boolean outputFinished;
  private boolean replaying; // restoring a checkpoint: the pipeline's output is dropped
  private final Set<Integer> unboundedInputs;
  private final IntPredicate keepsRows;
  private final IntPredicate keepsSourceRows;
  private OrderedInputs ordered; // null: Flink hands the inputs over in order (BATCH jobs)

  /**
   * @param memoryBudget the bytes the task's operators may hold ({@link TaskMemory})
   * @param emit receives every output record and owns it
   */
  StageDriver(
      StageTaskFactory factory,
      long memoryBudget,
      OutputSplit split,
      int partition,
      BufferAllocator allocator,
      String taskName,
      int tasks,
      List<Path> spillDirectories,
      Consumer<BatchRecord> emit) {
    requireNonNull(factory, "factory is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.emitter = new OutputEmitter(split, partition, allocator, emit);
    this.stageId = factory.stageId();
    this.unboundedInputs = factory.unboundedInputs();
    this.keepsRows = factory::keepsRows;
    this.keepsSourceRows = factory::keepsSourceRows;
    this.partition = partition;
    this.tasks = tasks;
    // One spill space per task, under Flink's io.tmp.dirs; closed (files deleted) with the task.
    this.spill =
        spillDirectories.isEmpty()
            ? SpillSpace.NONE
            : new FileSpillSpace(spillDirectories, taskName);
    OperatorContext context =
        new OperatorContext(
            allocator,
            new MemoryBudget(taskName, memoryBudget),
            OperatorContext.DEFAULT_BATCH_ROWS,
            spill);
    // The task's joins publish their build keys' ranges here for its scans (TaskKeyRanges).
    this.keyRanges = TaskKeyRanges.open();
    try {
      this.pipeline = requireNonNull(factory.create(context, this::send), "pipeline is null");
      // VALUES after a stream's input run at the start, not at the stream's end, which never comes
      unboundedInputs.forEach(pipeline::neverEnds);
    } catch (RuntimeException | Error e) {
      keyRanges.close();
      throw e;
    }
    stats.memoryBudget.add(memoryBudget);
  }

  /** This task's counters (register them as accumulators to see them on the client). */
  TaskStats stats() {
    return stats;
  }

  private void send(VectorSchemaRoot batch) {
    if (replaying) {
      batch.close(); // sent before the checkpoint being restored (see restore)
      return;
    }
    stats.rowsOut.add(batch.getRowCount());
    stats.batchesOut.add(1);
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      bytes += vector.getBufferSize();
    }
    stats.bytesOut.add(bytes);
    emitter.send(batch);
  }

  TaskPipeline pipeline() {
    return pipeline;
  }

  /**
   * From now on the task keeps the pipeline's input order itself and can snapshot and restore what
   * its bounded inputs built ({@link OrderedInputs}): for a STREAMING job, whose operators cannot
   * select their inputs. Call before the first record.
   */
  void keepInputOrder() {
    if (ordered == null) {
      ordered = new OrderedInputs(pipeline, allocator, unboundedInputs, keepsRows);
    }
  }

  /**
   * The task's control entries for a checkpoint ({@link StageState}): whether its pipeline had
   * started (run its leading sources) and, when it keeps its input order, what its bounded inputs
   * brought. Its stateful operators' states are not among them: {@link #snapshotOperators} streams
   * them. The caller flushed the pipeline first.
   */
  List<byte[]> snapshot() {
    List<byte[]> state = new ArrayList<>();
    try {
      if (pipeline.isStarted()) {
        state.add(StageState.entry(StageState.STARTED, 0, new byte[0]));
      }
      if (ordered != null) {
        state.addAll(ordered.snapshot());
      }
    } catch (RuntimeException e) {
      throw located(e);
    }
    return state;
  }

  /**
   * Whether the pipeline has stateful operators, whose states {@link #snapshotOperators} writes.
   */
  boolean hasOperatorState() {
    return pipeline.hasState();
  }

  /**
   * Writes the stateful operators' states to {@code out} as they go ({@link
   * TaskPipeline#snapshotState(OutputStream)}), for the same checkpoint as {@link #snapshot}.
   */
  void snapshotOperators(OutputStream out) throws IOException {
    try {
      pipeline.snapshotState(out);
    } catch (RuntimeException e) {
      throw located(e);
    }
  }

  /**
   * Restores a state from {@link #snapshot} and {@link #snapshotOperators} into this task's new
   * pipeline, before any record: the operators' states first ({@code operators}, the stream {@link
   * #snapshotOperators} wrote, or null for a checkpoint without one: then from the {@link
   * StageState#OPERATOR} entries of {@code state}, as checkpoints before the stream wrote them),
   * then the pipeline started again if it had started and the bounded inputs' batches replayed. The
   * VALUES the pipeline reaches meanwhile ran before the checkpoint: those whose rows the task
   * keeps ({@link StageTaskFactory#keepsSourceRows}: a join's VALUES build side) run again, the
   * others not (their rows are downstream, or in a restored updating aggregate's groups). What the
   * pipeline emits meanwhile is dropped: it emitted the same before the checkpoint, and that went
   * downstream ahead of the barrier (the groups of an aggregate of a table whose input had ended,
   * the unmatched rows of a finished join). The replay rebuilds the state; it sends nothing again.
   */
  /**
   * {@link #restore(Iterable, InputStream)} of a state whose operators' states are in {@code
   * state}.
   */
  void restore(Iterable<byte[]> state) {
    try {
      restore(state, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // no stream was read
    }
  }

  void restore(Iterable<byte[]> state, InputStream operators) throws IOException {
    Map<Integer, byte[]> arrays = new HashMap<>();
    List<byte[]> inputs = new ArrayList<>();
    boolean started = false;
    for (byte[] entry : state) {
      switch (StageState.kind(entry)) {
        case StageState.OPERATOR -> arrays.put(StageState.index(entry), StageState.payload(entry));
        case StageState.STARTED -> started = true;
        default -> inputs.add(entry);
      }
    }
    try {
      if (operators != null) {
        if (!arrays.isEmpty()) {
          throw new IllegalStateException(
              "a checkpoint holds operator states both as list entries and as a stream");
        }
        pipeline.restoreState(operators);
      } else {
        pipeline.restoreState(arrays);
      }
      if (started || !inputs.isEmpty()) {
        keepInputOrder();
        replaying = true;
        pipeline.rerunSources(keepsSourceRows); // the sources reached now ran before the checkpoint
        try {
          pipeline.start();
          ordered.restore(inputs);
          pipeline.flush(); // and what it holds only to fill a batch: none was held at the snapshot
        } finally {
          pipeline.rerunSources(null);
          replaying = false;
        }
      }
      finishOutputIfDone();
    } catch (RuntimeException e) {
      throw located(e);
    }
  }

  /**
   * The task's input has gone idle ({@link TaskPipeline#idle()}): whether it holds nothing that a
   * later watermark would emit, so downstream may stop waiting for it.
   */
  boolean idle() {
    if (outputFinished) {
      return true;
    }
    long begin = System.nanoTime();
    try {
      return pipeline.idle();
    } catch (RuntimeException e) {
      throw located(e);
    } finally {
      stats.busyNanos.add(System.nanoTime() - begin);
    }
  }

  /**
   * The event-time watermark {@code millis} passes the task: its operators emit what it completes
   * (event-time windows) and the rows they hold only to fill batches, before it goes downstream.
   */
  void watermark(long millis) {
    if (outputFinished) {
      return;
    }
    long begin = System.nanoTime();
    try {
      pipeline.watermark(millis);
    } catch (RuntimeException e) {
      throw located(e);
    }
    stats.busyNanos.add(System.nanoTime() - begin);
  }

  /** Runs the pipeline's leading sources; a pipeline of sources only finishes its output here. */
  void start() {
    long begin = System.nanoTime();
    try {
      pipeline.start();
      finishOutputIfDone();
    } catch (RuntimeException e) {
      throw located(e);
    }
    stats.busyNanos.add(System.nanoTime() - begin);
  }

  /** Hands one record of stage input {@code input} to the pipeline. */
  void receive(int input, BatchRecord record) {
    long begin = System.nanoTime();
    try (record) {
      if (record.isData()) {
        stats.rowsIn.add(record.batch().getRowCount());
        stats.batchesIn.add(1);
        VectorSchemaRoot batch = BatchTransfer.move(record.batch(), allocator);
        if (ordered == null) {
          pipeline.add(input, batch);
        } else {
          ordered.add(input, batch);
        }
      }
    } catch (RuntimeException e) {
      throw located(e);
    } finally {
      stats.busyNanos.add(System.nanoTime() - begin);
    }
  }

  /** Stage input {@code input} has ended; once the pipeline is finished, so is the output. */
  void inputEnded(int input) {
    long begin = System.nanoTime();
    try {
      if (ordered == null) {
        pipeline.finish(input);
      } else {
        ordered.finish(input);
      }
      finishOutputIfDone();
    } catch (RuntimeException e) {
      throw located(e);
    }
    stats.busyNanos.add(System.nanoTime() - begin);
  }

  /**
   * Sends on the rows the pipeline's operators hold only to fill batches (see {@link
   * TaskPipeline#flush()}): in an unbounded job, before a watermark or a checkpoint barrier passes
   * the task, so no row falls behind a watermark or is missing from a checkpoint.
   */
  void flush() {
    if (outputFinished) {
      return;
    }
    long begin = System.nanoTime();
    try {
      pipeline.flush();
    } catch (RuntimeException e) {
      throw located(e);
    }
    stats.busyNanos.add(System.nanoTime() - begin);
  }

  /**
   * {@code e} with the stage and task it happened in, so that the one line a user sees says where
   * (EXPLAIN shows the same stage ids): {@code [DIVISION_BY_ZERO] ... (stage 2, task 1 of 4)}. An
   * error that is not a {@link QuiverException} (an operator's bug, or an operator chained after
   * the stage that threw while it received this task's output) becomes a {@link
   * ErrorCode#TASK_FAILED} naming its class and message; Flink's own exceptions (cancellation,
   * network) pass unchanged, Flink acts on them.
   */
  private RuntimeException located(RuntimeException e) {
    Throwable cause = e;
    while (cause instanceof ExceptionInChainedOperatorException && cause.getCause() != null) {
      cause = cause.getCause(); // Flink wraps what a chained operator threw, once per operator
    }
    if (stageId < 0 // a task outside a stage graph (tests): no stage to name
        || cause instanceof InterruptedException // cancellation
        || cause.getClass().getName().startsWith("org.apache.flink.")) {
      return e;
    }
    String where = " (stage " + stageId + ", task " + partition + " of " + tasks + ")";
    if (cause instanceof QuiverException quiver) {
      if (quiver.getMessage().endsWith(where)) {
        return quiver; // already located by this task
      }
      String message = quiver.getMessage().substring(quiver.code().name().length() + 3);
      return new QuiverException(quiver.code(), message + where, quiver);
    }
    return new QuiverException(ErrorCode.TASK_FAILED, firstLine(cause) + where, cause);
  }

  /** {@code IllegalStateException: what happened}, on one line. */
  private static String firstLine(Throwable e) {
    String message = e.getMessage() == null ? "" : e.getMessage().strip();
    int end = message.indexOf('\n');
    return e.getClass().getSimpleName()
        + (message.isEmpty() ? "" : ": " + (end < 0 ? message : message.substring(0, end)));
  }

  private void finishOutputIfDone() {
    if (!outputFinished && pipeline.isFinished()) {
      outputFinished = true;
      emitter.finish();
    }
  }

  /** The task's spill space (for metrics). */
  SpillSpace spillSpace() {
    return spill;
  }

  /** Closes the pipeline, then deletes every spill file the task made (also after a failure). */
  @Override
  public void close() {
    try {
      if (ordered != null) {
        ordered.close();
      }
    } finally {
      closePipeline();
    }
  }

  private void closePipeline() {
    try {
      pipeline.close();
    } finally {
      stats.spilledBytes.add(spill.spilledBytes());
      keyRanges.close();
      if (spill instanceof FileSpillSpace files) {
        files.close();
      }
    }
  }
}
