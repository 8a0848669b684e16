package dev.quiver.operators.aggregate;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.kernel.BatchAppender;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Passes batches of at most {@code targetRows} rows on in batches of exactly that many (the last
 * one aside): the many partial batches of a spilled aggregate's partitions become few full ones.
 * Full batches that arrive while nothing is pending pass through without a copy.
 */
final class CoalescingSink implements BatchSink, AutoCloseable {
  private final BatchSink sink;
  private final int targetRows;
  private final BatchAppender pending;

  CoalescingSink(Schema schema, BufferAllocator allocator, int targetRows, BatchSink sink) {
    this.sink = sink;
    this.targetRows = targetRows;
    this.pending = new BatchAppender(schema, allocator, targetRows);
  }

  @Override
  public void accept(VectorSchemaRoot batch) {
    if (pending.rowCount() == 0 && batch.getRowCount() >= targetRows) {
      sink.accept(batch);
      return;
    }
    try (batch) {
      int rows = batch.getRowCount();
      for (int from = 0; from < rows; ) {
        int count = Math.min(rows - from, targetRows - pending.rowCount());
        pending.append(batch, from, count);
        from += count;
        if (pending.rowCount() == targetRows) {
          sink.accept(pending.build());
        }
      }
    }
  }

  /** Passes on the rows still pending. */
  void flush() {
    if (pending.rowCount() > 0) {
      sink.accept(pending.build());
    }
  }

  @Override
  public void close() {
    pending.close();
  }
}
