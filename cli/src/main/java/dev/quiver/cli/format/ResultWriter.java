package dev.quiver.cli.format;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes a query result in one text format as its batches arrive: {@link #begin} once, {@link
 * #write} per batch (the caller still owns and closes the batch), {@link #end} once after the last
 * batch. Formats that stream (CSV, JSON Lines) hold no rows; the table format keeps the cells until
 * {@link #end} to know the column widths. Nothing is flushed: the caller owns the writer.
 */
public interface ResultWriter {
  /** Writes what comes before the rows (a header), given the result's columns. */
  void begin(Schema schema) throws IOException;

  /** Writes every row of {@code batch}. */
  void write(VectorSchemaRoot batch) throws IOException;

  /** Writes what comes after the rows. */
  void end() throws IOException;
}
