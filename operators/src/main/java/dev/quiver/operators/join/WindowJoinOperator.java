package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.StateStreams;
import dev.quiver.operators.kernel.WindowBuffers;
import dev.quiver.operators.kernel.WindowClock;
import dev.quiver.plan.join.JoinKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Event-time window join for unbounded inputs (Flink SQL's window join): the rows of both inputs
 * are held per window until the watermark completes the window, then the window's rows are joined
 * by a {@link HashJoinOperator} of their own and forgotten.
 *
 * <pre>
 *   build (input 0) ─┐                          ┌► late, no window: dropped and counted
 *                    ├─► WindowBuffers: split by ─┤
 *   probe (input 1) ─┘   window end, any order  └► window e: [build batches] [probe batches]
 *   watermark(w) ─► each window with end ≤ (w + 1) ms, in order of end:
 *                   build batches ─finish(0)─► HashJoinOperator ◄─ probe batches ─finish(1)
 *                                                    └─► coalesced across windows ─► sink
 *   finish(0) and finish(1), in either order ─► every window left
 * </pre>
 *
 * <p>Arguments, sides (left means probe, right means build), matching and output schema are {@link
 * HashJoinOperator}'s, so every {@link JoinKind} yields per window exactly the batch join of that
 * window's rows; plus {@code buildWindowEnd} and {@code probeWindowEnd}: the column of each input
 * holding a row's window end, a TIMESTAMP (MICROSECOND, no time zone), as the window aggregate's.
 * Unlike the hash join, both inputs stream: their batches may come interleaved in any order, and
 * they finish in any order (a repeated finish of an input does nothing).
 *
 * <p>Completion, late rows and rows without a window are the window aggregate's: a window is
 * complete once {@code end ≤ (watermark + 1) · 1000} µs; a row of a complete window is dropped and
 * counted in {@link #lateRows()}, a row whose window end is NULL in {@link #rowsWithoutWindow()}.
 * Watermarks that do not advance do nothing. A window whose rows cannot produce any output (an
 * INNER join with rows on one side only) is dropped without a join.
 *
 * <p>The residual {@code filter} (or null) is shared by the joins of every window: they run one
 * after the other on the task's thread, as the partitions of a spilled hash join share theirs, so a
 * filter with scratch state between calls ({@code ResidualJoinFilter}) is fine; a filter must not
 * keep anything from one join to the next.
 *
 * <p>Memory: the buffered batches are reserved in the task's budget until their window is joined.
 * Without a {@linkplain OperatorContext#spillSpace() spill space}, exceeding it fails with
 * MEMORY_BUDGET_EXCEEDED naming this operator. With one, the buffers spill ({@link WindowBuffers}:
 * the rows of the windows that end last go to spill files, per window and input, until half the
 * budget's use is free, as the window aggregate spills its windows) and a window's rows come back
 * in the order they came, one batch at a time, when it is joined; a window's hash join spills like
 * any other. The bytes, rows and files spilled reach the task's metrics through its spill space.
 *
 * <p>Checkpoints: {@link #snapshotState(OutputStream)} writes the watermark, the counters, which
 * inputs finished and the buffered rows, spilled ones included ({@link WindowJoinSnapshot}), to its
 * stream one batch at a time: rows in memory as they are, spilled ones reread from their files one
 * batch at a time ({@link dev.quiver.operators.spill.SpillFile#reread}: the files stay, nothing is
 * copied), so no more than a batch of the state is ever on the heap. A restore reads a batch at a
 * time and buffers it again as input (a small budget spills again); it also reads the version 1
 * byte arrays of savepoints written before. Not thread-safe.
 */
public final class WindowJoinOperator implements Operator {
  private final OperatorContext context;
  private final Schema buildSchema;
  private final Schema probeSchema;
  private final int[] windowEnd; // per input
  private final String description;
  private final Schema output;
  private final WindowBuffers windows;
  private final WindowJoins joins;
  private final boolean[] finished = new boolean[2];
  private final WindowClock clock = new WindowClock();
  private boolean started; // input, a watermark or a restore came
  private boolean done; // both inputs finished: everything emitted
  private boolean closed;

  /**
   * A window join of {@code kind} on {@code buildKeys} = {@code probeKeys} with the residual
   * condition {@code filter} (or null), each row in the window ending at its {@code buildWindowEnd}
   * resp. {@code probeWindowEnd} column.
   */
  public WindowJoinOperator(
      OperatorContext context,
      JoinKind kind,
      Schema buildSchema,
      int[] buildKeys,
      Schema probeSchema,
      int[] probeKeys,
      JoinFilter filter,
      int buildWindowEnd,
      int probeWindowEnd,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    requireNonNull(kind, "kind is null");
    this.buildSchema = requireNonNull(buildSchema, "buildSchema is null");
    this.probeSchema = requireNonNull(probeSchema, "probeSchema is null");
    int[] build = requireNonNull(buildKeys, "buildKeys is null").clone();
    int[] probe = requireNonNull(probeKeys, "probeKeys is null").clone();
    this.windowEnd = new int[] {buildWindowEnd, probeWindowEnd};
    this.description = describe(kind, build, probe, windowEnd, filter);
    JoinInputs.checkKeys(buildSchema, build, probeSchema, probe);
    if (kind.nullAware() && (build.length != 1 || filter != null)) {
      throw new IllegalArgumentException(
          "a null-aware join takes exactly one key column and no filter: " + description);
    }
    JoinInputs.checkWindowEnd(description, buildSchema, buildWindowEnd, "build");
    JoinInputs.checkWindowEnd(description, probeSchema, probeWindowEnd, "probe");
    this.output = kind.type().outputSchema(probeSchema, buildSchema);
    BatchSink out = requireNonNull(sink, "sink is null");
    this.joins =
        new WindowJoins(
            context, kind, buildSchema, build, probeSchema, probe, filter, out, description);
    this.windows =
        new WindowBuffers(
            context.budget(), context.allocator(), context.spillSpace(), 2, description);
  }

  /** The schema of the output batches (as {@link HashJoinOperator}'s). */
  public Schema outputSchema() {
    return output;
  }

  @Override
  public int inputs() {
    return 2;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    try {
      checkInput(input);
      if (closed || done || finished[input]) {
        throw new IllegalStateException(
            description + " received a batch of input " + input + " after its finish or close");
      }
      JoinInputs.checkSchema(this, input, batch, input == 0 ? buildSchema : probeSchema);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    started = true;
    keep(input, batch, clock.completeUpTo());
  }

  /** Keeps the rows of {@code batch} (taking ownership) in their windows. */
  private void keep(int input, VectorSchemaRoot batch, long complete) {
    try {
      windows.add(input, batch, windowEnd[input], complete);
    } catch (QuiverException e) {
      throw explained(e);
    }
    clock.count(windows.late(), windows.nulls());
  }

  /** Joins every window that the watermark {@code millis} completes, and forgets it. */
  @Override
  public void watermark(long millis) {
    started = true;
    if (closed || done || !clock.advance(millis)) {
      return;
    }
    joinUpTo(clock.completeUpTo());
  }

  /** Nothing is emitted early (a window needs its watermark): idle only without open windows. */
  @Override
  public boolean idle() {
    return closed || done || windows.size() == 0;
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    if (done || finished[input]) {
      return;
    }
    if (closed) {
      throw new IllegalStateException(description + " is closed");
    }
    finished[input] = true;
    if (finished[0] && finished[1]) {
      done = true;
      try {
        joinUpTo(Long.MAX_VALUE);
      } finally {
        close(); // the state is no longer needed: return its memory now
      }
    }
  }

  /** Joins the windows ending at or before {@code end}, in order of end; emits what they give. */
  private void joinUpTo(long end) {
    try {
      for (WindowBuffers.Window next = windows.pollUpTo(end); next != null; ) {
        try (WindowBuffers.Window window = next) {
          joins.join(window);
        }
        next = windows.pollUpTo(end);
      }
      joins.flush();
    } catch (QuiverException e) {
      if (context.spillSpace().canSpill()) {
        throw e; // the window's hash join says what it could not do
      }
      throw explained(e);
    }
  }

  private QuiverException explained(QuiverException e) {
    if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
      return e;
    }
    if (context.spillSpace().canSpill()) {
      return new QuiverException(
          e.code(),
          description
              + " cannot split a batch of an input by window even with the rows of every other"
              + " open window spilled: give the task more memory or use more tasks ("
              + e.getMessage()
              + ")",
          e);
    }
    return new QuiverException(
        e.code(),
        description
            + " keeps the rows of every open window of both inputs in memory and cannot spill"
            + " them: give the task more memory, use more tasks or let the watermark lag less ("
            + e.getMessage()
            + ")",
        e);
  }

  /** Rows dropped because their window was complete when they came (both inputs). */
  @Override
  public long lateRows() {
    return clock.lateRows();
  }

  /** Rows dropped because their window end was NULL (both inputs). */
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
   * The buffered rows, the watermark, the counters and the finished inputs ({@link
   * WindowJoinSnapshot}), assembled from {@link #snapshotState(OutputStream)}.
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
    WindowJoinSnapshot.Header header =
        new WindowJoinSnapshot.Header(
            clock.watermark(),
            clock.lateRows(),
            clock.rowsWithoutWindow(),
            finished[0],
            finished[1]);
    WindowJoinSnapshot.write(out, header, buildSchema, probeSchema, windows);
  }

  @Override
  public void restoreState(byte[] state) {
    requireNonNull(state, "state is null");
    StateStreams.fromBytes(this, state);
  }

  /**
   * Re-buffers the snapshot's rows batch by batch as they are read (spilling when the budget
   * refuses, as input does); also reads the byte-array format of version 1.
   */
  @Override
  public void restoreState(InputStream in) throws IOException {
    requireNonNull(in, "in is null");
    if (started || closed) {
      throw new IllegalStateException(description + " restores its state before any input");
    }
    started = true;
    WindowJoinSnapshot.Header header =
        WindowJoinSnapshot.read(
            in,
            buildSchema,
            probeSchema,
            context.allocator(),
            (batch, side) -> keep(side, batch, Long.MIN_VALUE));
    clock.restore(header.watermark(), header.lateRows(), header.rowsWithoutWindow());
    finished[0] = header.buildFinished();
    finished[1] = header.probeFinished();
    if (finished[0] && finished[1]) {
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
    try (joins) {
      windows.close();
    }
  }

  private void checkInput(int input) {
    if (input != 0 && input != 1) {
      throw new IllegalArgumentException(
          description + " has inputs 0 (build) and 1 (probe), not " + input);
    }
  }

  /**
   * One line: {@code WindowJoin[INNER, build=[#0, #2], probe=[#1, #3], window end build=#2
   * probe=#3, filter=...]}.
   */
  @Override
  public String toString() {
    return description;
  }

  private static String describe(
      JoinKind kind, int[] buildKeys, int[] probeKeys, int[] windowEnd, JoinFilter filter) {
    return "WindowJoin["
        + kind
        + ", build="
        + JoinInputs.describe(buildKeys)
        + ", probe="
        + JoinInputs.describe(probeKeys)
        + ", window end build=#"
        + windowEnd[0]
        + " probe=#"
        + windowEnd[1]
        + (filter == null ? "" : ", filter=" + filter)
        + "]";
  }
}
