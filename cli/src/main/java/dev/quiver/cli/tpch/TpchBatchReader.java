package dev.quiver.cli.tpch;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedWidthVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The rows of one part of a TPC-H table, as Arrow batches: an {@link ArrowReader} that runs the
 * io.trino.tpch generator as it is read, so a part never sits in memory as a whole.
 *
 * <p>Every batch gets freshly allocated vectors, as the file writers require.
 */
final class TpchBatchReader<E extends TpchEntity> extends ArrowReader {
  private final Schema schema;
  private final List<TpchColumn<E>> columns;
  private final Iterator<E> rows;
  private final int batchRows;
  private long rowCount;

  TpchBatchReader(BufferAllocator allocator, TpchTable<E> table, Iterable<E> rows, int batchRows) {
    super(allocator);
    this.schema = TpchSchemas.schema(table);
    this.columns = table.getColumns();
    this.rows = rows.iterator();
    this.batchRows = batchRows;
  }

  @Override
  public boolean loadNextBatch() {
    if (!rows.hasNext()) {
      return false;
    }
    VectorSchemaRoot root = root();
    for (FieldVector vector : root.getFieldVectors()) {
      if (vector instanceof FixedWidthVector fixed) {
        fixed.allocateNew(batchRows);
      } else {
        ((VarCharVector) vector).allocateNew(batchRows * 32L, batchRows);
      }
    }
    int count = 0;
    while (count < batchRows && rows.hasNext()) {
      E row = rows.next();
      for (int c = 0; c < columns.size(); c++) {
        set(root.getVector(c), columns.get(c), row, count);
      }
      count++;
    }
    for (FieldVector vector : root.getFieldVectors()) {
      vector.setValueCount(count);
    }
    root.setRowCount(count);
    rowCount += count;
    return true;
  }

  private VectorSchemaRoot root() {
    try {
      return getVectorSchemaRoot();
    } catch (IOException e) {
      throw new IllegalStateException(e); // never: the schema is known up front
    }
  }

  private static <E extends TpchEntity> void set(
      FieldVector vector, TpchColumn<E> column, E row, int index) {
    switch (column.getType().getBase()) {
      case IDENTIFIER -> ((BigIntVector) vector).set(index, column.getIdentifier(row));
      case INTEGER -> ((IntVector) vector).set(index, column.getInteger(row));
      case DATE -> ((DateDayVector) vector).set(index, column.getDate(row));
      // Money is generated as whole cents and handed out as cents / 100.0: rounding recovers them.
      case DOUBLE -> ((DecimalVector) vector).set(index, Math.round(column.getDouble(row) * 100));
      case VARCHAR ->
          ((VarCharVector) vector)
              .setSafe(index, column.getString(row).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The rows produced so far. */
  long rowCount() {
    return rowCount;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
