package dev.quiver.operators.aggregate;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Folds batches into {@link GroupStates}, making room when the budget refuses one.
 *
 * <pre>
 *   batch ─► tryAdd ─refused─► groups to let go of? ─yes─► relief (spill or emit, clear) ─► again
 *                                                   └no──► halve the rows ─► again, slice by slice
 *                                                          (one row refused: the budget's error)
 * </pre>
 */
final class GroupFeeder {
  /** Makes room in the budget by spilling or emitting the groups and clearing them. */
  interface Relief {
    /** Whether it made room; false when it cannot (then the batch is split instead). */
    boolean relieve();

    /**
     * Whether {@link #relieve} is worth a try when the budget refuses {@code fed}: by default
     * whether those groups hold any. A window aggregate frees other windows' groups too, so it
     * tries even when the window being fed is empty.
     */
    default boolean mayFree(GroupStates fed) {
      return fed.canShrink();
    }
  }

  private final OperatorContext context;
  private final GroupStates groups;

  GroupFeeder(OperatorContext context, GroupStates groups) {
    this.context = context;
    this.groups = groups;
  }

  /** Folds {@code batch} (which the caller keeps) into the groups as {@code feed} says. */
  void add(VectorSchemaRoot batch, Feed feed, Relief relief) {
    add(batch, feed, relief, GroupStates.FoldObserver.NONE);
  }

  /**
   * As {@link #add(VectorSchemaRoot, Feed, Relief)}, {@code observer} seeing each piece the batch
   * is folded in.
   */
  void add(VectorSchemaRoot batch, Feed feed, Relief relief, GroupStates.FoldObserver observer) {
    int rows = batch.getRowCount();
    int step = rows;
    for (int from = 0; from < rows; ) {
      int count = Math.min(step, rows - from);
      QuiverException refused;
      if (count == rows) {
        refused = groups.tryAdd(batch, feed, observer);
      } else {
        try (VectorSchemaRoot slice = slice(batch, from, count, context.allocator())) {
          refused = groups.tryAdd(slice, feed, observer);
        }
      }
      if (refused == null) {
        from += count;
      } else if (!(relief.mayFree(groups) && relief.relieve())) {
        if (count == 1) {
          throw refused;
        }
        if (groups.table() != null && groups.table().groupCount() == 0) {
          groups.clear(); // let go of the room grown for the refused rows
        }
        step = (count + 1) / 2;
      }
    }
  }

  /** Rows {@code [from, from + count)} of {@code batch} as a new batch sharing its buffers. */
  static VectorSchemaRoot slice(
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
}
