package dev.quiver.operators.join;

import dev.quiver.operators.kernel.BatchAppender;
import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The spill files of one side of one level of {@link JoinPartitions}, with the small slices of each
 * partition coalesced into batches of about the target size before they are written.
 *
 * <p>Why coalesce: a batch split 32 ways leaves a few hundred rows per partition, and every written
 * batch costs an IPC message and a compressed frame per buffer; written as they come, TPC-H SF 1
 * spent most of a spilling join's time there. The pending rows are reserved in the budget as one
 * pool of {@link HashJoinSpec#headroom()} bytes, taken when the writing starts (or at a later
 * batch, when the budget had no room then) and returned when it ends; without the pool slices are
 * written as they come.
 */
final class PartitionWriters implements AutoCloseable {
  private final HashJoinSpec spec;
  private final Schema schema;
  private final String purpose;
  private final MemoryBudget budget;
  private final int targetRows;
  private final SpillWriter[] writers = new SpillWriter[JoinPartitions.COUNT];
  private final BatchAppender[] pending = new BatchAppender[JoinPartitions.COUNT];
  private final int[] pendingRows = new int[JoinPartitions.COUNT];
  private final long[] pendingBytes = new long[JoinPartitions.COUNT];
  private long pooled; // reserved for pending rows
  private long held; // estimated bytes of the pending rows

  PartitionWriters(HashJoinSpec spec, Schema schema, String purpose) {
    this.spec = spec;
    this.schema = schema;
    this.purpose = purpose;
    this.budget = spec.context().budget();
    this.targetRows = spec.context().targetBatchRows();
  }

  /**
   * Writes rows {@code order[from .. from + count)} of {@code batch} (the caller's) to {@code p}.
   */
  void write(int p, VectorSchemaRoot batch, int[] order, int from, int count) {
    if (pooled == 0 && budget.tryReserve(spec.headroom())) {
      pooled = spec.headroom();
    }
    boolean whole = count == batch.getRowCount(); // then order lists every row, in some order
    if (pooled == 0 || count >= targetRows / 2) {
      if (whole) {
        writer(p).write(batch);
      } else {
        try (VectorSchemaRoot part = Take.take(batch, order, from, count, allocator())) {
          writer(p).write(part);
        }
      }
      return;
    }
    VectorSchemaRoot part = whole ? batch : Take.take(batch, order, from, count, allocator());
    try {
      // An appender grows geometrically: count twice the slice's bytes.
      long bytes = 2 * BatchTransfer.heldBytes(part);
      if (held + bytes > pooled) {
        flushAll();
      }
      if (pendingRows[p] + count > targetRows) {
        flush(p);
      }
      if (pending[p] == null) {
        pending[p] = new BatchAppender(schema, allocator(), targetRows);
      }
      pending[p].append(part, 0, count);
      pendingRows[p] += count;
      pendingBytes[p] += bytes;
      held += bytes;
    } finally {
      if (part != batch) {
        part.close();
      }
    }
  }

  /** Writes every pending row and ends the files: the files by partition, null where none. */
  SpillFile[] finish() {
    flushAll();
    SpillFile[] files = new SpillFile[JoinPartitions.COUNT];
    try {
      for (int p = 0; p < files.length; p++) {
        if (writers[p] != null) {
          files[p] = writers[p].finish();
          writers[p] = null;
        }
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, Arrays.asList(files));
      throw e;
    }
    close(); // the appenders and the pool
    return files;
  }

  private void flushAll() {
    for (int p = 0; p < pending.length; p++) {
      flush(p);
    }
  }

  private void flush(int p) {
    if (pendingRows[p] == 0) {
      return;
    }
    try (VectorSchemaRoot batch = pending[p].build()) {
      pendingRows[p] = 0;
      held -= pendingBytes[p];
      pendingBytes[p] = 0;
      writer(p).write(batch);
    }
  }

  private SpillWriter writer(int p) {
    if (writers[p] == null) {
      writers[p] = spec.context().spillSpace().create(schema, purpose);
    }
    return writers[p];
  }

  private org.apache.arrow.memory.BufferAllocator allocator() {
    return spec.context().allocator();
  }

  /** Abandons unfinished files, drops pending rows and returns the pool. Idempotent. */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>(Arrays.asList(writers));
    owned.addAll(Arrays.asList(pending));
    Arrays.fill(writers, null);
    Arrays.fill(pending, null);
    Arrays.fill(pendingRows, 0);
    Arrays.fill(pendingBytes, 0);
    held = 0;
    budget.release(pooled);
    pooled = 0;
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
