package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows one input of an {@link IntervalJoinOperator} holds: whole batches in arrival order, each
 * with the range of its rows' event times, so that a join or an eviction can skip or take whole
 * batches. Every held batch is reserved in the budget until it is dropped.
 *
 * <p>Rows are admitted batch at a time: a row without event time or behind the lateness bound is
 * dropped and counted; a batch that loses rows is compacted with one gather ({@link Take}), a batch
 * that loses none is kept as it came.
 *
 * <p>Probe batches of a LEFT or FULL join also remember which of their rows matched ({@link
 * Held#matched}, one bit per row, not reserved in the budget), so that the unmatched ones can be
 * emitted padded with NULLs when the batch is dropped.
 *
 * <p>Build batches also remember the event time below which their rows were joined already ({@link
 * Held#joinedBelow}): a batch whose rows complete at different watermarks is joined piece by piece
 * and dropped once its last row is joined, without copying the rows that wait.
 */
final class IntervalJoinBuffer implements AutoCloseable {
  /** A held batch: its rows' event times lie in {@code [min, max]}. */
  static final class Held {
    final VectorSchemaRoot batch;
    final long min;
    final long max;
    final long bytes;
    long joinedBelow = Long.MIN_VALUE; // rows with an earlier event time were joined
    final BitSet matched = new BitSet(); // probe rows that met a build row (LEFT, FULL joins)

    private Held(VectorSchemaRoot batch, long min, long max, long bytes) {
      this.batch = batch;
      this.min = min;
      this.max = max;
      this.bytes = bytes;
    }

    /** Whether no row of this batch has been joined yet. */
    boolean untouched() {
      return joinedBelow <= min;
    }
  }

  private final MemoryBudget budget;
  private final BufferAllocator allocator;
  private final int timeColumn;
  private final String what; // how a budget error names these rows
  private final List<Held> held = new ArrayList<>();
  private int[] rowScratch = new int[0];
  private long reserved;
  private long rows;
  private long late;
  private long withoutTime;

  IntervalJoinBuffer(MemoryBudget budget, BufferAllocator allocator, int timeColumn, String what) {
    this.budget = requireNonNull(budget, "budget is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.timeColumn = timeColumn;
    this.what = requireNonNull(what, "what is null");
  }

  /**
   * Takes ownership of {@code batch} and keeps its rows with an event time at or after {@code
   * lateBelow} (µs); the others are dropped and counted: {@link #late()}, or {@link #withoutTime()}
   * when the time is NULL.
   */
  void admit(VectorSchemaRoot batch, long lateBelow) {
    VectorSchemaRoot kept = batch;
    try {
      int count = batch.getRowCount();
      TimeStampMicroVector times = (TimeStampMicroVector) batch.getVector(timeColumn);
      ArrowBuf data = times.getDataBuffer();
      boolean checkNulls = times.getNullCount() > 0;
      int[] keep = scratch(count);
      int size = 0;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (int row = 0; row < count; row++) {
        if (checkNulls && times.isNull(row)) {
          withoutTime++;
          continue;
        }
        long time = data.getLong((long) row * Long.BYTES);
        if (time < lateBelow) {
          late++;
          continue;
        }
        keep[size++] = row;
        min = Math.min(min, time);
        max = Math.max(max, time);
      }
      if (size == 0) {
        batch.close();
        return;
      }
      if (size < count) {
        kept = Take.take(batch, keep, size, allocator);
        batch.close();
      }
      long bytes = BatchTransfer.heldBytes(kept);
      budget.reserve(bytes, what);
      reserved += bytes;
      held.add(new Held(kept, min, max, bytes));
      rows += size;
    } catch (RuntimeException | Error e) {
      batch.close();
      kept.close();
      throw e;
    }
  }

  /** The held batches, oldest first; the caller must not change the list. */
  List<Held> held() {
    return held;
  }

  /** Rows held, including rows of partly joined batches that were joined already. */
  long rows() {
    return rows;
  }

  long late() {
    return late;
  }

  long withoutTime() {
    return withoutTime;
  }

  /** Sets the counters (a restore). */
  void counters(long lateRows, long rowsWithoutTime) {
    this.late = lateRows;
    this.withoutTime = rowsWithoutTime;
  }

  /**
   * Hands the rows not joined yet with an event time before {@code below} (µs; {@code
   * Long.MAX_VALUE}: all of them) to {@code pieces}, as whole batches where it can, and forgets
   * them. Returns the range {@code [min, max]} their times lie in (loosely: from the batches'
   * ranges); {@code pieces} stays empty when there are none.
   */
  long[] takeBefore(long below, List<VectorSchemaRoot> pieces) {
    boolean all = below == Long.MAX_VALUE;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
      Held batch = it.next();
      if (batch.min >= below && !all) {
        continue;
      }
      boolean whole = batch.max < below || all;
      min = Math.min(min, Math.max(batch.min, batch.joinedBelow));
      max = Math.max(max, whole ? batch.max : below - 1);
      if (whole && batch.untouched()) {
        pieces.add(take(batch, it));
        continue;
      }
      VectorSchemaRoot piece = copy(batch, batch.joinedBelow, below);
      if (piece != null) {
        pieces.add(piece);
      }
      if (whole) {
        drop(batch, it);
      } else {
        batch.joinedBelow = below;
      }
    }
    return new long[] {min, max};
  }

  /**
   * The rows of {@code batch} with an event time in {@code [from, below)} ({@code below} {@code
   * Long.MAX_VALUE}: no upper end) as a new batch the caller owns, or null if there are none.
   */
  private VectorSchemaRoot copy(Held batch, long from, long below) {
    int count = batch.batch.getRowCount();
    ArrowBuf data = ((TimeStampMicroVector) batch.batch.getVector(timeColumn)).getDataBuffer();
    int[] keep = scratch(count);
    int size = 0;
    for (int row = 0; row < count; row++) {
      long time = data.getLong((long) row * Long.BYTES); // held rows have a time
      if (time >= from && (time < below || below == Long.MAX_VALUE)) {
        keep[size++] = row;
      }
    }
    return size == 0 ? null : Take.take(batch.batch, keep, size, allocator);
  }

  /**
   * Removes {@code batch} (through {@code position}, which is at it) and hands it to the caller.
   */
  private VectorSchemaRoot take(Held batch, Iterator<Held> position) {
    position.remove();
    forget(batch);
    return batch.batch;
  }

  /** Removes {@code batch} (through {@code position}, which is at it) and closes it. */
  private void drop(Held batch, Iterator<Held> position) {
    take(batch, position).close();
  }

  /** Drops every batch whose rows are all before {@code below} (µs). */
  void dropBefore(long below) {
    for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
      Held batch = it.next();
      if (batch.max < below) {
        drop(batch, it);
      }
    }
  }

  /** Passes each batch of the rows not joined yet to {@code out} (valid during the call only). */
  void forEachPending(Consumer<VectorSchemaRoot> out) {
    for (Held batch : held) {
      if (batch.untouched()) {
        out.accept(batch.batch);
      } else {
        try (VectorSchemaRoot rest = copy(batch, batch.joinedBelow, Long.MAX_VALUE)) {
          out.accept(rest); // a partly joined batch is held only while it has rows to join
        }
      }
    }
  }

  private void forget(Held batch) {
    budget.release(batch.bytes);
    reserved -= batch.bytes;
    rows -= batch.batch.getRowCount();
  }

  private int[] scratch(int count) {
    if (rowScratch.length < count) {
      rowScratch = new int[Math.max(count, rowScratch.length * 2)];
    }
    return rowScratch;
  }

  /** Closes every held batch and releases their reservation. Idempotent; usable again after. */
  @Override
  public void close() {
    try {
      RuntimeException failure = null;
      for (Held batch : held) {
        try {
          batch.batch.close();
        } catch (RuntimeException e) {
          failure = failure == null ? e : failure;
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      held.clear();
      budget.release(reserved);
      reserved = 0;
      rows = 0;
    }
  }
}
