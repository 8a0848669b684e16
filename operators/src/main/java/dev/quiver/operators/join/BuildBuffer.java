package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.kernel.BatchAppender;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The buffered build side of a join: non-empty batches whose bytes are reserved in the budget while
 * they are held. Build rows are numbered globally in batch order.
 *
 * <p>{@link #compact} concatenates the batches into few large segments, so that probing gathers
 * from one source per segment instead of from many small batches. A segment is cut before it would
 * exceed {@code maxSegmentRows} rows or {@code maxSegmentBytes} bytes (which keeps string columns
 * far from the 2 GiB limit of 32-bit offsets).
 */
final class BuildBuffer implements AutoCloseable {
  private final MemoryBudget budget;
  private final String owner;
  private final List<VectorSchemaRoot> batches = new ArrayList<>();
  private long reserved;
  private long rowCount;
  private QuiverException refusal; // set by a compaction the budget refused

  BuildBuffer(MemoryBudget budget, String owner) {
    this.budget = requireNonNull(budget, "budget is null");
    this.owner = requireNonNull(owner, "owner is null");
  }

  /** Takes ownership of {@code batch}: keeps it (reserved) if it has rows, else closes it. */
  void add(VectorSchemaRoot batch) {
    try {
      if (batch.getRowCount() == 0) {
        batch.close();
        return;
      }
      checkRows(batch);
      reserve(BatchTransfer.heldBytes(batch));
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
    keep(batch);
  }

  /**
   * Keeps {@code batch} (taking ownership) if the budget has room for it and says whether it did; a
   * refused batch stays the caller's, so a spilling join can spill it.
   */
  boolean tryAdd(VectorSchemaRoot batch) {
    if (batch.getRowCount() == 0) {
      batch.close();
      return true;
    }
    try {
      checkRows(batch);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    long bytes = BatchTransfer.heldBytes(batch);
    if (!budget.tryReserve(bytes)) {
      return false;
    }
    reserved += bytes;
    keep(batch);
    return true;
  }

  private void checkRows(VectorSchemaRoot batch) {
    if (rowCount + batch.getRowCount() > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(owner + " cannot hold more than 2^31 build rows");
    }
  }

  private void keep(VectorSchemaRoot batch) {
    batches.add(batch);
    rowCount += batch.getRowCount();
  }

  List<VectorSchemaRoot> batches() {
    return batches;
  }

  long rowCount() {
    return rowCount;
  }

  /**
   * Concatenates runs of batches into segments (see the class comment); single batches stay.
   * Returns null, or the budget's refusal when a copy did not fit: then the buffer still holds
   * every row, some in segments and the rest in their original batches, so a spilling join can
   * write them out instead.
   */
  QuiverException compact(
      Schema schema, BufferAllocator allocator, long maxSegmentRows, long maxSegmentBytes) {
    List<VectorSchemaRoot> segments = new ArrayList<>();
    int start = 0;
    try {
      while (start < batches.size() && refusal == null) {
        int end = start + 1;
        long rows = batches.get(start).getRowCount();
        long bytes = BatchTransfer.heldBytes(batches.get(start));
        while (end < batches.size()) {
          VectorSchemaRoot next = batches.get(end);
          if (rows + next.getRowCount() > maxSegmentRows
              || bytes + BatchTransfer.heldBytes(next) > maxSegmentBytes) {
            break;
          }
          rows += next.getRowCount();
          bytes += BatchTransfer.heldBytes(next);
          end++;
        }
        if (end == start + 1) {
          segments.add(take(start));
          start = end;
        } else {
          int copied = concat(schema, allocator, start, end, rows, segments);
          start += copied;
        }
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, segments);
      throw e;
    }
    // Every batch before start was moved into a segment or closed; the rest stay as they are.
    List<VectorSchemaRoot> rest = new ArrayList<>(batches.subList(start, batches.size()));
    batches.clear();
    batches.addAll(segments);
    batches.addAll(rest);
    QuiverException refused = refusal;
    refusal = null;
    return refused;
  }

  private VectorSchemaRoot take(int index) {
    VectorSchemaRoot batch = batches.get(index);
    batches.set(index, null);
    return batch;
  }

  /**
   * Copies batches {@code [start, end)} into one segment added to {@code segments}, closing each
   * right after it is copied: the copy's bytes are reserved before the original's are released, and
   * the reservation is settled to the segment's real size at the end. When the budget refuses a
   * copy, the rows copied so far become the segment and {@link #refusal} is set. Returns how many
   * batches were copied. On failure, whatever is still reserved is released by {@link #close}.
   */
  private int concat(
      Schema schema,
      BufferAllocator allocator,
      int start,
      int end,
      long rows,
      List<VectorSchemaRoot> segments) {
    long copied = 0;
    int count = 0;
    try (BatchAppender appender = new BatchAppender(schema, allocator, (int) rows)) {
      for (int i = start; i < end && refusal == null; i++) {
        VectorSchemaRoot batch = batches.get(i);
        long bytes = BatchTransfer.heldBytes(batch);
        if (!tryReserve(bytes, "build rows of " + owner)) {
          break;
        }
        appender.append(batch, 0, batch.getRowCount());
        copied += bytes;
        batches.set(i, null);
        count++;
        batch.close();
        release(bytes);
      }
      if (count == 0) {
        return 0;
      }
      VectorSchemaRoot segment = appender.build();
      segments.add(segment);
      long actual = BatchTransfer.heldBytes(segment);
      if (actual <= copied) {
        release(copied - actual);
      } else {
        // Refused, the segment keeps only the copied bytes reserved: the join spills it next.
        tryReserve(actual - copied, "build rows of " + owner);
      }
      return count;
    }
  }

  /** Reserves {@code bytes} or records the budget's refusal in {@link #refusal}. */
  private boolean tryReserve(long bytes, String what) {
    try {
      reserve(bytes, what);
      return true;
    } catch (QuiverException e) {
      if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
        throw e;
      }
      refusal = e;
      return false;
    }
  }

  private void reserve(long bytes) {
    reserve(bytes, "build rows of " + owner);
  }

  private void reserve(long bytes, String what) {
    budget.reserve(bytes, what);
    reserved += bytes;
  }

  private void release(long bytes) {
    budget.release(bytes);
    reserved -= bytes;
  }

  /** Closes every batch and releases their reservation. Idempotent. */
  @Override
  public void close() {
    List<VectorSchemaRoot> held = new ArrayList<>(batches);
    held.removeIf(Objects::isNull); // moved into a segment during a failed compaction
    batches.clear();
    try {
      AutoCloseables.close(held);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      budget.release(reserved);
      reserved = 0;
    }
  }
}
