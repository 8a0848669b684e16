package dev.quiver.operators.aggregate;

import dev.quiver.operators.kernel.Take;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Splits the rows of one batch by their window end (a TIMESTAMP micros column) for {@link
 * WindowAggregateOperator}: which windows the batch touches, which rows each one gets, and how many
 * rows are late or have no window.
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
 * the largest batch and are reserved in the budget. Not thread-safe.
 */
final class WindowSplitter {
  private static final int NULL = -1;
  private static final int LATE = -2;
  private static final int EMPTY = -1;

  private final Reservation reservation;
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

  WindowSplitter(Reservation reservation) {
    this.reservation = reservation;
  }

  /**
   * Splits rows {@code [0, rows)} by {@code endColumn}: rows whose end is at or before {@code
   * completeUpTo} (micros) are late, NULL ends have no window; the others are split by end.
   */
  void split(FieldVector endColumn, int rows, long completeUpTo) {
    reserve(rows);
    for (int s = 0; s < windows; s++) {
      tableSlots[positions[s]] = EMPTY;
    }
    this.rows = rows;
    windows = 0;
    late = 0;
    nulls = 0;
    ArrowBuf data = endColumn.getDataBuffer();
    ArrowBuf validity = Columns.validity(endColumn);
    int[] slotOfRow = this.slotOfRow;
    long lastEnd = 0;
    int lastSlot = EMPTY; // EMPTY: no end seen yet
    for (int i = 0; i < rows; i++) {
      if (validity != null && !Columns.isSet(validity, i)) {
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
  int windows() {
    return windows;
  }

  /** The end (micros) of window slot {@code s}. */
  long end(int s) {
    return ends[s];
  }

  /** Rows of the last split whose window was already complete. */
  int late() {
    return late;
  }

  /** Rows of the last split without a window end. */
  int nulls() {
    return nulls;
  }

  /** Whether window slot {@code s} has every row of the split batch. */
  boolean isWhole(int s) {
    return counts[s] == rows;
  }

  /**
   * The rows of window slot {@code s} of {@code batch} (the batch just split) as a new batch, in
   * input order: a slice sharing its buffers when they are contiguous, else a gather.
   */
  VectorSchemaRoot rows(VectorSchemaRoot batch, int s, BufferAllocator allocator) {
    int start = starts[s];
    int count = counts[s];
    int first = order[start];
    if (order[start + count - 1] - first == count - 1) {
      return GroupFeeder.slice(batch, first, count, allocator);
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

  private void reserve(int rows) {
    if (rows > slotOfRow.length) {
      int capacity = Reservation.grownCapacity(slotOfRow.length, rows);
      reservation.reserve((long) (capacity - slotOfRow.length) * 2 * Integer.BYTES);
      slotOfRow = new int[capacity];
      order = new int[capacity];
    }
  }

  private static int[] filled(int size) {
    int[] slots = new int[size];
    Arrays.fill(slots, EMPTY);
    return slots;
  }
}
