package dev.quiver.operators.kernel;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
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
 * Every batch held is reserved in the task's budget (the capacity of its buffers) until it is
 * handed out by {@link Window#next}. A slice shares its buffers with the other windows' slices of
 * the same batch, so until the last of them is released the memory held can exceed what is reserved
 * by the rest of that one batch. Nothing spills. {@link #rewrite} replaces a window's rows of a
 * side by fewer (a window top-N keeps the top rows of each partition); later batches follow them.
 * Not thread-safe.
 */
public final class WindowBuffers implements AutoCloseable {
  private final MemoryBudget budget;
  private final BufferAllocator allocator;
  private final int sides;
  private final String purpose; // how budget errors name what is reserved
  private final WindowSplitter splitter;
  private final TreeMap<Long, Window> byEnd = new TreeMap<>();
  private int late;
  private int nulls;
  private int added; // windows the last add gave rows

  /** Buffers of {@code sides} inputs, reserved in {@code budget} for {@code owner}. */
  public WindowBuffers(MemoryBudget budget, BufferAllocator allocator, int sides, String owner) {
    this.budget = requireNonNull(budget, "budget is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
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
      splitter.split(batch.getVector(endColumn), rows, completeUpTo);
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

  /** Keeps {@code rows} (taking ownership) in the window ending at {@code end}, reserved. */
  private void keep(int side, long end, VectorSchemaRoot rows) {
    long bytes;
    try {
      bytes = BatchTransfer.heldBytes(rows);
      budget.reserve(bytes, purpose);
    } catch (RuntimeException | Error e) {
      rows.close();
      throw e;
    }
    Window window = byEnd.computeIfAbsent(end, e -> new Window(budget, sides));
    window.batches.get(side).add(rows);
    window.reserved += bytes;
    window.rows[side] += rows.getRowCount();
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

  /** Rows of {@code side} held for the window ending at {@code end} (0 for no such window). */
  public int rows(long end, int side) {
    checkSide(side);
    Window window = byEnd.get(end);
    return window == null ? 0 : window.rows[side];
  }

  /**
   * Replaces the rows of {@code side} of the window ending at {@code end} by what {@code rewrite}
   * makes of them: it reads the window's batches (still the window's: valid during the call) and
   * returns new batches, which the window then owns and reserves, or null to keep the batches as
   * they are. The old batches are closed and released only once the new ones are reserved, so a
   * rewrite that fails (the budget refuses) leaves the window as it was.
   */
  public void rewrite(
      long end, int side, Function<List<VectorSchemaRoot>, List<VectorSchemaRoot>> rewrite) {
    checkSide(side);
    Window window = byEnd.get(end);
    if (window == null) {
      return;
    }
    ArrayDeque<VectorSchemaRoot> held = window.batches.get(side);
    List<VectorSchemaRoot> fresh = rewrite.apply(new ArrayList<>(held));
    if (fresh == null) {
      return;
    }
    long bytes = 0;
    int rows = 0;
    try {
      for (VectorSchemaRoot batch : fresh) {
        bytes += BatchTransfer.heldBytes(batch);
        rows += batch.getRowCount();
      }
      budget.reserve(bytes, purpose);
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
    for (VectorSchemaRoot batch : fresh) {
      if (batch.getRowCount() > 0) {
        held.add(batch);
      } else {
        batch.close();
      }
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
   */
  public Window pollUpTo(long end) {
    Map.Entry<Long, Window> first = byEnd.firstEntry();
    if (first == null || first.getKey() > end) {
      return null;
    }
    byEnd.pollFirstEntry();
    return first.getValue();
  }

  /**
   * Passes every batch of {@code side} to {@code out} (valid during the call), window after window
   * in order of end, each window's batches in the order they are held.
   */
  public void forEachBatch(int side, Consumer<VectorSchemaRoot> out) {
    checkSide(side);
    for (Window window : byEnd.values()) {
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

  /** One window's rows: the batches of each side, reserved. */
  public static final class Window implements AutoCloseable {
    private final MemoryBudget budget;
    private final List<ArrayDeque<VectorSchemaRoot>> batches;
    private final int[] rows; // per side
    private long reserved;

    private Window(MemoryBudget budget, int sides) {
      this.budget = budget;
      this.batches = new ArrayList<>(sides);
      this.rows = new int[sides];
      for (int s = 0; s < sides; s++) {
        batches.add(new ArrayDeque<>());
      }
    }

    /** Whether the window has rows of {@code side}. */
    public boolean has(int side) {
      return !batches.get(side).isEmpty();
    }

    /**
     * The next batch of {@code side}, or null when none is left: the caller's from now on, its
     * reservation released (whoever takes it next reserves it again).
     */
    public VectorSchemaRoot next(int side) {
      VectorSchemaRoot batch = batches.get(side).poll();
      if (batch != null) {
        long bytes = BatchTransfer.heldBytes(batch);
        budget.release(bytes);
        reserved -= bytes;
        rows[side] -= batch.getRowCount();
      }
      return batch;
    }

    /** Closes the batches not handed out and releases their reservation. Idempotent. */
    @Override
    public void close() {
      List<VectorSchemaRoot> held = new ArrayList<>();
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
