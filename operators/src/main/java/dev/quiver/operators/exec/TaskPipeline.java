package dev.quiver.operators.exec;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.StateStreams;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.IntPredicate;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One task of a stage: a tree of {@link Operator}s whose leaves are the stage's inputs and
 * {@linkplain Source sources} (operators without inputs, such as VALUES), driven by pushing each
 * input's batches in. Every operator's output is pushed into its parent; the root's output goes to
 * the task's sink.
 *
 * <pre>
 *   stage input 0 ──► [build]
 *                        HashJoin ──► Aggregate ──► task sink
 *   stage input 1 ──► [probe]
 * </pre>
 *
 * <p>An operator is finished as soon as all its inputs are, which finishes its slot in the parent,
 * and so on up. {@link #inputOrder()} is the order in which the task should read its inputs (depth
 * first over children in input order), so that every operator sees input 0 end before input 1
 * starts — what a hash join needs of its build and probe sides. Reading the inputs in any other
 * order is allowed where no operator cares; the operators themselves enforce their needs.
 *
 * <p>Sources take their place in the same depth-first order: a source runs (emits everything and
 * finishes its slot) once every leaf before it has finished — at {@link #start()} for the sources
 * that come first, else right after the {@link #finish} of the input before it. So a VALUES build
 * side is complete before the first probe batch, exactly like a build side that is a stage input. A
 * pipeline of sources only is finished by {@link #start()} alone. A stage input that {@linkplain
 * #neverEnds never ends} (a stream) holds no source back.
 *
 * <p>An unbounded task also passes {@linkplain #watermark(long) watermarks} through its operators
 * and checkpoints them: {@link #snapshotState(OutputStream)} and {@link #restoreState(InputStream)}
 * write and read the stateful operators' states as one stream (a Flink task's raw operator state),
 * {@link #snapshotState()} and {@link #restoreState(Map)} as arrays (tests, older checkpoints).
 *
 * <p>Owns its operators and sources: {@link #close()} closes every one of them.
 */
public final class TaskPipeline implements AutoCloseable {
  /** The first int32 of {@link #snapshotState(OutputStream)}: "QVS1". */
  public static final int STATE_MAGIC = 0x51565331;

  private final PipelineNode root;
  private final List<PipelineNode.Leaf> inputs; // by stage input index
  private final List<PipelineNode.Leaf> schedule; // every leaf, depth first
  private final List<PipelineNode> nodes;
  private int next; // the first leaf of the schedule that has not finished
  private int sourcesReached; // the number (depth first) of the next source the schedule reaches
  private IntPredicate rerun; // while a restore replays: the sources that run again; null: all
  private boolean started;

  private TaskPipeline(
      PipelineNode root,
      List<PipelineNode.Leaf> inputs,
      List<PipelineNode.Leaf> schedule,
      List<PipelineNode> nodes) {
    this.root = root;
    this.inputs = inputs;
    this.schedule = schedule;
    this.nodes = nodes;
  }

  /**
   * An operator without inputs: {@link #run()} emits all its batches to the sink it was created
   * with. Called at most once, by the pipeline; {@link #close()} is idempotent.
   */
  public interface Source extends AutoCloseable {
    void run();

    @Override
    void close();
  }

  /** A leaf: stage input {@code index} feeds the slot of the operator this is given to. */
  public static Spec input(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("input index must be >= 0: " + index);
    }
    return new Spec(index, null, null, List.of());
  }

  /**
   * An operator made by {@code factory} from the sink that receives its output, fed by {@code
   * children} (child i feeds input i of the operator).
   */
  public static Spec operator(Function<BatchSink, Operator> factory, Spec... children) {
    return new Spec(-1, requireNonNull(factory, "factory is null"), null, List.of(children));
  }

  /** A leaf source made by {@code factory} from the sink that receives its output. */
  public static Spec source(Function<BatchSink, Source> factory) {
    return new Spec(-1, null, requireNonNull(factory, "factory is null"), List.of());
  }

  /**
   * Builds the pipeline whose root writes to {@code sink}. Stage inputs must be 0..n-1, once each.
   */
  public static TaskPipeline build(Spec root, BatchSink sink) {
    requireNonNull(root, "root is null");
    requireNonNull(sink, "sink is null");
    if (root.isInput()) {
      throw new IllegalArgumentException("the root of a task pipeline must be an operator");
    }
    List<PipelineNode.Leaf> schedule = new ArrayList<>();
    List<PipelineNode> nodes = new ArrayList<>();
    try {
      PipelineNode top = PipelineAssembly.create(root, sink, null, -1, schedule, nodes);
      return new TaskPipeline(top, PipelineAssembly.byIndex(schedule), schedule, nodes);
    } catch (RuntimeException e) {
      nodes.forEach(PipelineNode::close);
      throw e;
    }
  }

  /** Number of stage inputs (sources not counted). */
  public int inputCount() {
    return inputs.size();
  }

  /** Stage inputs in the order the task should read them to completion. */
  public int[] inputOrder() {
    return schedule.stream()
        .filter(leaf -> !leaf.isSource())
        .mapToInt(leaf -> leaf.index)
        .toArray();
  }

  /**
   * Stage input {@code input} reads a stream and may never end (a streaming task's): the sources
   * after it in depth-first order do not wait for its end, they run with the ones before it (the
   * VALUES of {@code stream UNION ALL VALUES} would otherwise never run). Call before {@link
   * #start()}.
   */
  public void neverEnds(int input) {
    PipelineNode.Leaf leaf = leaf(input);
    if (started) {
      throw new IllegalStateException("stage input " + input + " marked endless after the start");
    }
    leaf.endless = true;
  }

  /**
   * Runs the sources that come before every stage input in depth-first order (stage inputs that
   * {@linkplain #neverEnds never end} not counted). Idempotent; the first {@link #add} or {@link
   * #finish} calls it when the driver has not.
   */
  public void start() {
    if (!started) {
      started = true;
      advance();
    }
  }

  /**
   * Whether {@link #start()} has run the leading sources: a streaming task's checkpoint says so,
   * since a restored pipeline must run them again to rebuild what they fed, never to emit again.
   */
  public boolean isStarted() {
    return started;
  }

  /**
   * While a restored task replays what ran before its checkpoint ({@code rerun} not null), the
   * sources the pipeline reaches run only if {@code rerun} holds for their number (depth first,
   * from 0); the others finish their slot without running, since what they emitted went downstream
   * or into an operator whose state was restored. Null (the default) runs every source.
   */
  public void rerunSources(IntPredicate rerun) {
    this.rerun = rerun;
  }

  /** Pushes one batch of stage input {@code input}; the pipeline takes ownership. */
  public void add(int input, VectorSchemaRoot batch) {
    PipelineNode.Leaf leaf;
    try {
      leaf = leaf(input);
      start();
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    leaf.consumer.operator.add(leaf.slot, batch);
  }

  /** Stage input {@code input} has no more batches; sources waiting for it run now. */
  public void finish(int input) {
    PipelineNode.Leaf leaf = leaf(input);
    if (leaf.finished) {
      throw new IllegalStateException("stage input " + input + " finished twice");
    }
    start();
    leaf.finished = true;
    finishSlot(leaf.consumer, leaf.slot);
    advance();
  }

  /** Whether every operator, up to the root, has finished. */
  public boolean isFinished() {
    return root.unfinished == 0;
  }

  /**
   * {@linkplain Operator#flush() Flushes} every operator, each after all the operators that feed
   * it, so the rows a task holds only to fill batches reach its sink: what an unbounded task does
   * before a watermark or checkpoint barrier passes it.
   */
  public void flush() {
    for (int i = nodes.size() - 1; i >= 0; i--) { // nodes are in pre-order: children after parents
      PipelineNode node = nodes.get(i);
      if (node.operator != null) {
        node.operator.flush();
      }
    }
  }

  /**
   * Passes the event-time {@linkplain Operator#watermark(long) watermark} {@code millis} through
   * every operator, each after all the operators that feed it: what an upstream operator emits for
   * the watermark (a window it completes, rows it held) reaches the operator downstream before that
   * one sees the watermark, so it is not late there.
   */
  public void watermark(long millis) {
    for (int i = nodes.size() - 1; i >= 0; i--) { // reverse pre-order: children before parents
      PipelineNode node = nodes.get(i);
      if (node.operator != null) {
        node.operator.watermark(millis);
      }
    }
  }

  /**
   * The {@linkplain Operator#snapshotState() states} of the stateful operators, keyed by each
   * operator's position in the pipeline (depth first, the root 0), which the same spec always gives
   * the same operator: {@link #restoreState} of a pipeline built from the same plan matches them
   * up. Empty when no operator keeps state. The driver {@linkplain #flush() flushes} first.
   */
  public SortedMap<Integer, byte[]> snapshotState() {
    SortedMap<Integer, byte[]> states = new TreeMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      Operator operator = nodes.get(i).operator;
      if (operator != null && operator.isStateful()) {
        states.put(i, requireNonNull(operator.snapshotState(), operator + " gave a null state"));
      }
    }
    return Collections.unmodifiableSortedMap(states);
  }

  /**
   * Restores every stateful operator from {@code states}, a {@link #snapshotState()} of a pipeline
   * of the same plan, before any input (and before {@link #start()}). The positions must be exactly
   * those of this pipeline's stateful operators: anything else is the snapshot of another plan.
   */
  public void restoreState(Map<Integer, byte[]> states) {
    requireNonNull(states, "states is null");
    if (started) {
      throw new IllegalStateException("a task pipeline restores its state before its first input");
    }
    SortedMap<Integer, Operator> stateful = checkPositions(new TreeSet<>(states.keySet()));
    stateful.forEach((position, operator) -> operator.restoreState(states.get(position)));
  }

  /**
   * Whether an operator of this pipeline is stateful: {@link #snapshotState(OutputStream)} has one.
   */
  public boolean hasState() {
    return !statefulOperators().isEmpty();
  }

  /**
   * Writes the states of the stateful operators to {@code out} as they go ({@link
   * Operator#snapshotState(OutputStream)}), without assembling any:
   *
   * <pre>
   *   magic      int32 {@value #STATE_MAGIC} ("QVS1")
   *   operators  int32 n, then n int32 positions (as {@link #snapshotState()} keys them)
   *   states     per position in that order, its operator's state in {@link StateFrames} chunks
   * </pre>
   *
   * The driver {@linkplain #flush() flushes} first. {@code out} is not closed.
   *
   * @throws IOException if {@code out} fails
   */
  public void snapshotState(OutputStream out) throws IOException {
    requireNonNull(out, "out is null");
    SortedMap<Integer, Operator> stateful = statefulOperators();
    DataOutputStream data = new DataOutputStream(StateStreams.unclosable(out));
    data.writeInt(STATE_MAGIC);
    data.writeInt(stateful.size());
    for (int position : stateful.keySet()) {
      data.writeInt(position);
    }
    for (Operator operator : stateful.values()) {
      StateFrames.Writer frames = new StateFrames.Writer(data);
      operator.snapshotState(frames);
      frames.finish();
    }
    data.flush();
  }

  /**
   * Restores every stateful operator from a stream {@link #snapshotState(OutputStream)} wrote,
   * before any input (and before {@link #start()}), each from its own state and no further. The
   * positions must be exactly those of this pipeline's stateful operators, and each operator must
   * read its state to its end: anything else is the snapshot of another plan.
   *
   * @throws IOException if {@code in} fails or ends early
   */
  public void restoreState(InputStream in) throws IOException {
    requireNonNull(in, "in is null");
    if (started) {
      throw new IllegalStateException("a task pipeline restores its state before its first input");
    }
    DataInputStream data = new DataInputStream(StateStreams.unclosable(in));
    int magic = data.readInt();
    if (magic != STATE_MAGIC) {
      throw new IllegalArgumentException(
          "not a task pipeline state: it begins with 0x" + Integer.toHexString(magic));
    }
    int count = data.readInt();
    if (count < 0 || count > 1 << 16) {
      throw new IllegalArgumentException(
          "a task pipeline state is corrupt: " + count + " operator states");
    }
    List<Integer> positions = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      positions.add(data.readInt());
    }
    SortedMap<Integer, Operator> stateful = checkPositions(positions);
    for (int position : positions) {
      Operator operator = stateful.get(position);
      StateFrames.Reader state = new StateFrames.Reader(data);
      operator.restoreState(state);
      long unread = state.drain();
      if (unread > 0) {
        throw new IllegalArgumentException(
            operator
                + " left "
                + unread
                + " bytes of its state unread (a snapshot of another plan?)");
      }
    }
  }

  private SortedMap<Integer, Operator> statefulOperators() {
    SortedMap<Integer, Operator> stateful = new TreeMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      Operator operator = nodes.get(i).operator;
      if (operator != null && operator.isStateful()) {
        stateful.put(i, operator);
      }
    }
    return stateful;
  }

  private SortedMap<Integer, Operator> checkPositions(Collection<Integer> positions) {
    SortedMap<Integer, Operator> stateful = statefulOperators();
    Set<Integer> given = new TreeSet<>(positions);
    if (given.size() != positions.size() || !stateful.keySet().equals(given)) {
      throw new IllegalArgumentException(
          "a snapshot of the stateful operators at positions "
              + positions
              + " cannot restore this pipeline, whose stateful operators are at "
              + stateful.keySet()
              + " (a snapshot of another plan?):\n"
              + this);
    }
    return stateful;
  }

  /** Moves past finished leaves, running each source reached. */
  private void advance() {
    while (next < schedule.size()) {
      PipelineNode.Leaf leaf = schedule.get(next);
      if (!leaf.finished && !leaf.endless) {
        if (!leaf.isSource()) {
          return; // a stage input that has not ended yet: later sources wait for it
        }
        leaf.finished = true; // before running: a source runs at most once, even if it fails
        int number = sourcesReached++;
        if (rerun == null || rerun.test(number)) {
          leaf.source.source.run();
        }
        leaf.source.unfinished = 0;
        if (leaf.consumer != null) {
          finishSlot(leaf.consumer, leaf.slot);
        }
      }
      next++;
    }
  }

  private void finishSlot(PipelineNode node, int slot) {
    node.operator.finish(slot);
    if (--node.unfinished == 0 && node.parent != null) {
      finishSlot(node.parent, node.slot);
    }
  }

  private PipelineNode.Leaf leaf(int input) {
    if (input < 0 || input >= inputs.size()) {
      throw new IllegalArgumentException("no stage input " + input + " in " + this);
    }
    return inputs.get(input);
  }

  /**
   * The task's event-time input has gone idle: every operator, upstream first, emits what it can
   * ({@link Operator#idle()}); true if none holds rows waiting for a watermark.
   */
  public boolean idle() {
    boolean empty = true;
    for (int i = nodes.size() - 1; i >= 0; i--) { // reverse pre-order: children before parents
      PipelineNode node = nodes.get(i);
      if (node.operator != null) {
        empty &= node.operator.idle();
      }
    }
    return empty;
  }

  /** The late rows its operators dropped ({@link Operator#lateRows()}), for a task's metric. */
  public long lateRows() {
    long rows = 0;
    for (PipelineNode node : nodes) {
      if (node.operator != null) {
        rows += node.operator.lateRows();
      }
    }
    return rows;
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (PipelineNode node : nodes) {
      try {
        node.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** The operators, one per line, children indented below their parent. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    describe(root, 0, text);
    return text.toString();
  }

  private void describe(PipelineNode node, int depth, StringBuilder text) {
    text.append("  ".repeat(depth)).append(node).append('\n');
    for (PipelineNode child : nodes) {
      if (child.parent == node) {
        describe(child, depth + 1, text);
      }
    }
    for (PipelineNode.Leaf leaf : inputs) {
      if (leaf.consumer == node) {
        text.append("  ".repeat(depth + 1)).append("Input[").append(leaf.index).append("]\n");
      }
    }
  }

  /** What to build: a stage input leaf, a source leaf, or an operator over children. */
  public static final class Spec {
    final int input;
    final Function<BatchSink, Operator> factory;
    final Function<BatchSink, Source> sourceFactory;
    final List<Spec> children;

    private Spec(
        int input,
        Function<BatchSink, Operator> factory,
        Function<BatchSink, Source> sourceFactory,
        List<Spec> children) {
      this.input = input;
      this.factory = factory;
      this.sourceFactory = sourceFactory;
      this.children = children;
    }

    boolean isInput() {
      return factory == null && sourceFactory == null;
    }
  }
}
