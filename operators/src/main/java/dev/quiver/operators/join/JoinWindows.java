package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.kernel.WindowSplitter;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The windows a {@link WindowJoinOperator} has not joined yet, by window end (micros), each with
 * the buffered rows of both inputs as they came: whole batches where a batch fell into one window,
 * else each window's rows of the batch ({@link WindowSplitter}: a slice sharing the batch's buffers
 * when they are contiguous, a gather otherwise).
 *
 * <pre>
 *   end 10:00:10 ─► build: [b1, b3']   probe: [p2]      pollUpTo(10:00:20) ─► 10:00:10, then
 *   end 10:00:20 ─► build: [b3'']      probe: [p4, p5]                        10:00:20
 *   end 10:00:30 ─► build: []          probe: [p5']     (stays)
 * </pre>
 *
 * Every batch held is reserved in the task's budget (the capacity of its buffers) until it is
 * handed out by {@link Window#next}. A slice shares its buffers with the other windows' slices of
 * the same batch, so until the last of them is released the memory held can exceed what is reserved
 * by the rest of that one batch. Nothing spills. Not thread-safe.
 */
final class JoinWindows implements AutoCloseable {
  private final MemoryBudget budget;
  private final BufferAllocator allocator;
  private final String purpose; // how budget errors name what is reserved
  private final WindowSplitter splitter;
  private final TreeMap<Long, Window> byEnd = new TreeMap<>();
  private int late;
  private int nulls;

  JoinWindows(MemoryBudget budget, BufferAllocator allocator, String owner) {
    this.budget = requireNonNull(budget, "budget is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.purpose = "the buffered rows of the open windows of " + owner;
    this.splitter = new WindowSplitter(budget, owner);
  }

  /**
   * Takes ownership of {@code batch} of {@code side} (0 build, 1 probe) and keeps each window's
   * rows of it, the window end in column {@code endColumn}; drops the rows of windows ending at or
   * before {@code completeUpTo} (µs) and those without a window end, which {@link #late()} and
   * {@link #nulls()} count.
   */
  void add(int side, VectorSchemaRoot batch, int endColumn, long completeUpTo) {
    late = 0;
    nulls = 0;
    int rows = batch.getRowCount();
    if (rows == 0) {
      batch.close();
      return;
    }
    boolean whole = false;
    try {
      splitter.split(batch.getVector(endColumn), rows, completeUpTo);
      late = splitter.late();
      nulls = splitter.nulls();
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
      bytes = BuildBuffer.bytes(rows);
      budget.reserve(bytes, purpose);
    } catch (RuntimeException | Error e) {
      rows.close();
      throw e;
    }
    Window window = byEnd.computeIfAbsent(end, e -> new Window(budget));
    window.side(side).add(rows);
    window.reserved += bytes;
  }

  /** Rows of the last {@link #add} whose window was complete. */
  int late() {
    return late;
  }

  /** Rows of the last {@link #add} without a window end. */
  int nulls() {
    return nulls;
  }

  /** Windows held. */
  int size() {
    return byEnd.size();
  }

  /**
   * The first window (in order of end) if it ends at or before {@code end}, removed: the caller's.
   */
  Window pollUpTo(long end) {
    Map.Entry<Long, Window> first = byEnd.firstEntry();
    if (first == null || first.getKey() > end) {
      return null;
    }
    byEnd.pollFirstEntry();
    return first.getValue();
  }

  /**
   * Passes every batch of {@code side} to {@code out} (valid during the call), window after window
   * in order of end, each window's batches in the order they came.
   */
  void forEachBatch(int side, Consumer<VectorSchemaRoot> out) {
    for (Window window : byEnd.values()) {
      window.side(side).forEach(out);
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

  /** One window's rows: batches of the build side (0) and of the probe side (1), reserved. */
  static final class Window implements AutoCloseable {
    private final MemoryBudget budget;
    private final ArrayDeque<VectorSchemaRoot> build = new ArrayDeque<>();
    private final ArrayDeque<VectorSchemaRoot> probe = new ArrayDeque<>();
    private long reserved;

    private Window(MemoryBudget budget) {
      this.budget = budget;
    }

    private ArrayDeque<VectorSchemaRoot> side(int side) {
      return side == 0 ? build : probe;
    }

    /** Whether the window has rows of {@code side}. */
    boolean has(int side) {
      return !side(side).isEmpty();
    }

    /**
     * The next batch of {@code side}, or null when none is left: the caller's from now on, its
     * reservation released (whoever takes it next reserves it again).
     */
    VectorSchemaRoot next(int side) {
      VectorSchemaRoot batch = side(side).poll();
      if (batch != null) {
        long bytes = BuildBuffer.bytes(batch);
        budget.release(bytes);
        reserved -= bytes;
      }
      return batch;
    }

    /** Closes the batches not handed out and releases their reservation. Idempotent. */
    @Override
    public void close() {
      List<VectorSchemaRoot> held = new ArrayList<>(build);
      held.addAll(probe);
      build.clear();
      probe.clear();
      try {
        AutoCloseables.closeNoChecked(() -> AutoCloseables.close(held));
      } finally {
        budget.release(reserved);
        reserved = 0;
      }
    }
  }
}
