package dev.quiver.operators.spill;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Appends batches to one new spill file. {@link #finish} ends the file and hands it over as a
 * {@link SpillFile}; {@link #close} without {@code finish} abandons it (the file is deleted), which
 * is what an operator does when it fails half-way through writing.
 */
public interface SpillWriter extends AutoCloseable {
  /**
   * Appends the rows of {@code batch}, which must have the file's column types. The caller keeps
   * the batch (and closes it); empty batches are skipped.
   *
   * @throws dev.quiver.error.QuiverException {@code FILE_WRITE_FAILED} when the disk refuses
   */
  void write(VectorSchemaRoot batch);

  /** Rows written so far. */
  long rows();

  /** Ends the file and returns it for reading; this writer is closed afterwards. */
  SpillFile finish();

  /** Deletes the file unless it was {@linkplain #finish finished}. Idempotent. */
  @Override
  void close();
}
