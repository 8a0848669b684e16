package dev.quiver.operators.spill;

import org.apache.arrow.memory.BufferAllocator;

/**
 * A finished spill file: its batches in the order they were written, readable once. Closing it
 * deletes the file (and closes its reader, if one is still open).
 */
public interface SpillFile extends AutoCloseable {
  /** Rows in the file. */
  long rows();

  /** Batches in the file (empty ones were never written). */
  int batches();

  /** Size of the file in bytes, as stored. */
  long bytes();

  /**
   * A reader of the file's batches into {@code allocator}, one at a time. A file is read at most
   * once: it is deleted when closed, and the point of spilling is to read it back only once.
   *
   * @throws IllegalStateException when the file was already opened or is closed
   */
  SpillReader open(BufferAllocator allocator);

  /** Deletes the file. Idempotent. */
  @Override
  void close();
}
