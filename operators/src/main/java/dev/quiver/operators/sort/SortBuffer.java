package dev.quiver.operators.sort;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The batches a sort or top-k keeps until it emits. Each batch is checked against the schema, bound
 * to the comparator and reserved in the budget before it is kept: its buffers' bytes plus {@link
 * #ROW_BYTES} per row for the heap arrays of the {@link IndexSort} that will order it, so a sort
 * that cannot fit fails while it buffers, not when it sorts. Batches are released one by one
 * ({@link #release}) or all at once ({@link #clear}).
 */
final class SortBuffer implements AutoCloseable {
  /** A row reference plus the two scratch longs of the index sort. */
  static final long ROW_BYTES = 3L * Long.BYTES;

  /** Arrays of references are indexed by int: a sort holds at most this many rows. */
  static final int MAX_ROWS = Integer.MAX_VALUE - 16;

  private final RowComparator comparator;
  private final MemoryBudget budget;
  private final String owner;
  private final List<VectorSchemaRoot> batches = new ArrayList<>();
  private final List<RowComparator.KeyColumns> bound = new ArrayList<>();
  private final List<Long> reserved = new ArrayList<>();
  private int rows;

  SortBuffer(RowComparator comparator, MemoryBudget budget, String owner) {
    RowGather.checkSupported(comparator.schema());
    this.comparator = comparator;
    this.budget = budget;
    this.owner = owner;
  }

  /** Keeps a non-empty {@code batch}, or closes it and throws when it cannot. */
  void add(VectorSchemaRoot batch) {
    keep(batch, true);
  }

  /**
   * Keeps a non-empty {@code batch} if the budget (and the row limit) lets it, and says whether it
   * did; a refused batch stays the caller's, so a spilling sort can make room and try again. Other
   * failures close the batch and throw, as {@link #add} does.
   */
  boolean tryAdd(VectorSchemaRoot batch) {
    return keep(batch, false);
  }

  private boolean keep(VectorSchemaRoot batch, boolean mustFit) {
    try {
      checkSchema(comparator.schema(), batch);
      RowComparator.KeyColumns keys = comparator.bind(batch);
      boolean tooMany = batch.getRowCount() > MAX_ROWS - rows;
      if (tooMany && mustFit) {
        throw new QuiverException(
            ErrorCode.MEMORY_BUDGET_EXCEEDED,
            owner + " sorts at most " + MAX_ROWS + " rows in memory; use more tasks");
      }
      long bytes = BatchTransfer.heldBytes(batch) + ROW_BYTES * batch.getRowCount();
      if (mustFit) {
        budget.reserve(bytes, "the buffered batches of " + owner);
      } else if (tooMany || !budget.tryReserve(bytes)) {
        return false;
      }
      batches.add(batch);
      bound.add(keys);
      reserved.add(bytes);
      rows += batch.getRowCount();
      return true;
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
  }

  /** Fails unless {@code batch} has {@code schema}'s column types (names may differ). */
  static void checkSchema(Schema schema, VectorSchemaRoot batch) {
    List<FieldVector> vectors = batch.getFieldVectors();
    boolean matches = vectors.size() == schema.getFields().size();
    for (int i = 0; matches && i < vectors.size(); i++) {
      matches = vectors.get(i).getField().getType().equals(schema.getFields().get(i).getType());
    }
    if (!matches) {
      throw new IllegalArgumentException(
          "batch schema " + batch.getSchema() + " does not match " + schema);
    }
  }

  /** Rows kept in the buffer. */
  int rowCount() {
    return rows;
  }

  int batchCount() {
    return batches.size();
  }

  RowComparator.KeyColumns keys(int batch) {
    return bound.get(batch);
  }

  VectorSchemaRoot batch(int batch) {
    return batches.get(batch);
  }

  /** References {@code batch << 32 | row} to every kept row in sorted order, stable. */
  long[] sortedRefs() {
    long[] refs = new long[rows];
    int at = 0;
    for (int b = 0; b < batches.size(); b++) {
      int count = batches.get(b).getRowCount();
      for (int row = 0; row < count; row++) {
        refs[at++] = (long) b << 32 | row;
      }
    }
    new IndexSort(comparator, batches, bound).sort(refs, rows);
    return refs;
  }

  /** A gather of rows of the kept batches into new batches from {@code allocator}. */
  RowGather gather(BufferAllocator allocator) {
    return new RowGather(comparator.schema(), batches, allocator);
  }

  /**
   * Bytes the values of the kept rows take (not the capacity of their buffers): about what the same
   * rows take once gathered into new batches.
   */
  long dataBytes() {
    long total = 0;
    for (VectorSchemaRoot batch : batches) {
      if (batch != null) {
        for (FieldVector vector : batch.getFieldVectors()) {
          total += vector.getBufferSize();
        }
      }
    }
    return total;
  }

  /**
   * Sorts the kept rows and hands them out in key order, {@code batchRows} rows per batch (the last
   * has fewer), gathered into new batches from {@code allocator}. Each kept batch is released as
   * soon as its last row has been handed out, and the buffer is empty once the drain returned
   * {@code null}. Nothing may be added while a drain is under way.
   */
  Drain drain(BufferAllocator allocator, int batchRows) {
    return new Drain(allocator, batchRows);
  }

  /** A sorted drain of the buffer, see {@link #drain}. */
  final class Drain {
    private final int batchRows;
    private final int total = rows;
    private final long[] refs;
    private final RowGather gather;
    // Rows still to be handed out per batch: a batch is released as soon as it has none left.
    private final int[] remaining = new int[batches.size()];
    private int from;
    private boolean done;

    private Drain(BufferAllocator allocator, int batchRows) {
      this.batchRows = batchRows;
      this.refs = sortedRefs();
      this.gather = gather(allocator);
      for (int b = 0; b < remaining.length; b++) {
        remaining[b] = batches.get(b).getRowCount();
      }
    }

    /** The next batch of sorted rows, owned by the caller, or {@code null} after the last. */
    VectorSchemaRoot next() {
      if (from >= total) {
        if (!done) {
          done = true;
          clear();
        }
        return null;
      }
      int count = Math.min(batchRows, total - from);
      VectorSchemaRoot out = gather.gather(refs, from, count);
      for (int i = from; i < from + count; i++) {
        int batch = PrefixEncoder.batch(refs[i]);
        if (--remaining[batch] == 0) {
          release(batch);
        }
      }
      from += count;
      return out;
    }
  }

  /** Closes batch {@code batch} and returns its reservation; its rows must not be read again. */
  void release(int batch) {
    VectorSchemaRoot root = batches.set(batch, null);
    if (root != null) {
      root.close();
      budget.release(reserved.get(batch));
    }
  }

  /** Releases every batch; the buffer is empty and reusable afterwards. */
  void clear() {
    for (int b = 0; b < batches.size(); b++) {
      release(b);
    }
    batches.clear();
    bound.clear();
    reserved.clear();
    rows = 0;
  }

  @Override
  public void close() {
    clear();
  }
}
