package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.state.checkpoint.BatchBytes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The pipeline's input order kept by the task itself, for a STREAMING job, where Flink cannot hold
 * back an input (it refuses checkpoints for operators that select their inputs): a batch of an
 * input whose turn has not come (a join's probe side while its build side is still arriving) waits
 * here, and is handed on, in arrival order, once every input before it in the pipeline's {@link
 * TaskPipeline#inputOrder() order} has ended.
 *
 * <p>And the task's part of a checkpoint. In a streaming stage every input but the last in order is
 * bounded ({@link dev.quiver.stage.UnboundedInputs}): what the pipeline built from them (a hash
 * table of a broadcast table) is state that a restore must rebuild, and a finished bounded input is
 * not read again after a restore. So every batch of an earlier input is logged (as Arrow IPC bytes)
 * when it arrives; a snapshot is that log, the batches still waiting and which inputs have ended,
 * and a restore replays it into a new pipeline. Batches of the last input that were handed on are
 * not state: the pipeline's output for them has gone downstream before the barrier.
 *
 * <pre>
 *   snapshot entry: [kind: 0 = batch, 1 = input ended][input][Arrow IPC stream of one batch]
 * </pre>
 *
 * Not thread-safe.
 */
final class OrderedInputs implements AutoCloseable {
  private static final byte BATCH = 0;
  private static final byte ENDED = 1;

  private final TaskPipeline pipeline;
  private final BufferAllocator allocator;
  private final int[] order;
  private final int[] position; // input -> its place in order
  private final List<ArrayDeque<VectorSchemaRoot>> waiting = new ArrayList<>();
  private final boolean[] ended;
  private final List<byte[]> log = new ArrayList<>();
  private int current; // the place in order of the input being handed on

  OrderedInputs(TaskPipeline pipeline, BufferAllocator allocator) {
    this.pipeline = requireNonNull(pipeline, "pipeline is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.order = pipeline.inputOrder();
    this.position = new int[order.length];
    for (int p = 0; p < order.length; p++) {
      position[order[p]] = p;
      waiting.add(new ArrayDeque<>());
    }
    this.ended = new boolean[order.length];
  }

  /** Takes one batch of {@code input} (owned from now on): hands it on or keeps it waiting. */
  void add(int input, VectorSchemaRoot batch) {
    try {
      if (position[input] < order.length - 1) {
        log.add(entry(BATCH, input, BatchBytes.write(batch)));
      }
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
    if (position[input] <= current) {
      pipeline.add(input, batch);
    } else {
      waiting.get(input).add(batch);
    }
  }

  /** {@code input} has ended: finishes it in the pipeline now, or when its turn comes. */
  void finish(int input) {
    if (ended[input]) {
      return;
    }
    ended[input] = true;
    if (position[input] < order.length - 1) {
      log.add(entry(ENDED, input, new byte[0]));
    }
    while (current < order.length && ended[order[current]]) {
      pipeline.finish(order[current]);
      current++;
      if (current < order.length) {
        ArrayDeque<VectorSchemaRoot> queue = waiting.get(order[current]);
        while (!queue.isEmpty()) {
          pipeline.add(order[current], queue.poll());
        }
      }
    }
  }

  /** The task's state now (see the class comment), for a checkpoint. */
  List<byte[]> snapshot() {
    List<byte[]> state = new ArrayList<>(log);
    for (int input = 0; input < waiting.size(); input++) {
      if (position[input] == order.length - 1) {
        for (VectorSchemaRoot batch : waiting.get(input)) {
          state.add(entry(BATCH, input, BatchBytes.write(batch)));
        }
        if (ended[input]) {
          state.add(entry(ENDED, input, new byte[0]));
        }
      }
    }
    return state;
  }

  /** Replays entries of {@link #snapshot} into this task's new pipeline. */
  void restore(Iterable<byte[]> state) {
    for (byte[] entry : state) {
      int input = StageState.index(entry);
      if (StageState.kind(entry) == ENDED) {
        finish(input);
      } else {
        add(input, BatchBytes.read(StageState.payload(entry), allocator));
      }
    }
  }

  private static byte[] entry(byte kind, int input, byte[] payload) {
    return StageState.entry(kind, input, payload);
  }

  /** Releases the batches still waiting. */
  @Override
  public void close() {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    waiting.forEach(batches::addAll);
    waiting.forEach(ArrayDeque::clear);
    try {
      AutoCloseables.close(batches);
    } catch (Exception e) {
      throw new IllegalStateException("cannot release waiting batches", e);
    }
  }
}
