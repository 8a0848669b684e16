package dev.quiver.operators.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.StateStreams;
import dev.quiver.operators.kernel.WindowClock;
import dev.quiver.operators.kernel.WindowSplitter;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Event-time window aggregation for unbounded inputs: {@code GROUP BY window_start, window_end,
 * ...} over the rows of a windowing table function, one hash aggregate per open window, each
 * emitted once the watermark passes the window's end and then forgotten.
 *
 * <pre>
 *   batch ─► OpenWindows: split by window end ─► late, no window: dropped and counted
 *                                             └► rows of window e ─► groups of e
 *   watermark(w) ─► each window with end ≤ (w + 1) ms, in order of end ─► keys + states or values
 *   finish ─► every window left
 * </pre>
 *
 * <p>Arguments, modes and column layout are those of {@link HashAggregateOperator} (FINAL reads
 * PARTIAL's output), plus {@code windowEnd}: the input column of the window end, a TIMESTAMP
 * (MICROSECOND, no time zone) that must be one of the group keys and is named as they are (in FINAL
 * mode by the PARTIAL's input column). HOP windows put a row in several windows, but the plan
 * repeats such a row once per window before the aggregate, so every row has one window end.
 *
 * <p>Completion is Flink's: a window {@code [start, end)} is complete once the watermark reaches
 * its last millisecond, {@code floor((end - 1 µs) / 1 ms)} — {@code end - 1 ms} for an end on a
 * whole millisecond — that is once {@code end ≤ (watermark + 1) · 1000} µs, since a watermark
 * {@code w} promises that later rows are at {@code w + 1} ms or after. A row whose window is
 * complete when it arrives is late: dropped and counted ({@link #lateRows()}). A row whose window
 * end is NULL (no event time) is in no window: dropped and counted apart ({@link
 * #rowsWithoutWindow()}), since it is a data problem, not lateness. Watermarks that do not advance
 * do nothing. {@link #finish} (a bounded input ended) emits every window left.
 *
 * <p>Every mode, PARTIAL too: a partial aggregate that held its groups only until the next
 * watermark would send each group once per watermark; holding them until the window completes sends
 * it once. The partial states of a window reach the FINAL before the watermark that completes it (a
 * task emits them before passing that watermark on), so they are never late there.
 *
 * <p>Memory: the groups of each window are reserved in the task's budget as a hash aggregate's.
 * Without a {@linkplain OperatorContext#spillSpace() spill space}, a batch the budget cannot take
 * even row by row fails with MEMORY_BUDGET_EXCEEDED naming this operator. With one, a refused batch
 * makes room first and is tried again, as the hash aggregate's does ({@link OpenWindows}):
 *
 * <ul>
 *   <li>PARTIAL emits the partial states of every open window at once and lets go of them (no
 *       disk). The FINAL merges the states of one window from several emissions anyway, and they
 *       are never late there: a window open here ends after this task's watermark, the FINAL's
 *       watermark is at most the smallest of its inputs', so at most this task's, and this task
 *       sends the states before any later watermark. The {@link #idle()} path relies on the same.
 *   <li>FINAL and SINGLE spill the groups of open windows, the window that ends last first, until
 *       half the budget's use is free: each as one run of keys and partial states in a spill file.
 *       The first window is the one the watermark completes soonest, which frees its memory without
 *       a disk round trip; the last stays open longest and is merged last, once the windows before
 *       it have gone. When the watermark completes a window that spilled, its runs are folded into
 *       its groups and emitted ({@link SpillMerge#mergeRuns}: one pass while they fit, the hash
 *       aggregate's partitioned merge when they do not). Output rows and the watermarks they come
 *       at are those of an unlimited budget.
 * </ul>
 *
 * A window that cannot take one row even with every other window spilled or emitted still fails
 * with MEMORY_BUDGET_EXCEEDED. {@link #spills()} counts the spills (early emissions for PARTIAL);
 * the bytes, rows and files spilled reach the task's metrics through its spill space, as the hash
 * aggregate's do.
 *
 * <p>Checkpoints: {@link #snapshotState()} holds the open windows' groups as partial states, the
 * watermark and the counters ({@link WindowSnapshot}); the spilled windows' groups are read back
 * from their runs batch by batch (and copied to new runs: a spill file is read once), but the
 * snapshot is one byte array, so it is still held on the heap whole: writing it to Flink's
 * checkpoint streams is the next step. A restore folds the states back as input, spilling again
 * when the budget refuses (a PARTIAL spills then too: a restore emits nothing). Every call
 * therefore needs a partial state: DISTINCT calls and MEDIAN or percentiles are refused in every
 * mode (a plan rewrites {@code COUNT(DISTINCT x)} into a two-level aggregate).
 *
 * <p>It lives in {@code aggregate}, not a package of its own: it is a hash aggregate per window and
 * is made of the family's package-private parts ({@link GroupStates}, {@link GroupFeeder}, {@link
 * AggregateLayout}, {@link Feed}, {@link AggregateOutput}), which another package would need made
 * public. Not thread-safe.
 */
public final class WindowAggregateOperator implements Operator {
  private final OperatorContext context;
  private final BatchSink sink;
  private final String description;
  private final Feed feed; // the input's
  private final Feed stateFeed; // a snapshot's groups: keys, then every call's states
  private final Schema stateSchema;
  private final int endKey; // position of the window end among the keys
  private final int endColumn; // its input column
  private final Schema output;
  private final OpenWindows windows;
  private final boolean partial;
  private final WindowClock clock = new WindowClock();
  private long spills; // FINAL, SINGLE: spills; PARTIAL: early emissions
  private boolean restoring; // restoreState is folding a snapshot: spill, never emit
  private boolean started; // input, a watermark or a restore came
  private boolean finished;
  private boolean closed;

  /**
   * @param input the schema of the input batches
   * @param groupKeys the group key columns of the rows (in FINAL mode: of the PARTIAL's input)
   * @param calls the aggregates, in output order; each must have a partial state
   * @param windowEnd the window end column, one of {@code groupKeys}
   * @param sink receives the output batches
   */
  public WindowAggregateOperator(
      OperatorContext context,
      Schema input,
      AggregateMode mode,
      int[] groupKeys,
      List<AggregateCall> calls,
      int windowEnd,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    this.sink = requireNonNull(sink, "sink is null");
    AggregateLayout layout = new AggregateLayout(input, mode, groupKeys, calls);
    this.partial = mode == AggregateMode.PARTIAL;
    List<AggregateCall> copy = List.copyOf(calls);
    this.description =
        AggregateLayout.describe(
            "WindowAggregate", mode, "windowEnd=#" + windowEnd + ", ", groupKeys, copy);
    this.endKey = keyPosition(groupKeys, windowEnd);
    this.endColumn = layout.keyColumns[endKey];
    checkWindowEnd(layout.keyFields.get(endKey));
    this.stateSchema = WindowSnapshot.groupsSchema(layout.keyFields, copy, description);
    this.feed = Feed.of(layout);
    this.stateFeed = Feed.spilledStates(groupKeys.length, copy);
    this.output = layout.output;
    this.windows = new OpenWindows(context, layout, copy, stateSchema, description);
  }

  private int keyPosition(int[] groupKeys, int windowEnd) {
    for (int k = 0; k < groupKeys.length; k++) {
      if (groupKeys[k] == windowEnd) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        description + ": the window end #" + windowEnd + " is not one of the group keys");
  }

  private void checkWindowEnd(Field field) {
    if (!(field.getType() instanceof ArrowType.Timestamp type)
        || type.getUnit() != TimeUnit.MICROSECOND
        || type.getTimezone() != null) {
      throw new IllegalArgumentException(
          description + ": the window end must be a TIMESTAMP (microseconds, no zone): " + field);
    }
  }

  /** The schema of the output batches (as {@link HashAggregateOperator}'s). */
  public Schema outputSchema() {
    return output;
  }

  /**
   * The window end (µs) up to which windows are complete at watermark {@code millis}: {@code
   * (millis + 1) · 1000}, saturated.
   */
  static long completeUpTo(long millis) {
    return WindowSplitter.completeUpTo(millis);
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    try (batch) {
      checkInput(input);
      if (finished || closed) {
        throw new IllegalStateException(description + " received a batch after finish or close");
      }
      started = true;
      if (batch.getRowCount() > 0) {
        fold(batch, endColumn, feed, clock.completeUpTo());
      }
    } catch (QuiverException e) {
      throw explained(e);
    }
  }

  /** Folds each window's rows of {@code batch} (which the caller keeps) into its groups. */
  private void fold(VectorSchemaRoot batch, int column, Feed by, long complete) {
    windows.add(batch, column, by, complete, this::relieve);
    clock.count(windows.late(), windows.nulls());
  }

  /**
   * Makes room when the budget refuses a slice of a batch: PARTIAL emits its open windows early,
   * FINAL and SINGLE (and a restoring PARTIAL, which must not emit) spill some to disk. Nothing
   * without a spill space, as the hash aggregate.
   */
  private boolean relieve() {
    if (!context.spillSpace().canSpill()) {
      return false;
    }
    boolean relieved = partial && !restoring ? windows.emitAll(sink) : windows.spillLatest();
    if (relieved) {
      spills++;
    }
    return relieved;
  }

  private QuiverException explained(QuiverException e) {
    if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
      return e;
    }
    if (context.spillSpace().canSpill()) {
      return new QuiverException(
          e.code(),
          description
              + " cannot fold one row into a window even with every other open window spilled"
              + " or emitted: give the task more memory or use more tasks ("
              + e.getMessage()
              + ")",
          e);
    }
    return new QuiverException(
        e.code(),
        description
            + " keeps the groups of every open window in memory and cannot spill them: give the"
            + " task more memory, use more tasks or let the watermark lag less ("
            + e.getMessage()
            + ")",
        e);
  }

  /** Emits every window that the watermark {@code millis} completes, and forgets it. */
  @Override
  public void watermark(long millis) {
    started = true;
    if (finished || closed || !clock.advance(millis)) {
      return;
    }
    windows.emitUpTo(clock.completeUpTo(), sink);
  }

  /**
   * PARTIAL: emits every open window's partial state now (the FINAL merges them with whatever this
   * task sends for those windows later), so an idle task holds nothing a watermark elsewhere could
   * overtake. FINAL and SINGLE hold complete groups only: they emit nothing early.
   */
  @Override
  public boolean idle() {
    if (finished || closed) {
      return true;
    }
    if (partial) {
      windows.emitUpTo(Long.MAX_VALUE, sink);
    }
    return windows.size() == 0;
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    if (finished) {
      return;
    }
    finished = true;
    try {
      windows.emitUpTo(Long.MAX_VALUE, sink);
    } finally {
      close(); // the state is no longer needed: return its memory now
    }
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

  /** How often windows were spilled (FINAL, SINGLE; or restoring) or emitted early (PARTIAL). */
  long spills() {
    return spills;
  }

  /** Spill files of windows' groups held now (FINAL, SINGLE). */
  int spilledRuns() {
    return windows.runs();
  }

  /** Windows held: not complete yet. */
  public int openWindows() {
    return windows.size();
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
   * The open windows' groups, spilled ones included, the watermark and the counters ({@link
   * WindowSnapshot}), assembled from {@link #snapshotState(OutputStream)}.
   */
  @Override
  public byte[] snapshotState() {
    return StateStreams.toBytes(this);
  }

  /** Writes the header, then the open windows' groups batch by batch as they come. */
  @Override
  public void snapshotState(OutputStream out) throws IOException {
    if (closed && !finished) {
      throw new IllegalStateException(description + " is closed: it has no state to snapshot");
    }
    WindowSnapshot.write(
        out,
        new WindowSnapshot.Header(clock.watermark(), clock.lateRows(), clock.rowsWithoutWindow()),
        stateSchema,
        windows);
  }

  @Override
  public void restoreState(byte[] state) {
    requireNonNull(state, "state is null");
    StateStreams.fromBytes(this, state);
  }

  @Override
  public void restoreState(InputStream in) throws IOException {
    requireNonNull(in, "in is null");
    if (started || closed) {
      throw new IllegalStateException(description + " restores its state before any input");
    }
    started = true;
    restoring = true;
    try {
      WindowSnapshot.Header header =
          WindowSnapshot.read(
              in,
              stateSchema,
              context.allocator(),
              groups -> fold(groups, endKey, stateFeed, Long.MIN_VALUE));
      clock.restore(header.watermark(), header.lateRows(), header.rowsWithoutWindow());
    } catch (QuiverException e) {
      throw explained(e);
    } finally {
      restoring = false;
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    windows.close();
  }

  private void checkInput(int input) {
    if (input != 0) {
      throw new IllegalArgumentException(description + " has one input, not input " + input);
    }
  }

  /** One line: {@code WindowAggregate[mode=FINAL, windowEnd=#1, keys=[#0, #1], aggs=[...]]}. */
  @Override
  public String toString() {
    return description;
  }
}
