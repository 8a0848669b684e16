package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.kernel.BatchAppender;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
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
      if (rowCount + batch.getRowCount() > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException(owner + " cannot hold more than 2^31 build rows");
      }
      reserve(bytes(batch));
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
    batches.add(batch);
    rowCount += batch.getRowCount();
  }

  List<VectorSchemaRoot> batches() {
    return batches;
  }

  long rowCount() {
    return rowCount;
  }

  /** Concatenates runs of batches into segments (see the class comment); single batches stay. */
  void compact(
      Schema schema, BufferAllocator allocator, long maxSegmentRows, long maxSegmentBytes) {
    List<VectorSchemaRoot> segments = new ArrayList<>();
    try {
      int start = 0;
      while (start < batches.size()) {
        int end = start + 1;
        long rows = batches.get(start).getRowCount();
        long bytes = bytes(batches.get(start));
        while (end < batches.size()) {
          VectorSchemaRoot next = batches.get(end);
          if (rows + next.getRowCount() > maxSegmentRows || bytes + bytes(next) > maxSegmentBytes) {
            break;
          }
          rows += next.getRowCount();
          bytes += bytes(next);
          end++;
        }
        segments.add(end == start + 1 ? take(start) : concat(schema, allocator, start, end, rows));
        start = end;
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, segments);
      throw e;
    }
    batches.clear(); // every batch was moved into a segment or closed
    batches.addAll(segments);
  }

  private VectorSchemaRoot take(int index) {
    VectorSchemaRoot batch = batches.get(index);
    batches.set(index, null);
    return batch;
  }

  /**
   * Copies batches {@code [start, end)} into one segment, closing each right after it is copied:
   * the copy's bytes are reserved before the original's are released, and the reservation is
   * settled to the segment's real size at the end. On failure, whatever is still reserved is
   * released by {@link #close}.
   */
  private VectorSchemaRoot concat(
      Schema schema, BufferAllocator allocator, int start, int end, long rows) {
    long copied = 0;
    try (BatchAppender appender = new BatchAppender(schema, allocator, (int) rows)) {
      for (int i = start; i < end; i++) {
        VectorSchemaRoot batch = batches.get(i);
        long bytes = bytes(batch);
        reserve(bytes);
        appender.append(batch, 0, batch.getRowCount());
        copied += bytes;
        batches.set(i, null);
        batch.close();
        release(bytes);
      }
      VectorSchemaRoot segment = appender.build();
      long actual = bytes(segment);
      if (actual > copied) {
        try {
          reserve(actual - copied);
        } catch (RuntimeException e) {
          segment.close();
          throw e;
        }
      } else {
        release(copied - actual);
      }
      return segment;
    }
  }

  private void reserve(long bytes) {
    budget.reserve(bytes, "build rows of " + owner);
    reserved += bytes;
  }

  private void release(long bytes) {
    budget.release(bytes);
    reserved -= bytes;
  }

  /** The bytes a batch holds: the capacity of all its buffers. */
  static long bytes(VectorSchemaRoot batch) {
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      for (ArrowBuf buffer : vector.getBuffers(false)) {
        bytes += buffer.capacity();
      }
    }
    return bytes;
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
