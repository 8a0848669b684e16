package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.plan.join.JoinType;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How an {@link IntervalJoinOperator} of a LEFT or FULL join emits the held probe rows that never
 * matched, padded with NULL build columns, once they are dead: every dead row without a {@link
 * HeldRows#matched} bit comes out and gets the bit, so it comes out once, also when its batch stays
 * held for newer rows. Rows in a spill file come out when all of the file's rows are dead (the file
 * is reread then, once). Not thread-safe.
 */
final class ProbePadding {
  private final JoinType type;
  private final Schema probeSchema;
  private final Schema buildSchema;
  private final int probeTimeColumn;
  private final BufferAllocator allocator;
  private final int targetRows;
  private final BatchSink sink;
  private int[] padRows = new int[0];

  ProbePadding(
      JoinType type,
      Schema probeSchema,
      Schema buildSchema,
      int probeTimeColumn,
      BufferAllocator allocator,
      int targetRows,
      BatchSink sink) {
    this.type = requireNonNull(type, "type is null");
    this.probeSchema = requireNonNull(probeSchema, "probeSchema is null");
    this.buildSchema = requireNonNull(buildSchema, "buildSchema is null");
    this.probeTimeColumn = probeTimeColumn;
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.targetRows = targetRows;
    this.sink = requireNonNull(sink, "sink is null");
  }

  /**
   * Emits the rows of {@code held} with an event time before {@code deadBelow} (µs; {@code
   * Long.MAX_VALUE}: all of them) that never matched, padded, and marks them.
   */
  void pad(List<HeldRows> held, long deadBelow) {
    try (JoinOutput out =
        new JoinOutput(type, probeSchema, buildSchema, allocator, targetRows, sink)) {
      for (HeldRows rows : held) {
        boolean all = rows.max < deadBelow;
        if (rows.min >= deadBelow
            || (rows.onDisk() && !all) // a file's rows are padded when all of them are dead
            || rows.matched.cardinality() == rows.rowCount) {
          continue;
        }
        rows.forEachBatch(
            allocator, (batch, first) -> pad(out, rows, batch, first, all, deadBelow));
      }
      out.flush();
    }
  }

  /**
   * Emits the rows of {@code batch} (the rows of {@code held} from its row {@code first}) that are
   * dead ({@code all}, or before {@code deadBelow}) and have no matched bit, padded, and sets their
   * bits.
   */
  private void pad(
      JoinOutput out,
      HeldRows held,
      VectorSchemaRoot batch,
      int first,
      boolean all,
      long deadBelow) {
    int count = batch.getRowCount();
    if (padRows.length < count) {
      padRows = new int[count];
    }
    ArrowBuf times = batch.getVector(probeTimeColumn).getDataBuffer();
    int unmatched = 0;
    for (int row = held.matched.nextClearBit(first) - first; row < count; ) {
      if (all || times.getLong((long) row * Long.BYTES) < deadBelow) {
        padRows[unmatched++] = row;
      }
      row = held.matched.nextClearBit(first + row + 1) - first;
    }
    out.probeRows(batch, padRows, unmatched);
    for (int i = 0; i < unmatched; i++) {
      held.matched.set(first + padRows[i]); // padded: never again
    }
  }
}
