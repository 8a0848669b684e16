package dev.quiver.operators.windowed;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.StateStreams;
import dev.quiver.operators.kernel.CoalescingOutput;
import dev.quiver.operators.kernel.WindowBuffers;
import dev.quiver.operators.kernel.WindowClock;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.sort.PartitionTopN;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A one-input batch operator run once per event-time window of an unbounded input: the rows are
 * held per window until the watermark completes the window, then a fresh inner operator gets the
 * window's rows, finishes, and is forgotten. Window functions partitioned by a window end (Flink
 * SQL's window top-N and window deduplication: {@code ROW_NUMBER() OVER (PARTITION BY window_start,
 * window_end ORDER BY ...)}) run so, with the sort they need, as the inner operator.
 *
 * <pre>
 *   batches ─► WindowBuffers: split by window end ─┬─► late, no window: dropped and counted
 *                                                   └─► window e: [batches, as they came]
 *   top-n only: window e past its threshold ─► PartitionTopN: its rows ranked ≤ n, sorted ─► e
 *   watermark(w) ─► each window with end ≤ (w + 1) ms, in order of end:
 *                   batches ─► fresh inner operator ─finish─► output coalesced across windows ─► sink
 *   finish(0) ─► every window left
 * </pre>
 *
 * <p>The inner operator must need nothing but one window's rows: its output for a window is what it
 * gives over that window's rows alone (a window function whose PARTITION BY holds the window end,
 * and the sort below it). Completion, late rows and rows without a window are the window
 * aggregate's and the window join's: a window is complete once {@code end ≤ (watermark + 1) · 1000}
 * µs; a row of a complete window is dropped and counted in {@link #lateRows()}, a row whose window
 * end is NULL in {@link #rowsWithoutWindow()}. Watermarks that do not advance do nothing. Nothing
 * is emitted before a watermark, so {@link #idle()} is true only without open windows.
 *
 * <p>Window top-N ({@link PartitionTopN}): when only the rows a ranking function numbers at most n
 * matter (a filter on the rank follows), a window's buffer is pruned to them whenever it grows past
 * twice what its last prune kept (at least a target batch), so a window holds O(n · partitions)
 * rows, not all of them. The rows kept are a prefix of each partition in the inner sort's order,
 * ties kept in the order they came, so the inner operator gives them exactly the values it would
 * give them over every row; rows beyond n may still reach it (those that came after the last prune)
 * and the filter above drops them.
 *
 * <p>Memory: the buffered batches are reserved in the task's budget until their window runs.
 * Without a {@linkplain OperatorContext#spillSpace() spill space}, exceeding it fails with
 * MEMORY_BUDGET_EXCEEDED naming this operator. With one, the buffers spill ({@link WindowBuffers}:
 * the rows of the windows that end last go to spill files until half the budget's use is free, as
 * the window aggregate spills its windows) and a window's rows come back in the order they came,
 * one batch at a time, when it runs; a window's inner sort spills like any other. A top-N prune
 * sees only a window's rows in memory, which came after its spilled ones: the spilled rows reach
 * the inner operator unpruned, which changes no rank (a prune of a contiguous run of a window's
 * rows keeps every row ranked within n over all of them, in the order the inner sort gives them).
 * The bytes, rows and files spilled reach the task's metrics through its spill space.
 *
 * <p>Checkpoints: {@link #snapshotState(OutputStream)} writes the watermark, the counters, whether
 * the input finished and the buffered rows, spilled ones included ({@link WindowedSnapshot}), to
 * its stream one batch at a time: rows in memory as they are, spilled ones reread from their files
 * one batch at a time ({@link dev.quiver.operators.spill.SpillFile#reread}: the files stay, nothing
 * is copied), so no more than a batch of the state is ever on the heap. A restore reads a batch at
 * a time and buffers it again as input (pruned for a top-N; a small budget spills again); it also
 * reads the version 1 byte arrays of savepoints written before. Not thread-safe.
 */
public final class WindowedOperator implements Operator {
  private final OperatorContext context;
  private final Schema inputSchema;
  private final int windowEnd;
  private final Function<BatchSink, Operator> inner;
  private final String description;
  private final WindowBuffers windows;
  private final CoalescingOutput out;
  private final TopNPruning pruning; // null: every row of a window is held
  private final WindowClock clock = new WindowClock();
  private boolean started; // input, a watermark or a restore came
  private boolean done; // the input finished: everything emitted
  private boolean closed;

  /**
   * Runs an operator made by {@code inner} (from the sink it writes to) over the rows of each
   * window of the input of {@code inputSchema}, a row's window end in column {@code windowEnd} (a
   * TIMESTAMP, microseconds, no time zone, as the window table functions make it).
   */
  public WindowedOperator(
      OperatorContext context,
      Schema inputSchema,
      int windowEnd,
      Function<BatchSink, Operator> inner,
      BatchSink sink) {
    this(context, inputSchema, windowEnd, inner, null, sink);
  }

  /**
   * As {@link #WindowedOperator(OperatorContext, Schema, int, Function, BatchSink)}, for an inner
   * operator whose output only matters for the rows that {@code topN} keeps (a window top-N whose
   * filter on the rank follows): each window's buffered rows are pruned to them whenever they grow
   * past twice what the last prune kept (at least a target batch), so a window holds about n rows
   * per partition instead of all its rows. Null: no pruning.
   */
  public WindowedOperator(
      OperatorContext context,
      Schema inputSchema,
      int windowEnd,
      Function<BatchSink, Operator> inner,
      PartitionTopN topN,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    this.inputSchema = requireNonNull(inputSchema, "inputSchema is null");
    this.windowEnd = windowEnd;
    this.inner = requireNonNull(inner, "inner is null");
    this.pruning = topN == null ? null : new TopNPruning(topN, context);
    this.description =
        "PerWindow[window end=#"
            + windowEnd
            + (topN == null ? "" : ", " + pruning)
            + ", "
            + describe(inner)
            + "]";
    WindowBuffers.checkEndColumn(description, inputSchema, windowEnd, "input");
    this.out = new CoalescingOutput(context, requireNonNull(sink, "sink is null"), description);
    this.windows =
        new WindowBuffers(
            context.budget(), context.allocator(), context.spillSpace(), 1, description);
  }

  /** The inner operator's one line: an operator is made (holding nothing yet) and closed again. */
  private static String describe(Function<BatchSink, Operator> inner) {
    try (Operator sample = inner.apply(VectorSchemaRoot::close)) {
      if (sample.inputs() != 1) {
        throw new IllegalArgumentException(
            "a per-window operator runs one-input operators, not " + sample);
      }
      return sample.toString();
    }
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    try {
      checkInput(input);
      if (closed || done) {
        throw new IllegalStateException(
            description + " received a batch after its finish or close");
      }
      if (!BatchTransfer.sameTypes(batch, inputSchema)) {
        throw new IllegalArgumentException(
            description + ": a batch of " + batch.getSchema() + " is not of " + inputSchema);
      }
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    started = true;
    keep(batch, clock.completeUpTo());
  }

  /** Keeps the rows of {@code batch} (taking ownership) in their windows, pruned for a top-N. */
  private void keep(VectorSchemaRoot batch, long complete) {
    try {
      windows.add(0, batch, windowEnd, complete);
      clock.count(windows.late(), windows.nulls());
      if (pruning != null) {
        pruning.afterAdd(windows);
      }
    } catch (QuiverException e) {
      throw explained(e);
    }
  }

  /** Runs every window that the watermark {@code millis} completes, and forgets it. */
  @Override
  public void watermark(long millis) {
    started = true;
    if (closed || done || !clock.advance(millis)) {
      return;
    }
    runUpTo(clock.completeUpTo());
  }

  /** Nothing is emitted early (a window needs its watermark): idle only without open windows. */
  @Override
  public boolean idle() {
    return closed || done || windows.size() == 0;
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    if (done) {
      return; // a restored task may say it again
    }
    if (closed) {
      throw new IllegalStateException(description + " is closed");
    }
    done = true;
    try {
      runUpTo(Long.MAX_VALUE);
    } finally {
      close(); // the state is no longer needed: return its memory now
    }
  }

  /**
   * Runs the windows ending at or before {@code end}, in order of end; emits what they give. An
   * inner operator's errors are its own (a window partition too large for the budget names the
   * window function).
   */
  private void runUpTo(long end) {
    for (WindowBuffers.Window next = windows.pollUpTo(end); next != null; ) {
      try (WindowBuffers.Window window = next;
          Operator operator = inner.apply(out::add)) {
        for (VectorSchemaRoot batch = window.next(0); batch != null; batch = window.next(0)) {
          operator.add(0, batch);
        }
        operator.finish(0);
      }
      next = windows.pollUpTo(end);
    }
    if (pruning != null) {
      pruning.forgetUpTo(end);
    }
    out.flush();
  }

  /** A budget error while buffering, with what to do about it. */
  private QuiverException explained(QuiverException e) {
    if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
      return e;
    }
    if (context.spillSpace().canSpill()) {
      return new QuiverException(
          e.code(),
          description
              + " cannot split a batch by window even with the rows of every other open window"
              + " spilled: give the task more memory or use more tasks ("
              + e.getMessage()
              + ")",
          e);
    }
    return new QuiverException(
        e.code(),
        description
            + (pruning == null
                ? " keeps the rows of every open window"
                : " keeps the top rows of each partition of every open window")
            + " in memory and cannot spill them: give the task"
            + " more memory, use more tasks or let the watermark lag less ("
            + e.getMessage()
            + ")",
        e);
  }

  /** Rows dropped because their window was complete when they came. */
  @Override
  public long lateRows() {
    return clock.lateRows();
  }

  /** Rows dropped because their window end was NULL. */
  public long rowsWithoutWindow() {
    return clock.rowsWithoutWindow();
  }

  /** Windows held: not complete yet. */
  public int openWindows() {
    return windows.size();
  }

  /** Spill files of buffered rows held now. */
  int spilledFiles() {
    return windows.spilledFiles();
  }

  /** How often buffered rows were written to a spill file. */
  long spills() {
    return windows.spills();
  }

  /** The last watermark seen, {@code Long.MIN_VALUE} before the first. */
  public long currentWatermark() {
    return clock.watermark();
  }

  @Override
  public boolean isStateful() {
    return true;
  }

  /**
   * The buffered rows, the watermark, the counters and whether the input finished ({@link
   * WindowedSnapshot}), assembled from {@link #snapshotState(OutputStream)}.
   */
  @Override
  public byte[] snapshotState() {
    return StateStreams.toBytes(this);
  }

  /**
   * Writes the header, then the buffered rows batch by batch, window after window (spilled rows
   * read from their files one batch at a time; the files stay).
   */
  @Override
  public void snapshotState(OutputStream out) throws IOException {
    requireNonNull(out, "out is null");
    if (closed && !done) {
      throw new IllegalStateException(description + " is closed: it has no state to snapshot");
    }
    WindowedSnapshot.Header header =
        new WindowedSnapshot.Header(
            clock.watermark(), clock.lateRows(), clock.rowsWithoutWindow(), done);
    WindowedSnapshot.write(out, header, inputSchema, windows);
  }

  @Override
  public void restoreState(byte[] state) {
    requireNonNull(state, "state is null");
    StateStreams.fromBytes(this, state);
  }

  /**
   * Re-buffers the snapshot's rows batch by batch as they are read (pruned for a top-N, spilling
   * when the budget refuses, as input does); also reads the byte-array format of version 1.
   */
  @Override
  public void restoreState(InputStream in) throws IOException {
    requireNonNull(in, "in is null");
    if (started || closed) {
      throw new IllegalStateException(description + " restores its state before any input");
    }
    started = true;
    WindowedSnapshot.Header header =
        WindowedSnapshot.read(
            in, inputSchema, context.allocator(), batch -> keep(batch, Long.MIN_VALUE));
    clock.restore(header.watermark(), header.lateRows(), header.rowsWithoutWindow());
    if (header.finished()) {
      done = true;
      close();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (out) {
      windows.close();
    }
  }

  private void checkInput(int input) {
    if (input != 0) {
      throw new IllegalArgumentException(description + " has one input, 0, not " + input);
    }
  }

  /** One line: {@code PerWindow[window end=#1, Window[...] ← Sort[...]]}. */
  @Override
  public String toString() {
    return description;
  }
}
