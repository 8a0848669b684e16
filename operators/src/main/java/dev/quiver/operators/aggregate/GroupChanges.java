package dev.quiver.operators.aggregate;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.hash.GroupTable;
import dev.quiver.operators.kernel.CoalescingOutput;
import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.changelog.RowKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The changelog of the groups of an {@link UpdatingAggregateOperator}: watches each batch fold into
 * the {@link GroupStates} and writes what it changed.
 *
 * <pre>
 *   keys inserted ─► the groups the batch touches, in order of first row (a stamp per group):
 *                    existing e1 e2 ..., new n1 n2 ...  ─► final values of e1 e2 ... (old)
 *   folded        ─► final values of e1 e2 ... n1 n2 ... (new) ─► old = new, column by column?
 *                    ─► -U rows: the changed existing groups' old values
 *                    ─► +U rows: their new values, then +I rows: the new groups' values
 * </pre>
 *
 * The rows go to a {@link CoalescingOutput} (pending rows reserved in the task's budget) until
 * {@link #flush}. A global aggregate's one group is new until its first row is written ({@link
 * #globalWritten}). Stamps and per-row arrays are reserved with the batch's other reservations. Not
 * thread-safe.
 */
final class GroupChanges implements GroupStates.FoldObserver, AutoCloseable {
  private final OperatorContext context;
  private final GroupStates groups;
  private final Schema output; // keys, final values, op
  private final int keys;
  private final Reservation reservation;
  private final CoalescingOutput out;
  private final ColdGroups cold; // null: every group stays in memory
  private boolean globalWritten;
  private int[] stamps = new int[0]; // by group: the batch that touched it last
  private int stamp;
  private int[] touched = new int[0]; // by row: existing groups touched, then the new ones
  private int[] added = new int[0]; // by row: new groups; then the groups of the rows written
  private int[] kept = new int[0]; // by row: which rows of old and new values are written
  private int[] coldMarks = new int[0]; // by new group: the batch that loaded it from cold
  private int groupsBefore; // of the batch being folded
  private int coldFound; // of the batch being folded: new groups that were cold
  private int existing; // of the batch being folded
  private int fresh;
  private FieldVector[] before; // final values of the existing groups before the fold

  /**
   * @param cold where groups that left memory are, null when they cannot leave it: a new group
   *     found there is an existing group (-U/+U), not a new one (+I)
   */
  GroupChanges(
      OperatorContext context,
      GroupStates groups,
      ColdGroups cold,
      Schema output,
      BatchSink sink,
      Object owner) {
    this.context = context;
    this.cold = cold;
    this.groups = groups;
    this.output = output;
    this.keys = groups.layout().keyFields.size();
    this.reservation = new Reservation(context.budget(), owner + " changes");
    this.out = new CoalescingOutput(context, sink, owner);
  }

  /** Whether a global aggregate has written its row: its next change is an update. */
  boolean globalWritten() {
    return globalWritten;
  }

  /** A restored global aggregate whose row was written before the snapshot. */
  void globalWritten(boolean written) {
    globalWritten = written;
  }

  @Override
  public void reserve(int rows, int groupsBefore, int groupCount) {
    if (groups.table() != null && groupCount > stamps.length) {
      int capacity = Reservation.grownCapacity(stamps.length, groupCount);
      reservation.reserve((long) (capacity - stamps.length) * Integer.BYTES);
      stamps = Arrays.copyOf(stamps, capacity);
    }
    if (rows > touched.length) {
      int capacity = Reservation.grownCapacity(touched.length, rows);
      reservation.reserve((long) (capacity - touched.length) * 4 * Integer.BYTES);
      touched = new int[capacity];
      added = new int[capacity];
      kept = new int[capacity];
      coldMarks = new int[capacity];
    }
    this.groupsBefore = groupsBefore;
    coldFound = cold == null ? 0 : cold.load(groups, groupsBefore, groupCount);
  }

  @Override
  public void refused() {
    coldFound = 0;
    if (cold != null) {
      cold.release();
    }
  }

  @Override
  public void beforeFold(int[] groupIds, int rows, int groupsBefore) {
    existing = 0;
    fresh = 0;
    if (groups.table() == null) {
      if (globalWritten) {
        touched[existing++] = 0;
      } else {
        added[fresh++] = 0;
      }
    } else {
      int batch = nextStamp();
      if (coldFound > 0) {
        cold.fold(groups); // the cold groups hold their old values again: they exist
        for (int i = 0; i < coldFound; i++) {
          coldMarks[cold.loadedGroup(i) - groupsBefore] = batch;
        }
      }
      int[] stamps = this.stamps;
      int[] marks = coldMarks;
      boolean anyCold = coldFound > 0;
      for (int i = 0; i < rows; i++) {
        int group = groupIds[i];
        if (stamps[group] != batch) {
          stamps[group] = batch;
          if (group < groupsBefore || (anyCold && marks[group - groupsBefore] == batch)) {
            touched[existing++] = group;
          } else {
            added[fresh++] = group;
          }
        }
      }
    }
    if (existing > 0) {
      before = finalValues(touched, existing);
    }
  }

  private int nextStamp() {
    if (stamp == Integer.MAX_VALUE) {
      Arrays.fill(stamps, 0); // 0 is no batch
      Arrays.fill(coldMarks, 0);
      stamp = 0;
    }
    return ++stamp;
  }

  @Override
  public void afterFold() {
    int n = existing;
    int k = fresh;
    System.arraycopy(added, 0, touched, n, k);
    FieldVector[] after = null;
    try {
      after = finalValues(touched, n + k);
      Arrays.fill(kept, 0, n, 0);
      for (int c = 0; n > 0 && c < after.length; c++) {
        Columns.markDifferent(before[c], after[c], n, kept);
      }
      int changed = 0;
      for (int i = 0; i < n; i++) {
        if (kept[i] != 0) {
          kept[changed++] = i;
        }
      }
      for (int i = 0; i < k; i++) {
        kept[changed + i] = n + i;
      }
      for (int i = 0; i < changed + k; i++) {
        added[i] = touched[kept[i]];
      }
      if (changed > 0) {
        emit(rows(before, n, changed, changed, RowKind.UPDATE_BEFORE));
      }
      if (changed + k > 0) {
        emit(rows(after, n + k, changed + k, changed, RowKind.UPDATE_AFTER));
      }
      globalWritten |= groups.table() == null;
      if (coldFound > 0) {
        cold.forget(); // in memory now, with the batch folded in
        coldFound = 0;
      }
    } finally {
      close(before);
      close(after);
      before = null;
    }
  }

  /** The final values of groups {@code ids[0, count)}, one vector per call. */
  private FieldVector[] finalValues(int[] ids, int count) {
    Accumulator[] accumulators = groups.accumulators();
    FieldVector[] values = new FieldVector[accumulators.length];
    try {
      for (int c = 0; c < values.length; c++) {
        values[c] = output.getFields().get(keys + c).createVector(context.allocator());
        accumulators[c].writeFinal(ids, count, values[c]);
      }
    } catch (RuntimeException | Error e) {
      close(values);
      throw e;
    }
    return values;
  }

  /**
   * Rows of the groups {@code added[0, count)}: their keys, rows {@code kept[0, count)} of {@code
   * values} ({@code rows} long, taken as they are when all are kept), and {@code kind} for the
   * first {@code updates} rows (+I after them).
   */
  private VectorSchemaRoot rows(
      FieldVector[] values, int rows, int count, int updates, RowKind kind) {
    BufferAllocator allocator = context.allocator();
    List<FieldVector> vectors = new ArrayList<>(output.getFields().size());
    try {
      GroupTable table = groups.table();
      if (table != null) {
        vectors.addAll(table.keys(added, count, allocator).getFieldVectors());
      }
      for (FieldVector value : values) {
        vectors.add(count == rows ? copy(value) : Take.take(value, kept, count, allocator));
      }
      Field field = output.getFields().get(output.getFields().size() - 1);
      TinyIntVector op = (TinyIntVector) field.createVector(allocator);
      vectors.add(op);
      op.allocateNew(count);
      for (int i = 0; i < count; i++) {
        op.set(i, i < updates ? kind.code() : RowKind.INSERT.code());
      }
      op.setValueCount(count);
      return new VectorSchemaRoot(output, vectors, count);
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
  }

  /**
   * Passes {@code batch} on in pieces of at most the target size (the output takes no more). When
   * the budget has no room left to hold it pending (the groups took it all, and the next batch will
   * move them to the cold store), the pending rows and the batch go on at once instead.
   */
  private void emit(VectorSchemaRoot batch) {
    int rows = batch.getRowCount();
    int target = out.targetRows();
    MemoryBudget budget = context.budget();
    if (cold != null
        && !out.emitsDirectly(Math.min(rows, target))
        && budget.limit() - budget.used() < BatchTransfer.heldBytes(batch)) {
      out.flush();
      for (int from = 0; from < rows; from += target) {
        out.emit(
            rows <= target
                ? batch
                : GroupFeeder.slice(
                    batch, from, Math.min(target, rows - from), context.allocator()));
      }
      if (rows > target) {
        batch.close();
      }
      return;
    }
    if (rows <= target) {
      out.add(batch);
      return;
    }
    try (batch) {
      for (int from = 0; from < rows; from += target) {
        out.add(GroupFeeder.slice(batch, from, Math.min(target, rows - from), context.allocator()));
      }
    }
  }

  /** {@code value}'s buffers moved into a new vector: the old one is closed after the batch. */
  private FieldVector copy(FieldVector value) {
    var transfer = value.getTransferPair(context.allocator());
    transfer.transfer();
    return (FieldVector) transfer.getTo();
  }

  /** Emits the rows still pending. */
  void flush() {
    out.flush();
  }

  @Override
  public void close() {
    close(before);
    before = null;
    coldFound = 0;
    out.close();
    reservation.releaseAll();
  }

  private static void close(FieldVector[] vectors) {
    if (vectors != null) {
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(Arrays.asList(vectors)));
    }
  }
}
