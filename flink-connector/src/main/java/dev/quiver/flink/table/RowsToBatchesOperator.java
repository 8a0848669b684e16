package dev.quiver.flink.table;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchOperator;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Packs Flink's internal rows into Arrow batches of up to {@code batchRows} rows (the last one of a
 * task may be smaller), allocated from the task's allocator and emitted as {@code
 * BatchRecord.data(task, batch)}.
 *
 * <p>Each row is copied into the vectors as it arrives, so upstream object reuse is harmless. Only
 * insert-only input is accepted ({@code toDataStream} rejects changelog tables before this runs).
 */
public final class RowsToBatchesOperator extends BatchOperator
    implements OneInputStreamOperator<RowData, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final RowType type;
  private final int batchRows;
  private transient Schema schema;
  private transient ColumnWriters.ColumnWriter[] writers;
  private transient VectorSchemaRoot batch;
  private transient List<FieldVector> vectors;
  private transient int rows;

  /**
   * @param type the rows' type (every field of a type {@link FlinkTypes} maps)
   * @param batchRows rows per batch
   */
  public RowsToBatchesOperator(RowType type, int batchRows) {
    this.type = requireNonNull(type, "type is null");
    if (batchRows < 1) {
      throw new IllegalArgumentException("batchRows must be positive: " + batchRows);
    }
    this.batchRows = batchRows;
    FlinkTypes.toArrow(type); // fails on the client for an unsupported column
  }

  @Override
  public void open() throws Exception {
    super.open();
    schema = FlinkTypes.toArrow(type);
    writers = new ColumnWriters.ColumnWriter[type.getFieldCount()];
    for (int c = 0; c < writers.length; c++) {
      writers[c] = ColumnWriters.of(type.getFieldNames().get(c), type.getTypeAt(c));
    }
  }

  @Override
  public void processElement(StreamRecord<RowData> element) {
    if (batch == null) {
      startBatch();
    }
    RowData row = element.getValue();
    for (int c = 0; c < writers.length; c++) {
      FieldVector vector = vectors.get(c);
      if (row.isNullAt(c)) {
        vector.setNull(rows);
      } else {
        writers[c].write(row, c, vector, rows);
      }
    }
    if (++rows == batchRows) {
      flush();
    }
  }

  private void startBatch() {
    batch = VectorSchemaRoot.create(schema, allocator());
    vectors = batch.getFieldVectors();
    for (FieldVector vector : vectors) {
      vector.setInitialCapacity(batchRows);
      vector.allocateNew();
    }
    rows = 0;
  }

  private void flush() {
    if (batch == null || rows == 0) {
      return;
    }
    batch.setRowCount(rows);
    VectorSchemaRoot full = batch;
    batch = null;
    emit(BatchRecord.data(partition(), full));
  }

  @Override
  public void endInput() {
    flush();
  }

  @Override
  public void close() throws Exception {
    if (batch != null) {
      batch.close();
      batch = null;
    }
    super.close();
  }
}
