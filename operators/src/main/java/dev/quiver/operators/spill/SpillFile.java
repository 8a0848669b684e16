package dev.quiver.operators.spill;

import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A finished spill file: its batches in the order they were written, read back once ({@link
 * #open}), and besides as often as needed without being used up ({@link #reread}: a checkpoint of
 * rows that stay spilled). Closing it deletes the file (and closes its readers still open).
 */
public interface SpillFile extends AutoCloseable {
  /** Rows in the file. */
  long rows();

  /** Batches in the file (empty ones were never written). */
  int batches();

  /** Size of the file in bytes, as stored. */
  long bytes();

  /**
   * A reader of the file's batches into {@code allocator}, one at a time. A file is opened at most
   * once: the point of spilling is to read it back only once, and then close (delete) it. (A {@link
   * #reread} before or after does not count.)
   *
   * @throws IllegalStateException when the file was already opened or is closed
   */
  SpillReader open(BufferAllocator allocator);

  /**
   * A reader of the file's batches into {@code allocator}, one at a time, that leaves the file as
   * it is: it can be reread, and {@linkplain #open opened}, again until it is closed. For an
   * operator that writes rows it keeps spilled to a checkpoint, instead of copying them to a new
   * file. Each reader is independent of the others; closing the file closes those still open.
   *
   * @throws IllegalStateException when the file is closed
   */
  SpillReader reread(BufferAllocator allocator);

  /**
   * Passes every batch of the file, in the order written, to {@code out} (each valid during the
   * call), {@linkplain #reread reread} into {@code allocator} one at a time: the file stays as it
   * is.
   */
  default void rereadEach(BufferAllocator allocator, Consumer<VectorSchemaRoot> out) {
    try (SpillReader reader = reread(allocator)) {
      for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
        try (VectorSchemaRoot batch = next) {
          out.accept(batch);
        }
      }
    }
  }

  /** Deletes the file. Idempotent. */
  @Override
  void close();
}
