package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.operators.spill.SpillWriter;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows one input of an {@link IntervalJoinOperator} holds: whole batches in memory, each with
 * the range of its rows' event times, and runs of batches in spill files, each with the range of
 * its rows' times, so that a join or an eviction can skip or take whole batches and whole files.
 * Every batch in memory is reserved in the budget until it is dropped or spilled.
 *
 * <p>Rows are admitted batch at a time: a row without event time or behind the lateness bound is
 * dropped and counted; a batch that loses rows is compacted with one gather ({@link Take}), a batch
 * that loses none is kept as it came.
 *
 * <p>Probe batches of a LEFT or FULL join also remember which of their rows matched ({@link
 * HeldRows#matched}, one bit per row, not reserved in the budget; a file's bits are numbered
 * through its batches), so that the unmatched ones can be emitted padded with NULLs when they are
 * dropped.
 *
 * <p>Build batches also remember the event time below which their rows were joined already ({@link
 * HeldRows#joinedBelow}): a batch whose rows complete at different watermarks is joined piece by
 * piece and dropped once its last row is joined, without copying the rows that wait.
 *
 * <p>Spilling ({@link #spillDownTo}): batches in memory move to spill files, four files per spill,
 * in the order that costs the fewest reads: a build input spills the batches that complete last
 * ({@link Order#LATEST_FIRST}), each file read back once, when the watermark completes its first
 * row (the rows it does not complete yet come back into memory); a probe input spills the batches
 * that die first ({@link Order#OLDEST_FIRST}), each file reread by every join that reaches it until
 * it is dead. A batch partly joined already stays in memory.
 */
final class IntervalJoinBuffer implements AutoCloseable {
  static final String PURPOSE = "interval-join-rows";
  private static final int FILES_PER_SPILL = 4;

  /** Which batches a spill moves to disk first. */
  enum Order {
    /** The batches with the latest rows (a build input: they complete last). */
    LATEST_FIRST,
    /** The batches whose newest row is oldest (a probe input: they die first). */
    OLDEST_FIRST
  }

  /** Makes room in the budget when it refuses a batch (by spilling): whether anything moved. */
  @FunctionalInterface
  interface Room {
    Room NONE = bytes -> false;

    boolean make(long bytes);
  }

  private final MemoryBudget budget;
  private final BufferAllocator allocator;
  private final SpillSpace space;
  private final Order order;
  private final int timeColumn;
  private final String what; // how a budget error names these rows
  private final List<HeldRows> held = new ArrayList<>();
  private Room room = Room.NONE;
  private int[] rowScratch = new int[0];
  private long reserved;
  private long rows;
  private long spilledRows; // held in spill files now
  private long spills; // times batches moved to disk
  private long late;
  private long withoutTime;

  IntervalJoinBuffer(
      MemoryBudget budget,
      BufferAllocator allocator,
      SpillSpace space,
      Order order,
      int timeColumn,
      String what) {
    this.budget = requireNonNull(budget, "budget is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.space = requireNonNull(space, "space is null");
    this.order = requireNonNull(order, "order is null");
    this.timeColumn = timeColumn;
    this.what = requireNonNull(what, "what is null");
  }

  /** Who makes room when the budget refuses a batch; {@link Room#NONE} until set. */
  void room(Room makesRoom) {
    this.room = requireNonNull(makesRoom, "makesRoom is null");
  }

  /**
   * Takes ownership of {@code batch} and keeps its rows with an event time at or after {@code
   * lateBelow} (µs); the others are dropped and counted: {@link #late()}, or {@link #withoutTime()}
   * when the time is NULL.
   */
  void admit(VectorSchemaRoot batch, long lateBelow) {
    VectorSchemaRoot kept = batch;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    try {
      int count = batch.getRowCount();
      TimeStampMicroVector times = (TimeStampMicroVector) batch.getVector(timeColumn);
      ArrowBuf data = times.getDataBuffer();
      boolean checkNulls = times.getNullCount() > 0;
      int[] keep = scratch(count);
      int size = 0;
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
    } catch (RuntimeException | Error e) {
      batch.close();
      kept.close();
      throw e;
    }
    hold(kept, min, max, new BitSet(), true);
  }

  /**
   * Takes ownership of {@code batch} (of a snapshot: every row has a time, none is checked for
   * lateness), whose rows matched as {@code matched} says; with {@code spill}, the budget may make
   * room by spilling.
   */
  void restore(VectorSchemaRoot batch, BitSet matched, boolean spill) {
    holdAll(batch, matched, spill);
  }

  /** Holds {@code batch} (taken over; every row has a time) in memory. */
  private void holdAll(VectorSchemaRoot batch, BitSet matched, boolean spill) {
    int count = batch.getRowCount();
    if (count == 0) {
      batch.close();
      return;
    }
    ArrowBuf data = batch.getVector(timeColumn).getDataBuffer();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int row = 0; row < count; row++) {
      long time = data.getLong((long) row * Long.BYTES);
      min = Math.min(min, time);
      max = Math.max(max, time);
    }
    hold(batch, min, max, matched, spill);
  }

  /**
   * Holds {@code batch} (taken over; its times in {@code [min, max]}) in memory, making room first
   * when the budget refuses it.
   */
  private void hold(VectorSchemaRoot batch, long min, long max, BitSet matched, boolean spill) {
    try {
      int count = batch.getRowCount();
      long bytes = BatchTransfer.heldBytes(batch);
      if (!budget.tryReserve(bytes)) {
        if (spill) {
          room.make(bytes);
        }
        budget.reserve(bytes, what); // refused again: MEMORY_BUDGET_EXCEEDED
      }
      reserved += bytes;
      held.add(new HeldRows(batch, min, max, bytes, matched));
      rows += count;
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
  }

  /** The held batches and files; the caller must not change the list. */
  List<HeldRows> held() {
    return held;
  }

  /** Rows held, in memory and on disk, including rows of partly joined batches joined already. */
  long rows() {
    return rows;
  }

  /** Rows held in spill files now. */
  long spilledRows() {
    return spilledRows;
  }

  /** Spill files held now. */
  int spilledFiles() {
    int files = 0;
    for (HeldRows batch : held) {
      files += batch.onDisk() ? 1 : 0;
    }
    return files;
  }

  /** How often batches were moved to disk. */
  long spills() {
    return spills;
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
   * Moves batches in memory to spill files, in this buffer's {@link Order}, until the budget's use
   * is at most {@code goal} or no batch is left to move (at least one when there is one). Whether
   * any moved; never without a spill space.
   */
  boolean spillDownTo(long goal) {
    if (!space.canSpill()) {
      return false;
    }
    List<HeldRows> candidates = new ArrayList<>();
    for (HeldRows batch : held) {
      if (!batch.onDisk() && batch.untouched()) {
        candidates.add(batch);
      }
    }
    candidates.sort(
        order == Order.LATEST_FIRST
            ? Comparator.comparingLong((HeldRows h) -> h.min).reversed()
            : Comparator.comparingLong((HeldRows h) -> h.max));
    long excess = budget.used() - goal;
    List<HeldRows> chosen = new ArrayList<>();
    long freed = 0;
    for (HeldRows batch : candidates) {
      if (!chosen.isEmpty() && freed >= excess) {
        break;
      }
      chosen.add(batch);
      freed += batch.bytes;
    }
    if (chosen.isEmpty()) {
      return false;
    }
    chosen.sort(Comparator.comparingLong((HeldRows h) -> h.min));
    long perFile = Math.max(1, freed / FILES_PER_SPILL);
    int from = 0;
    long bytes = 0;
    for (int i = 0; i < chosen.size(); i++) {
      bytes += chosen.get(i).bytes;
      if (bytes >= perFile || i == chosen.size() - 1) {
        spill(chosen.subList(from, i + 1));
        from = i + 1;
        bytes = 0;
      }
    }
    spills++;
    return true;
  }

  /** Writes {@code run} (held in memory, in time order) to one spill file that replaces them. */
  private void spill(List<HeldRows> run) {
    SpillFile file;
    int[] batchRows = new int[run.size()];
    BitSet matched = new BitSet();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int offset = 0;
    try (SpillWriter writer = space.create(run.get(0).batch.getSchema(), PURPOSE)) {
      for (int i = 0; i < run.size(); i++) {
        HeldRows batch = run.get(i);
        writer.write(batch.batch);
        batchRows[i] = (int) batch.rowCount;
        for (int row = batch.matched.nextSetBit(0); row >= 0; ) {
          matched.set(offset + row);
          row = batch.matched.nextSetBit(row + 1);
        }
        offset += (int) batch.rowCount;
        min = Math.min(min, batch.min);
        max = Math.max(max, batch.max);
      }
      file = writer.finish(); // a write that fails leaves the batches held as they were
    }
    HeldRows onDisk = new HeldRows(file, batchRows, min, max, matched);
    for (HeldRows batch : List.copyOf(run)) {
      held.remove(batch);
      forget(batch);
      batch.batch.close();
    }
    held.add(onDisk);
    rows += onDisk.rowCount;
    spilledRows += onDisk.rowCount;
  }

  /**
   * Hands the rows not joined yet with an event time before {@code below} (µs; {@code
   * Long.MAX_VALUE}: all of them) to {@code pieces}, as whole batches where it can, and forgets
   * them; a spill file that has such rows is read back whole, and its other rows are held in memory
   * again. Returns the range {@code [min, max]} the pieces' times lie in (loosely: from the
   * batches' ranges); {@code pieces} stays empty when there are none.
   */
  long[] takeBefore(long below, List<VectorSchemaRoot> pieces) {
    boolean all = below == Long.MAX_VALUE;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    List<VectorSchemaRoot> rest = new ArrayList<>();
    try {
      for (Iterator<HeldRows> it = held.iterator(); it.hasNext(); ) {
        HeldRows batch = it.next();
        if (batch.min >= below && !all) {
          continue;
        }
        boolean whole = batch.max < below || all;
        min = Math.min(min, Math.max(batch.min, batch.joinedBelow));
        max = Math.max(max, whole ? batch.max : below - 1);
        if (batch.onDisk()) {
          readBack(batch, below, pieces, rest);
          it.remove();
          forget(batch);
          batch.file.close();
          continue;
        }
        if (whole && batch.untouched()) {
          pieces.add(take(batch, it));
          continue;
        }
        VectorSchemaRoot piece = copy(batch.batch, batch.joinedBelow, below);
        if (piece != null) {
          pieces.add(piece);
        }
        if (whole) {
          drop(batch, it);
        } else {
          batch.joinedBelow = below;
        }
      }
      while (!rest.isEmpty()) {
        holdAll(rest.remove(rest.size() - 1), new BitSet(), true); // may spill the latest again
      }
    } finally {
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(rest));
    }
    return new long[] {min, max};
  }

  /**
   * Reads the file of {@code batch} (untouched: spilled whole) to its end: its rows before {@code
   * below} to {@code pieces}, the others to {@code rest}, both owned by the caller.
   */
  private void readBack(
      HeldRows batch, long below, List<VectorSchemaRoot> pieces, List<VectorSchemaRoot> rest) {
    boolean all = below == Long.MAX_VALUE;
    try (SpillReader reader = batch.file.open(allocator)) {
      for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
        if (all) {
          pieces.add(next);
          continue;
        }
        try (VectorSchemaRoot rows = next) {
          VectorSchemaRoot before = copy(rows, Long.MIN_VALUE, below);
          if (before != null) {
            pieces.add(before);
          }
          VectorSchemaRoot after = copy(rows, below, Long.MAX_VALUE);
          if (after != null) {
            rest.add(after);
          }
        }
      }
    }
  }

  /**
   * The rows of {@code batch} with an event time in {@code [from, below)} ({@code below} {@code
   * Long.MAX_VALUE}: no upper end) as a new batch the caller owns, or null if there are none.
   */
  private VectorSchemaRoot copy(VectorSchemaRoot batch, long from, long below) {
    int count = batch.getRowCount();
    ArrowBuf data = ((TimeStampMicroVector) batch.getVector(timeColumn)).getDataBuffer();
    int[] keep = scratch(count);
    int size = 0;
    for (int row = 0; row < count; row++) {
      long time = data.getLong((long) row * Long.BYTES); // held rows have a time
      if (time >= from && (time < below || below == Long.MAX_VALUE)) {
        keep[size++] = row;
      }
    }
    return size == 0 ? null : Take.take(batch, keep, size, allocator);
  }

  /**
   * Removes {@code batch} (in memory; through {@code position}, which is at it) and hands it to the
   * caller.
   */
  private VectorSchemaRoot take(HeldRows batch, Iterator<HeldRows> position) {
    position.remove();
    forget(batch);
    return batch.batch;
  }

  /** Removes {@code batch} (through {@code position}, which is at it) and closes or deletes it. */
  private void drop(HeldRows batch, Iterator<HeldRows> position) {
    position.remove();
    forget(batch);
    if (batch.onDisk()) {
      batch.file.close();
    } else {
      batch.batch.close();
    }
  }

  /** Drops every batch and file whose rows are all before {@code below} (µs). */
  void dropBefore(long below) {
    for (Iterator<HeldRows> it = held.iterator(); it.hasNext(); ) {
      HeldRows batch = it.next();
      if (batch.max < below) {
        drop(batch, it);
      }
    }
  }

  /**
   * Passes each batch of the rows not joined yet to {@code out} (valid during the call only), in
   * the order of {@link #held()}, a file's batches in the order written.
   */
  void forEachPending(Consumer<VectorSchemaRoot> out) {
    for (HeldRows batch : held) {
      if (batch.onDisk()) {
        batch.file.rereadEach(allocator, out); // spilled whole: every row is pending
      } else if (batch.untouched()) {
        out.accept(batch.batch);
      } else {
        try (VectorSchemaRoot rest = copy(batch.batch, batch.joinedBelow, Long.MAX_VALUE)) {
          out.accept(rest); // a partly joined batch is held only while it has rows to join
        }
      }
    }
  }

  /**
   * The matched bits of each batch {@link #forEachPending} passes, in the same order (a probe
   * input: every row is pending).
   */
  List<BitSet> pendingMarks() {
    List<BitSet> marks = new ArrayList<>();
    for (HeldRows batch : held) {
      if (!batch.onDisk()) {
        marks.add(batch.matched);
        continue;
      }
      int offset = 0;
      for (int count : batch.batchRows) {
        marks.add(batch.matched.get(offset, offset + count));
        offset += count;
      }
    }
    return marks;
  }

  private void forget(HeldRows batch) {
    budget.release(batch.bytes);
    reserved -= batch.bytes;
    rows -= batch.rowCount;
    if (batch.onDisk()) {
      spilledRows -= batch.rowCount;
    }
  }

  private int[] scratch(int count) {
    if (rowScratch.length < count) {
      rowScratch = new int[Math.max(count, rowScratch.length * 2)];
    }
    return rowScratch;
  }

  /**
   * Closes every held batch, deletes every spill file and releases the reservation. Idempotent;
   * usable again after.
   */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>(held.size());
    for (HeldRows batch : held) {
      owned.add(batch.onDisk() ? batch.file : batch.batch);
    }
    held.clear();
    budget.release(reserved);
    reserved = 0;
    rows = 0;
    spilledRows = 0;
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
