package dev.quiver.operators.spill;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Streams the batches of a {@link SpillFile} back, one at a time, so an operator holds only the
 * batches it asked for (a k-way merge of n runs holds about one batch per run).
 */
public interface SpillReader extends AutoCloseable {
  /**
   * The next batch, allocated from the reader's allocator and owned by the caller, or {@code null}
   * when the file has no more batches.
   */
  VectorSchemaRoot next();

  /** Releases the reader's file handle and buffers. Idempotent. */
  @Override
  void close();
}
