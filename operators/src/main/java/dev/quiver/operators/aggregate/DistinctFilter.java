package dev.quiver.operators.aggregate;

import dev.quiver.operators.hash.GroupTable;
import dev.quiver.operators.hash.VectorHasher;
import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The DISTINCT of one aggregate call in a SINGLE aggregate: a {@link GroupTable} of the (group id,
 * argument) pairs seen so far; only the first row of each pair reaches the call's accumulator.
 *
 * <pre>
 *   insert: rows ─► (group id, x) ─► pair table ─► new pair? ─yes─► remember the row
 *   feed: the remembered rows, gathered ─► accumulator
 * </pre>
 *
 * A NULL argument forms a pair too, but the accumulator skips it like any NULL.
 */
final class DistinctFilter implements AutoCloseable {
  private static final Field GROUP =
      new Field("group", FieldType.notNullable(new ArrowType.Int(32, true)), null);

  private final GroupTable pairs;
  private final BufferAllocator allocator;
  private final Reservation reservation;
  private int capacity;
  private long[] hashes = new long[0];
  private int[] pairIds = new int[0];
  private int[] rows = new int[0];
  private int[] groups = new int[0];
  private boolean[] claimed = new boolean[0];
  private int fresh; // rows of the last insert whose pair was new

  DistinctFilter(
      Field argument,
      BufferAllocator allocator,
      MemoryBudget budget,
      Reservation reservation,
      String purpose) {
    this.pairs = new GroupTable(List.of(GROUP, argument), allocator, budget, purpose);
    this.allocator = allocator;
    this.reservation = reservation;
  }

  /** The distinct (group, argument) pairs seen so far. */
  int pairCount() {
    return pairs.groupCount();
  }

  /** Pairs {@code [from, from + count)} as a new batch: group id (int32), argument. */
  VectorSchemaRoot pairs(int from, int count) {
    return pairs.keys(from, count, allocator);
  }

  /** Forgets the pairs from {@code count} on (the newest): undoes an {@link #insert}. */
  void truncate(int count) {
    pairs.truncate(count);
    fresh = 0;
  }

  /**
   * Adds the pairs of rows {@code [0, rowCount)} and remembers the rows whose pair is new, for
   * {@link #feed}. All or nothing, like {@link GroupTable#insert}.
   */
  void insert(FieldVector argument, int[] groupIds, int rowCount) {
    ensureCapacity(rowCount);
    fresh = 0;
    try (IntVector groupColumn = new IntVector(GROUP, allocator)) {
      groupColumn.allocateNew(rowCount);
      ArrowBuf data = groupColumn.getDataBuffer();
      for (int i = 0; i < rowCount; i++) {
        data.setInt((long) i << 2, groupIds[i]);
      }
      groupColumn.getValidityBuffer().setOne(0L, (rowCount + 7) / 8L);
      groupColumn.setValueCount(rowCount);
      List<FieldVector> keys = List.of(groupColumn, argument);
      VectorHasher.hash(keys, rowCount, hashes);
      int before = pairs.groupCount();
      pairs.insert(keys, rowCount, hashes, pairIds);
      Arrays.fill(claimed, 0, pairs.groupCount() - before, false);
      int count = 0;
      for (int i = 0; i < rowCount; i++) {
        int pair = pairIds[i] - before;
        if (pair >= 0 && !claimed[pair]) {
          claimed[pair] = true;
          rows[count] = i;
          groups[count++] = groupIds[i];
        }
      }
      fresh = count;
    }
  }

  /** Folds the rows of the last {@link #insert} whose pair was new into {@code accumulator}. */
  void feed(FieldVector argument, Accumulator accumulator) {
    if (fresh > 0) {
      try (FieldVector distinct = Take.take(argument, rows, fresh, allocator)) {
        accumulator.addInput(distinct, groups, fresh);
      }
    }
  }

  private void ensureCapacity(int rowCount) {
    if (rowCount > capacity) {
      int grown = Reservation.grownCapacity(capacity, rowCount);
      reservation.reserve((long) (grown - capacity) * (Long.BYTES + 3 * Integer.BYTES + 1));
      capacity = grown;
      hashes = new long[grown];
      pairIds = new int[grown];
      rows = new int[grown];
      groups = new int[grown];
      claimed = new boolean[grown];
    }
  }

  @Override
  public void close() {
    pairs.close();
  }
}
