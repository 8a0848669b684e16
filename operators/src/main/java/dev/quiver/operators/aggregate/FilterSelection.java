package dev.quiver.operators.aggregate;

import dev.quiver.operators.kernel.Take;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The rows of one batch that an aggregate call with {@code FILTER (WHERE f)} folds: those where the
 * boolean column {@code f} is TRUE (FALSE and NULL are skipped), with their group ids and, unless
 * every row is selected, their argument values gathered into a vector of their own.
 *
 * <pre>
 *   f:         T  F  NULL  T        rows:     0  3
 *   group ids: 4  4  7     9   ─►   groups:   4  9     argument: x[0] x[3]
 * </pre>
 *
 * Per batch, never per row: one pass over the bitmaps and one gather. Not thread-safe.
 */
final class FilterSelection {
  private final Reservation reservation;
  private int[] rows = new int[0];
  private int[] groups = new int[0];
  private int count;
  private FieldVector argument; // the selected values: the source's own vector when all selected
  private boolean owned; // whether argument was gathered here (and is closed by release)
  private FieldVector by; // the selected values of a second column (ARG_MIN's by), or null
  private boolean byOwned;

  FilterSelection(Reservation reservation) {
    this.reservation = reservation;
  }

  /** Makes room for batches of {@code rowCount} rows, before anything changes. */
  void reserve(int rowCount) {
    if (rowCount > rows.length) {
      int capacity = Reservation.grownCapacity(rows.length, rowCount);
      reservation.reserve((long) (capacity - rows.length) * 2 * Integer.BYTES);
      rows = new int[capacity];
      groups = new int[capacity];
    }
  }

  /**
   * Selects the rows {@code [0, rowCount)} where {@code filter} is TRUE and gathers {@code source}
   * (null for {@code COUNT(*)}) at them; the result stays valid until {@link #release}.
   */
  void select(
      FieldVector filter,
      FieldVector source,
      int[] groupIds,
      int rowCount,
      BufferAllocator allocator) {
    select(filter, source, null, groupIds, rowCount, allocator);
  }

  /** As above, gathering a second column {@code bySource} too unless it is null. */
  void select(
      FieldVector filter,
      FieldVector source,
      FieldVector bySource,
      int[] groupIds,
      int rowCount,
      BufferAllocator allocator) {
    release();
    ArrowBuf data = filter.getDataBuffer();
    ArrowBuf validity = Columns.validity(filter);
    int selected = 0;
    for (int i = 0; i < rowCount; i++) {
      if (Columns.isSet(data, i) && (validity == null || Columns.isSet(validity, i))) {
        rows[selected] = i;
        groups[selected++] = groupIds[i];
      }
    }
    count = selected;
    if (source == null || selected == rowCount) {
      argument = source;
    } else {
      argument = Take.take(source, rows, selected, allocator);
      owned = true;
    }
    if (bySource == null || selected == rowCount) {
      by = bySource;
    } else {
      by = Take.take(bySource, rows, selected, allocator);
      byOwned = true;
    }
  }

  /** The selected values of the second column, null without one. */
  FieldVector by() {
    return by;
  }

  /** The selected argument values (null for {@code COUNT(*)}). */
  FieldVector argument() {
    return argument;
  }

  /** The group id of each selected row. */
  int[] groupIds() {
    return groups;
  }

  int count() {
    return count;
  }

  /** Closes the gathered values of the last {@link #select}, if any. */
  void release() {
    if (owned) {
      argument.close();
    }
    if (byOwned) {
      by.close();
    }
    argument = null;
    owned = false;
    by = null;
    byOwned = false;
    count = 0;
  }
}
