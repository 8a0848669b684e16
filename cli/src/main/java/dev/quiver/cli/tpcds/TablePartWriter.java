package dev.quiver.cli.tpcds;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The rows one generator chunk produces for one table, as files {@code
 * DIR/<table>/part-CCCCC-NNN.<ext>} (C the chunk, N the file within it) of at most {@code
 * rowsPerFile} rows each, written as they come in batches of {@link #BATCH_ROWS} rows.
 *
 * <p>Rows arrive as io.trino.tpcds hands them out: one string per column, null for NULL, in the
 * text dsdgen would print (decimals with their scale, dates {@code YYYY-MM-DD}); each is parsed
 * into the column's Arrow type ({@link TpcdsSchemas}). Chunk 1 always writes at least one file, so
 * that every table has a schema on disk even when it has no rows.
 */
final class TablePartWriter implements AutoCloseable {
  static final int BATCH_ROWS = 8192;

  private final Table table;
  private final Path dir;
  private final int chunk;
  private final FileFormat format;
  private final long rowsPerFile;
  private final BufferAllocator allocator;
  private final Schema schema;
  private final ColumnType[] types;
  private final VectorSchemaRoot root;
  private BatchFileWriter file;
  private long fileRows;
  private int batchRows;
  private int files;
  private long rows;

  TablePartWriter(
      Table table,
      Path dir,
      int chunk,
      FileFormat format,
      long rowsPerFile,
      BufferAllocator allocator) {
    this.table = requireNonNull(table, "table is null");
    this.dir = requireNonNull(dir, "dir is null");
    this.chunk = chunk;
    this.format = requireNonNull(format, "format is null");
    this.rowsPerFile = rowsPerFile;
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.schema = TpcdsSchemas.schema(table);
    Column[] columns = table.getColumns();
    this.types = new ColumnType[columns.length];
    for (int c = 0; c < columns.length; c++) {
      types[c] = columns[c].getType();
    }
    this.root = VectorSchemaRoot.create(schema, allocator);
    root.allocateNew();
  }

  /** Adds one row: {@code values.get(c)} is column c's text, or null. */
  void add(List<String> values) {
    if (values.size() != types.length) {
      throw new IllegalStateException(
          table.getName() + ": expected " + types.length + " values but got " + values.size());
    }
    for (int c = 0; c < types.length; c++) {
      set(root.getVector(c), types[c], batchRows, values.get(c));
    }
    batchRows++;
    rows++;
    if (batchRows == BATCH_ROWS || fileRows + batchRows == rowsPerFile) {
      flush();
    }
  }

  /** Writes the last batch and completes the last file. */
  void finish() {
    flush();
    if (file == null && chunk == 1 && files == 0) {
      file = open();
    }
    if (file != null) {
      file.commit();
      file = null;
    }
  }

  int files() {
    return files;
  }

  long rows() {
    return rows;
  }

  private void flush() {
    if (batchRows == 0) {
      return;
    }
    if (file == null) {
      file = open();
    }
    root.setRowCount(batchRows);
    file.write(root); // moves the buffers out: the vectors are empty again
    fileRows += batchRows;
    batchRows = 0;
    root.allocateNew();
    if (fileRows >= rowsPerFile) {
      file.commit();
      file = null;
      fileRows = 0;
    }
  }

  private BatchFileWriter open() {
    String name = String.format("part-%05d-%03d%s", chunk, files, format.defaultExtension());
    files++;
    return BatchFileWriter.open(
        dir.resolve(table.getName()).resolve(name), format, schema, allocator);
  }

  private static void set(FieldVector vector, ColumnType type, int index, String value) {
    if (value == null) {
      vector.setNull(index);
      return;
    }
    switch (type.getBase()) {
      case IDENTIFIER -> ((BigIntVector) vector).setSafe(index, Long.parseLong(value));
      case INTEGER -> ((IntVector) vector).setSafe(index, Integer.parseInt(value));
      case DECIMAL -> {
        DecimalVector decimals = (DecimalVector) vector;
        // dsdgen prints decimals with their scale already; rounding only guards the parse
        decimals.setSafe(
            index, new BigDecimal(value).setScale(decimals.getScale(), RoundingMode.HALF_UP));
      }
      case DATE ->
          ((DateDayVector) vector).setSafe(index, (int) LocalDate.parse(value).toEpochDay());
      case CHAR, VARCHAR ->
          ((VarCharVector) vector).setSafe(index, value.getBytes(StandardCharsets.UTF_8));
      case TIME -> throw new IllegalArgumentException("TIME columns are not generated");
    }
  }

  /** Abandons the file being written unless {@link #finish()} completed it; frees the vectors. */
  @Override
  public void close() {
    try {
      if (file != null) {
        file.close();
        file = null;
      }
    } finally {
      root.close();
    }
  }
}
