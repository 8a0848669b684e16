package dev.quiver.operators.join;

import dev.quiver.operators.spill.SpillFile;
import java.util.BitSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Rows an {@link IntervalJoinBuffer} holds: a batch in memory, or a run of batches in a spill file;
 * their event times lie in {@code [min, max]}. The buffer owns the batch or file and closes it.
 */
final class HeldRows {
  final VectorSchemaRoot batch; // null when on disk
  final SpillFile file; // null when in memory
  final int[] batchRows; // rows of each batch of the file, in order (on disk)
  final long min;
  final long max;
  final long bytes; // reserved in the budget (in memory)
  final long rowCount;
  long joinedBelow = Long.MIN_VALUE; // rows with an earlier event time were joined
  final BitSet matched; // probe rows that met a build row (LEFT, FULL joins)

  /** A batch held in memory, {@code bytes} of it reserved in the budget. */
  HeldRows(VectorSchemaRoot batch, long min, long max, long bytes, BitSet matched) {
    this.batch = batch;
    this.file = null;
    this.batchRows = null;
    this.min = min;
    this.max = max;
    this.bytes = bytes;
    this.rowCount = batch.getRowCount();
    this.matched = matched;
  }

  /** A run of batches in {@code file}, {@code batchRows[i]} rows in its batch i. */
  HeldRows(SpillFile file, int[] batchRows, long min, long max, BitSet matched) {
    this.batch = null;
    this.file = file;
    this.batchRows = batchRows;
    this.min = min;
    this.max = max;
    this.bytes = 0;
    this.rowCount = file.rows();
    this.matched = matched;
  }

  /** Whether no row of this batch has been joined yet. */
  boolean untouched() {
    return joinedBelow <= min;
  }

  /** Whether the rows are in a spill file. */
  boolean onDisk() {
    return file != null;
  }

  /**
   * Passes each batch of these rows to {@code out}, with the number of its first row in the run (0
   * in memory): the batch in memory as it is held, a file's batches reread one at a time (the file
   * stays). Each batch is valid during the call only.
   */
  void forEachBatch(BufferAllocator allocator, RowsAt out) {
    if (!onDisk()) {
      out.accept(batch, 0);
      return;
    }
    int[] first = {0};
    file.rereadEach(
        allocator,
        rows -> {
          out.accept(rows, first[0]);
          first[0] += rows.getRowCount();
        });
  }

  /** Receives a held batch (valid during the call) and the number of its first row in its run. */
  @FunctionalInterface
  interface RowsAt {
    void accept(VectorSchemaRoot batch, int firstRow);
  }
}
