package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.state.checkpoint.BatchBytes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The pipeline's input order kept by the task itself, for a STREAMING job, where Flink cannot hold
 * back an input (it refuses checkpoints for operators that select their inputs): a batch of an
 * input whose turn has not come (a join's probe side while its build side, a table, is still
 * arriving) waits here, and is handed on, in arrival order, once every bounded input before it in
 * the pipeline's {@link TaskPipeline#inputOrder() order} has ended. Unbounded inputs never end, so
 * none waits for one: the operators that take two streams (a window join) take them in any order.
 *
 * <p>And the task's part of a checkpoint. What the pipeline built from a bounded input whose rows
 * stay in the task ({@link StageTaskFactory#keepsRows}: the hash table of a broadcast table, an
 * aggregate's groups) is state that a restore must rebuild, and a finished bounded input is not
 * read again after a restore. So every batch of such an input is logged (as Arrow IPC bytes) when
 * it arrives; a snapshot is that log, the other inputs' batches still waiting and which inputs have
 * ended, and a restore replays it into a new pipeline (whose output during the replay the task
 * drops: it went downstream before the checkpoint). The batches of a bounded input whose rows pass
 * straight through (the table of {@code table UNION ALL stream}) are not logged: once handed on,
 * their rows are downstream, covered by the checkpoint, and sending them again after a restore
 * would duplicate them; the snapshot says only whether the input ended, so the restored task
 * neither waits for it nor reads it again (its source resumes after the rows it had emitted, and
 * has none left once it finished). Nor are handed-on batches of unbounded inputs: what their rows
 * left in the operators (open windows) is in the stateful operators' own snapshots.
 *
 * <pre>
 *   Union[HashJoin[build = table A, probe = stream S], table B]
 *   inputs in order:   table A (build)   stream S         table B (passes through)
 *   handed on:         at once           once A ended     once A ended
 *   logged:            yes               no               no
 *   snapshot entry:    [kind: 0 = batch, 1 = input ended][input][Arrow IPC stream of one batch]
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
  private final boolean[] unbounded;
  private final boolean[] logged; // bounded inputs whose rows stay in the task
  private final List<ArrayDeque<VectorSchemaRoot>> waiting = new ArrayList<>();
  private final boolean[] ended;
  private final boolean[] finished; // finished in the pipeline
  private final List<byte[]> log = new ArrayList<>();
  private int frontier; // the place of the first bounded input not ended; inputs up to it flow

  /**
   * @param unboundedInputs the inputs that read a stream (never end)
   * @param keepsRows whether a bounded input's rows stay in the task ({@link
   *     StageTaskFactory#keepsRows})
   */
  OrderedInputs(
      TaskPipeline pipeline,
      BufferAllocator allocator,
      Set<Integer> unboundedInputs,
      IntPredicate keepsRows) {
    this.pipeline = requireNonNull(pipeline, "pipeline is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.order = pipeline.inputOrder();
    this.position = new int[order.length];
    this.unbounded = new boolean[order.length];
    for (int p = 0; p < order.length; p++) {
      position[order[p]] = p;
      waiting.add(new ArrayDeque<>());
    }
    for (int input : unboundedInputs) {
      unbounded[input] = true;
    }
    this.logged = new boolean[order.length];
    for (int input = 0; input < order.length; input++) {
      logged[input] = !unbounded[input] && keepsRows.test(input);
    }
    this.ended = new boolean[order.length];
    this.finished = new boolean[order.length];
    while (frontier < order.length && unbounded[order[frontier]]) {
      frontier++;
    }
  }

  /** Takes one batch of {@code input} (owned from now on): hands it on or keeps it waiting. */
  void add(int input, VectorSchemaRoot batch) {
    try {
      if (logged[input]) {
        log.add(entry(BATCH, input, BatchBytes.write(batch)));
      }
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
    if (position[input] <= frontier) {
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
    if (logged[input]) {
      log.add(entry(ENDED, input, new byte[0]));
    }
    advance();
  }

  /** Moves the frontier past ended and unbounded inputs; hands on what may flow now. */
  private void advance() {
    while (frontier < order.length && (unbounded[order[frontier]] || ended[order[frontier]])) {
      frontier++;
    }
    for (int p = 0; p <= Math.min(frontier, order.length - 1); p++) {
      int input = order[p];
      ArrayDeque<VectorSchemaRoot> queue = waiting.get(input);
      while (!queue.isEmpty()) {
        pipeline.add(input, queue.poll());
      }
      if (ended[input] && !finished[input]) {
        finished[input] = true;
        pipeline.finish(input);
      }
    }
  }

  /** The task's state now (see the class comment), for a checkpoint. */
  List<byte[]> snapshot() {
    List<byte[]> state = new ArrayList<>(log);
    for (int input = 0; input < waiting.size(); input++) {
      if (!logged[input]) {
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
