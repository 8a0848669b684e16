package dev.quiver.operators.kernel;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.SpillSpace;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The event-time windows an operator has not run yet, by window end (micros), each with the
 * buffered rows of each of its inputs ("sides": one for a per-window operator, two for a window
 * join) as they came: whole batches where a batch fell into one window, else each window's rows of
 * the batch ({@link WindowSplitter}: a slice sharing the batch's buffers when they are contiguous,
 * a gather otherwise).
 *
 * <pre>
 *   end 10:00:10 ─► side 0: [b1, b3']   side 1: [p2]      pollUpTo(10:00:20) ─► 10:00:10, then
 *   end 10:00:20 ─► side 0: [b3'']      side 1: [p4, p5]                        10:00:20
 *   end 10:00:30 ─► side 0: []          side 1: [p5']     (stays)
 * </pre>
 *
 * Every batch held in memory is reserved in the task's budget (the capacity of its buffers) until
 * it is handed out by {@link Window#next} or spilled. A slice shares its buffers with the other
 * windows' slices of the same batch, so until the last of them is released the memory held can
 * exceed what is reserved by the rest of that one batch; spilling a slice releases exactly what it
 * reserved, like handing it out. {@link #rewrite} replaces a window's rows of a side by fewer (a
 * window top-N keeps the top rows of each partition); later batches follow them.
 *
 * <p>Spilling: without a {@linkplain SpillSpace#canSpill() spill space} a batch the budget refuses
 * is the budget's error. With one, the refusal makes room first, by the window aggregate's policy:
 * the rows in memory of the open windows that end last are written to spill files ({@link
 * SpilledRows}, one file per window and side each time), window after window, until half of the
 * budget's use before the spill is free, and the batch is tried again. The window that ends first
 * is the one the watermark hands out soonest, so its rows stay in memory longest; the last one
 * waits longest, so its rows are read back last. When the budget still refuses, the batch's rows go
 * straight to a file of their window. A spilled window keeps taking rows (into memory while the
 * budget allows, else into more files), and {@link Window#next} hands its rows out in the order
 * they came: the files' batches first, file after file in the order written (each file deleted once
 * read), then the batches in memory; one batch read back at a time, not reserved here (the caller
 * reserves what it keeps, as for a batch from memory). A window handed out by {@link #pollUpTo}
 * gets room to run in (its join or sort needs memory beside its rows): while more than half the
 * budget is used, the windows that end last spill. {@link #forEachBatch} (a snapshot) rereads the
 * spill files one batch at a time ({@link dev.quiver.operators.spill.SpillFile#reread}) and leaves
 * them as they are: a checkpoint writes nothing to disk. The bytes, rows and files spilled are
 * counted by the spill space, as every operator's.
 *
 * <p>Not thread-safe.
 */
public final class WindowBuffers implements AutoCloseable {
  private final MemoryBudget budget;
  private final BufferAllocator allocator;
  private final SpillSpace space;
  private final int sides;
  private final String purpose; // how budget errors name what is reserved
  private final WindowSplitter splitter;
  private final TreeMap<Long, Window> byEnd = new TreeMap<>();
  private int late;
  private int nulls;
  private int added; // windows the last add gave rows
  private long spills; // times rows were moved to disk

  /** Buffers of {@code sides} inputs, reserved in {@code budget} for {@code owner}; no spilling. */
  public WindowBuffers(MemoryBudget budget, BufferAllocator allocator, int sides, String owner) {
    this(budget, allocator, SpillSpace.NONE, sides, owner);
  }

  /**
   * Buffers of {@code sides} inputs, reserved in {@code budget} for {@code owner}, spilling to
   * {@code space} when the budget refuses a batch (never for {@link SpillSpace#NONE}).
   */
  public WindowBuffers(
      MemoryBudget budget, BufferAllocator allocator, SpillSpace space, int sides, String owner) {
    this.budget = requireNonNull(budget, "budget is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.space = requireNonNull(space, "space is null");
    if (sides < 1) {
      throw new IllegalArgumentException("window buffers need at least one side: " + sides);
    }
    this.sides = sides;
    this.purpose = "the buffered rows of the open windows of " + owner;
    this.splitter = new WindowSplitter(budget, owner);
  }

  /**
   * Checks that column {@code column} of {@code schema} can hold window ends: a TIMESTAMP
   * (microseconds, no time zone), as the window table functions make them.
   *
   * @throws IllegalArgumentException naming {@code operator} and the {@code side} otherwise
   */
  public static void checkEndColumn(Object operator, Schema schema, int column, String side) {
    Field field =
        column >= 0 && column < schema.getFields().size() ? schema.getFields().get(column) : null;
    if (field == null
        || !(field.getType() instanceof ArrowType.Timestamp type)
        || type.getUnit() != TimeUnit.MICROSECOND
        || type.getTimezone() != null) {
      throw new IllegalArgumentException(
          operator
              + ": the "
              + side
              + " window end #"
              + column
              + " must be a TIMESTAMP (microseconds, no zone) column of "
              + schema);
    }
  }

  /**
   * Takes ownership of {@code batch} of {@code side} and keeps each window's rows of it, the window
   * end in column {@code endColumn}; drops the rows of windows ending at or before {@code
   * completeUpTo} (µs) and those without a window end, which {@link #late()} and {@link #nulls()}
   * count.
   */
  public void add(int side, VectorSchemaRoot batch, int endColumn, long completeUpTo) {
    late = 0;
    nulls = 0;
    added = 0;
    int rows = batch.getRowCount();
    if (rows == 0) {
      batch.close();
      return;
    }
    boolean whole = false;
    try {
      checkSide(side);
      split(batch, endColumn, rows, completeUpTo);
      late = splitter.late();
      nulls = splitter.nulls();
      added = splitter.windows();
      whole = splitter.windows() == 1 && splitter.isWhole(0);
      if (whole) {
        keep(side, splitter.end(0), batch); // closes it if it fails
        return;
      }
      for (int s = 0; s < splitter.windows(); s++) {
        keep(side, splitter.end(s), splitter.rows(batch, s, allocator));
      }
    } finally {
      if (!whole) {
        batch.close(); // its rows were copied or share its buffers
      }
    }
  }

  /** Splits the batch by window end; a refused split array makes room once, as a batch does. */
  private void split(VectorSchemaRoot batch, int endColumn, int rows, long completeUpTo) {
    try {
      splitter.split(batch.getVector(endColumn), rows, completeUpTo);
    } catch (QuiverException e) {
      if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED || !space.canSpill() || !spillLatest(null)) {
        throw e;
      }
      splitter.split(batch.getVector(endColumn), rows, completeUpTo); // fails before any change
    }
  }

  /**
   * Keeps {@code rows} (taking ownership) in the window ending at {@code end}: in memory, reserved,
   * or, when the budget refuses even after the latest windows spilled, in a spill file.
   */
  private void keep(int side, long end, VectorSchemaRoot rows) {
    try {
      long bytes = BatchTransfer.heldBytes(rows);
      boolean reserved = reserve(bytes, byEnd.get(end));
      Window window = byEnd.computeIfAbsent(end, e -> new Window(budget, allocator, sides));
      if (!reserved) {
        spill(window, side); // first the rows before these, then these
        window.spilled.get(side).spill(space, List.of(rows));
        spills++;
        rows.close();
        return;
      }
      window.batches.get(side).add(rows);
      window.reserved += bytes;
      window.rows[side] += rows.getRowCount();
    } catch (RuntimeException | Error e) {
      rows.close();
      throw e;
    }
  }

  /**
   * Reserves {@code bytes}, spilling the latest windows but {@code except} first if the budget
   * refuses: true if reserved, false if the budget still refuses and rows may go to disk.
   *
   * @throws QuiverException MEMORY_BUDGET_EXCEEDED when the budget refuses and nothing can spill
   */
  private boolean reserve(long bytes, Window except) {
    if (budget.tryReserve(bytes)) {
      return true;
    }
    if (!space.canSpill()) {
      budget.reserve(bytes, purpose); // the budget's error
      return true;
    }
    return spillLatest(except) && budget.tryReserve(bytes);
  }

  /**
   * Moves the rows in memory of the open windows but {@code except} (or null) to spill files, the
   * window that ends last first, until half of the budget's use before the spill is free (the
   * window aggregate's policy). Whether anything spilled.
   */
  private boolean spillLatest(Window except) {
    return spillDownTo(budget.used() / 2, except);
  }

  /**
   * Spills the open windows but {@code except}, the one that ends last first, until the budget's
   * use is at most {@code goal} (at least one window with rows in memory). Whether any spilled.
   */
  private boolean spillDownTo(long goal, Window except) {
    boolean spilled = false;
    for (Window window : byEnd.descendingMap().values()) {
      if (spilled && budget.used() <= goal) {
        break;
      }
      if (window != except && window.reserved > 0) {
        spilled |= spillAll(window);
      }
    }
    return spilled;
  }

  private boolean spillAll(Window window) {
    boolean spilled = false;
    for (int side = 0; side < sides; side++) {
      spilled |= spill(window, side);
    }
    return spilled;
  }

  /**
   * Writes the rows in memory of {@code side} of {@code window} to a new spill file after its
   * others, closes them and releases what they reserved (a slice's own share, not its whole
   * batch's: the other slices of that batch keep theirs). Whether there were any.
   */
  private boolean spill(Window window, int side) {
    ArrayDeque<VectorSchemaRoot> held = window.batches.get(side);
    if (held.isEmpty()) {
      return false;
    }
    window.spilled.get(side).spill(space, held); // a failed write leaves them held
    spills++;
    long released = 0;
    for (VectorSchemaRoot batch : held) {
      released += BatchTransfer.heldBytes(batch); // before closing: a closed batch holds nothing
    }
    List<VectorSchemaRoot> written = new ArrayList<>(held);
    held.clear();
    window.reserved -= released;
    window.rows[side] = 0;
    try {
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(written));
    } finally {
      budget.release(released);
    }
    return true;
  }

  /** Windows the rows of the last {@link #add} went to. */
  public int added() {
    return added;
  }

  /**
   * The end (µs) of window {@code i} of those the last {@link #add} gave rows, {@code i < added()}.
   */
  public long addedEnd(int i) {
    if (i < 0 || i >= added) {
      throw new IndexOutOfBoundsException("window " + i + " of " + added);
    }
    return splitter.end(i);
  }

  /**
   * Rows of {@code side} held in memory for the window ending at {@code end} (0 for no such
   * window): those {@link #rewrite} sees, not the spilled ones.
   */
  public int rows(long end, int side) {
    checkSide(side);
    Window window = byEnd.get(end);
    return window == null ? 0 : window.rows[side];
  }

  /** Rows of {@code side} spilled for the window ending at {@code end} and not read back yet. */
  public long spilledRows(long end, int side) {
    checkSide(side);
    Window window = byEnd.get(end);
    return window == null ? 0 : window.spilled.get(side).rows();
  }

  /** Spill files held by the open windows now. */
  public int spilledFiles() {
    int files = 0;
    for (Window window : byEnd.values()) {
      for (SpilledRows side : window.spilled) {
        files += side.files();
      }
    }
    return files;
  }

  /** How often rows of a window were written to a spill file. */
  public long spills() {
    return spills;
  }

  /**
   * Replaces the rows of {@code side} held in memory for the window ending at {@code end} by what
   * {@code rewrite} makes of them: it reads the window's batches (still the window's: valid during
   * the call) and returns new batches, which the window then owns and reserves, or null to keep the
   * batches as they are. The old batches are closed and released only once the new ones are
   * reserved, so a rewrite that fails (the budget refuses) leaves the window as it was.
   *
   * <p>The window's spilled rows are not read back: they came before the rows in memory, so a
   * rewrite sees a contiguous tail of the window's rows (a window top-N's prune of a tail keeps the
   * rows the inner operator ranks within n over all of them, as a prune of the rows that came so
   * far does). With a spill space, a budget that refuses the rewrite makes room by spilling the
   * other windows, as {@link #add} does, and tries once more; if it still refuses, the rewritten
   * batches go to a spill file of the window, or, when the rewrite itself cannot run, the rows in
   * memory go to one as they are (not rewritten: still correct, only bigger).
   */
  public void rewrite(
      long end, int side, Function<List<VectorSchemaRoot>, List<VectorSchemaRoot>> rewrite) {
    checkSide(side);
    Window window = byEnd.get(end);
    if (window == null || window.batches.get(side).isEmpty()) {
      return;
    }
    ArrayDeque<VectorSchemaRoot> held = window.batches.get(side);
    List<VectorSchemaRoot> fresh;
    try {
      fresh = rewrite.apply(new ArrayList<>(held));
    } catch (QuiverException e) {
      if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED || !space.canSpill()) {
        throw e;
      }
      if (!spillLatest(window)) {
        spill(window, side);
        return;
      }
      try {
        fresh = rewrite.apply(new ArrayList<>(held));
      } catch (QuiverException again) {
        if (again.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
          throw again;
        }
        spill(window, side);
        return;
      }
    }
    if (fresh == null) {
      return;
    }
    long bytes = 0;
    int rows = 0;
    boolean reserved;
    try {
      for (VectorSchemaRoot batch : fresh) {
        bytes += BatchTransfer.heldBytes(batch);
        rows += batch.getRowCount();
      }
      reserved = reserve(bytes, window);
      if (!reserved) {
        window.spilled.get(side).spill(space, fresh); // after the files, instead of the old rows
        spills++;
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, fresh);
      throw e;
    }
    long released = 0;
    for (VectorSchemaRoot batch : held) {
      released += BatchTransfer.heldBytes(batch);
    }
    List<VectorSchemaRoot> old = new ArrayList<>(held);
    held.clear();
    if (reserved) {
      for (VectorSchemaRoot batch : fresh) {
        if (batch.getRowCount() > 0) {
          held.add(batch);
        } else {
          batch.close();
        }
      }
    } else {
      old.addAll(fresh); // written: closed with the old ones
      bytes = 0;
      rows = 0;
    }
    window.reserved += bytes - released;
    window.rows[side] = rows;
    try {
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(old));
    } finally {
      budget.release(released);
    }
  }

  /** Rows of the last {@link #add} whose window was complete. */
  public int late() {
    return late;
  }

  /** Rows of the last {@link #add} without a window end. */
  public int nulls() {
    return nulls;
  }

  /** Windows held. */
  public int size() {
    return byEnd.size();
  }

  /**
   * The first window (in order of end) if it ends at or before {@code end}, removed: the caller's.
   *
   * <p>With a spill space, the window gets room to be run in (its join or sort needs memory beside
   * its rows): while more than half the budget is used, the rows of the open windows that end last
   * are spilled, as when a batch is refused.
   */
  public Window pollUpTo(long end) {
    Map.Entry<Long, Window> first = byEnd.firstEntry();
    if (first == null || first.getKey() > end) {
      return null;
    }
    byEnd.pollFirstEntry();
    long half = budget.limit() / 2;
    if (space.canSpill() && budget.used() > half) {
      try {
        spillDownTo(half, null);
      } catch (RuntimeException | Error e) {
        first.getValue().close(); // nobody else would
        throw e;
      }
    }
    return first.getValue();
  }

  /**
   * Passes every batch of {@code side} to {@code out} (valid during the call), window after window
   * in order of end, each window's batches in the order they came: its spilled ones first (reread
   * from their files one at a time, into the allocator and not reserved, the files left as they
   * are), then those in memory. The windows stay as they were, also when {@code out} or a read
   * fails part-way.
   */
  public void forEachBatch(int side, Consumer<VectorSchemaRoot> out) {
    checkSide(side);
    for (Window window : byEnd.values()) {
      window.spilled.get(side).forEach(allocator, out);
      window.batches.get(side).forEach(out);
    }
  }

  /** Releases every window and the splitter's memory. Idempotent. */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>(byEnd.values());
    byEnd.clear();
    owned.add(splitter);
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }

  private void checkSide(int side) {
    if (side < 0 || side >= sides) {
      throw new IllegalArgumentException("side " + side + " is outside [0, " + sides + ")");
    }
  }

  /**
   * One window's rows: per side, the spilled ones ({@link SpilledRows}), then the batches in
   * memory, reserved.
   */
  public static final class Window implements AutoCloseable {
    private final MemoryBudget budget;
    private final BufferAllocator allocator; // spilled batches are read back into it
    private final List<SpilledRows> spilled;
    private final List<ArrayDeque<VectorSchemaRoot>> batches;
    private final int[] rows; // per side, in memory
    private long reserved;

    private Window(MemoryBudget budget, BufferAllocator allocator, int sides) {
      this.budget = budget;
      this.allocator = allocator;
      this.spilled = new ArrayList<>(sides);
      this.batches = new ArrayList<>(sides);
      this.rows = new int[sides];
      for (int s = 0; s < sides; s++) {
        spilled.add(new SpilledRows());
        batches.add(new ArrayDeque<>());
      }
    }

    /** Whether the window has rows of {@code side}, spilled or in memory. */
    public boolean has(int side) {
      return !spilled.get(side).isEmpty() || !batches.get(side).isEmpty();
    }

    /**
     * The next batch of {@code side} in the order the rows came (spilled ones first, read back one
     * batch at a time, each file deleted once read), or null when none is left: the caller's from
     * now on, its reservation released (whoever takes it next reserves it again).
     */
    public VectorSchemaRoot next(int side) {
      VectorSchemaRoot read = spilled.get(side).next(allocator);
      if (read != null) {
        return read;
      }
      VectorSchemaRoot batch = batches.get(side).poll();
      if (batch != null) {
        long bytes = BatchTransfer.heldBytes(batch);
        budget.release(bytes);
        reserved -= bytes;
        rows[side] -= batch.getRowCount();
      }
      return batch;
    }

    /**
     * Closes the batches not handed out and releases their reservation, and deletes the spill files
     * left. Idempotent.
     */
    @Override
    public void close() {
      List<AutoCloseable> held = new ArrayList<>(spilled);
      for (ArrayDeque<VectorSchemaRoot> side : batches) {
        held.addAll(side);
        side.clear();
      }
      try {
        AutoCloseables.closeNoChecked(() -> AutoCloseables.close(held));
      } finally {
        budget.release(reserved);
        reserved = 0;
      }
    }
  }
}
