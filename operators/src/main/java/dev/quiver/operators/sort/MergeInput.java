package dev.quiver.operators.sort;

import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayDeque;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One input of a {@link KWayMerge}: its buffered batches and a cursor on the current one. An input
 * has a current batch exactly when it has a buffered row (empty batches are never queued). Every
 * buffered batch holds a reservation of its {@link #bytes} in the budget until it is released.
 */
final class MergeInput {
  final int index;
  private final MemoryBudget budget;
  private final ArrayDeque<VectorSchemaRoot> queued = new ArrayDeque<>();
  VectorSchemaRoot batch;
  RowComparator.KeyColumns keys;
  int position;
  int rows;
  boolean finished;

  MergeInput(int index, MemoryBudget budget) {
    this.index = index;
    this.budget = budget;
  }

  boolean hasRow() {
    return batch != null;
  }

  /**
   * Buffers a non-empty batch whose bytes are already reserved; returns whether it became the
   * current one.
   */
  boolean offer(VectorSchemaRoot next, RowComparator comparator) {
    if (batch != null) {
      queued.addLast(next);
      return false;
    }
    load(next, comparator);
    return true;
  }

  /** Releases the fully consumed current batch; returns whether another one became current. */
  boolean advance(RowComparator comparator) {
    release(batch);
    batch = null;
    keys = null;
    VectorSchemaRoot next = queued.pollFirst();
    if (next == null) {
      return false;
    }
    load(next, comparator);
    return true;
  }

  private void load(VectorSchemaRoot next, RowComparator comparator) {
    keys = comparator.bind(next); // cannot fail: the merge checked the batch's schema
    batch = next;
    position = 0;
    rows = next.getRowCount();
  }

  /** Releases every batch this input still holds. */
  void close() {
    if (batch != null) {
      release(batch);
      batch = null;
      keys = null;
    }
    for (VectorSchemaRoot queuedBatch : queued) {
      release(queuedBatch);
    }
    queued.clear();
  }

  private void release(VectorSchemaRoot done) {
    long bytes =
        BatchTransfer.heldBytes(
            done); // unchanged since it was reserved: nobody mutates a buffered batch
    done.close();
    budget.release(bytes);
  }
}
