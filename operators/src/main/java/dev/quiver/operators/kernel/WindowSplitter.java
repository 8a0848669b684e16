package dev.quiver.operators.kernel;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Splits the rows of one batch by their window end (a TIMESTAMP micros column) for the event-time
 * window operators (the window aggregate, the window join): which windows the batch touches, which
 * rows each one gets, and how many rows are late or have no window.
 *
 * <pre>
 *   end column ─► one loop: NULL? late (end ≤ complete)? else window slot (last end, else a small
 *                 open-addressing table of this batch's ends) ─► counts per slot
 *              ─► one loop: rows grouped by slot, in input order (a counting sort)
 *   rows(s)    ─► the whole batch │ a slice sharing its buffers (contiguous rows) │ a gather
 * </pre>
 *
 * Rows arrive mostly in event-time order, so the end of a row is nearly always that of the row
 * before it and the table is rarely probed. Nothing allocates per row; the per-row arrays grow to
 * the largest batch and are reserved in the budget until {@link #close}. Not thread-safe.
 */
public final class WindowSplitter implements AutoCloseable {
  private static final int NULL = -1;
  private static final int LATE = -2;
  private static final int EMPTY = -1;

  private final MemoryBudget budget;
  private final String owner;
  private long reserved;
  private int[] slotOfRow = new int[0];
  private int[] order = new int[0];
  private long[] ends = new long[8]; // per slot
  private int[] counts = new int[8];
  private int[] starts = new int[9];
  private int[] positions = new int[8]; // per slot: its entry in the table
  private int[] cursors = new int[8]; // per slot: where its next row goes in order
  private long[] tableEnds = new long[16];
  private int[] tableSlots = filled(16);
  private int windows;
  private int rows;
  private int late;
  private int nulls;

  /**
   * The window end (µs) up to which windows are complete at watermark {@code millis}: {@code
   * (millis + 1) · 1000}, saturated. A watermark {@code w} promises later rows at {@code w + 1} ms
   * or after, so a window {@code [start, end)} is complete once its last microsecond is at or
   * before {@code w} ms (Flink's rule).
   */
  public static long completeUpTo(long millis) {
    if (millis >= Long.MAX_VALUE / 1000) {
      return Long.MAX_VALUE;
    }
    if (millis < Long.MIN_VALUE / 1000 - 1) {
      return Long.MIN_VALUE;
    }
    return (millis + 1) * 1000;
  }

  /** A splitter whose per-row arrays are reserved in {@code budget} for {@code owner}. */
  public WindowSplitter(MemoryBudget budget, String owner) {
    this.budget = requireNonNull(budget, "budget is null");
    this.owner = requireNonNull(owner, "owner is null");
  }

  /**
   * Splits rows {@code [0, rows)} by {@code endColumn}: rows whose end is at or before {@code
   * completeUpTo} (micros) are late, NULL ends have no window; the others are split by end.
   */
  public void split(FieldVector endColumn, int rows, long completeUpTo) {
    reserve(rows);
    for (int s = 0; s < windows; s++) {
      tableSlots[positions[s]] = EMPTY;
    }
    this.rows = rows;
    windows = 0;
    late = 0;
    nulls = 0;
    ArrowBuf data = endColumn.getDataBuffer();
    ArrowBuf validity = endColumn.getNullCount() == 0 ? null : endColumn.getValidityBuffer();
    int[] slotOfRow = this.slotOfRow;
    long lastEnd = 0;
    int lastSlot = EMPTY; // EMPTY: no end seen yet
    for (int i = 0; i < rows; i++) {
      if (validity != null && ((validity.getByte(i >>> 3) >>> (i & 7)) & 1) == 0) {
        slotOfRow[i] = NULL;
        nulls++;
        continue;
      }
      long end = data.getLong((long) i << 3);
      if (end != lastEnd || lastSlot == EMPTY) {
        lastEnd = end;
        lastSlot = end <= completeUpTo ? LATE : slotOf(end);
      }
      slotOfRow[i] = lastSlot;
      if (lastSlot == LATE) {
        late++;
      } else {
        counts[lastSlot]++;
      }
    }
    if (windows == 1 && counts[0] == rows) {
      return; // the whole batch is one window: no order needed
    }
    starts[0] = 0;
    for (int s = 0; s < windows; s++) {
      starts[s + 1] = starts[s] + counts[s];
    }
    int[] next = cursors;
    System.arraycopy(starts, 0, next, 0, windows);
    int[] order = this.order;
    for (int i = 0; i < rows; i++) {
      int slot = slotOfRow[i];
      if (slot >= 0) {
        order[next[slot]++] = i;
      }
    }
  }

  /** The windows the last split found, in order of their first row. */
  public int windows() {
    return windows;
  }

  /** The end (micros) of window slot {@code s}. */
  public long end(int s) {
    return ends[s];
  }

  /** Rows of the last split whose window was already complete. */
  public int late() {
    return late;
  }

  /** Rows of the last split without a window end. */
  public int nulls() {
    return nulls;
  }

  /** Whether window slot {@code s} has every row of the split batch. */
  public boolean isWhole(int s) {
    return counts[s] == rows;
  }

  /**
   * The rows of window slot {@code s} of {@code batch} (the batch just split) as a new batch, in
   * input order: a slice sharing its buffers when they are contiguous, else a gather.
   */
  public VectorSchemaRoot rows(VectorSchemaRoot batch, int s, BufferAllocator allocator) {
    int start = starts[s];
    int count = counts[s];
    int first = order[start];
    if (order[start + count - 1] - first == count - 1) {
      return slice(batch, first, count, allocator);
    }
    return Take.take(batch, order, start, count, allocator);
  }

  /** The slot of {@code end}, a new one the first time this batch has it. */
  private int slotOf(long end) {
    int mask = tableEnds.length - 1;
    int position = (int) ((end * 0x9E3779B97F4A7C15L) >>> 32) & mask;
    while (tableSlots[position] != EMPTY) {
      if (tableEnds[position] == end) {
        return tableSlots[position];
      }
      position = (position + 1) & mask;
    }
    int slot = windows++;
    if (slot == ends.length) {
      int capacity = slot * 2;
      ends = Arrays.copyOf(ends, capacity);
      counts = Arrays.copyOf(counts, capacity);
      starts = Arrays.copyOf(starts, capacity + 1);
      positions = Arrays.copyOf(positions, capacity);
      cursors = new int[capacity];
    }
    ends[slot] = end;
    counts[slot] = 0;
    tableEnds[position] = end;
    tableSlots[position] = slot;
    positions[slot] = position;
    if (windows * 2 > tableEnds.length) {
      rehash();
    }
    return slot;
  }

  /** Doubles the table: at most half full, so probes stay short. */
  private void rehash() {
    int capacity = tableEnds.length * 2;
    tableEnds = new long[capacity];
    tableSlots = filled(capacity);
    int mask = capacity - 1;
    for (int s = 0; s < windows; s++) {
      int position = (int) ((ends[s] * 0x9E3779B97F4A7C15L) >>> 32) & mask;
      while (tableSlots[position] != EMPTY) {
        position = (position + 1) & mask;
      }
      tableEnds[position] = ends[s];
      tableSlots[position] = s;
      positions[s] = position;
    }
  }

  /** Rows {@code [from, from + count)} of {@code batch} as a new batch sharing its buffers. */
  private static VectorSchemaRoot slice(
      VectorSchemaRoot batch, int from, int count, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
    try {
      for (FieldVector vector : batch.getFieldVectors()) {
        TransferPair pair = vector.getTransferPair(allocator);
        pair.splitAndTransfer(from, count);
        vectors.add((FieldVector) pair.getTo());
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
    return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, count);
  }

  private void reserve(int rows) {
    if (rows > slotOfRow.length) {
      // At least double, so that growth stays linear.
      int capacity =
          (int)
              Math.min(Integer.MAX_VALUE - 8, Math.max(rows, Math.max(16, slotOfRow.length * 2L)));
      long bytes = (long) (capacity - slotOfRow.length) * 2 * Integer.BYTES;
      budget.reserve(bytes, "the window split of " + owner);
      reserved += bytes;
      slotOfRow = new int[capacity];
      order = new int[capacity];
    }
  }

  /** Releases the per-row arrays' reservation (they shrink back to nothing). Idempotent. */
  @Override
  public void close() {
    budget.release(reserved);
    reserved = 0;
    slotOfRow = new int[0];
    order = new int[0];
  }

  private static int[] filled(int size) {
    int[] slots = new int[size];
    Arrays.fill(slots, EMPTY);
    return slots;
  }
}
