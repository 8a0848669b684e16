package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.memory.BatchTransfer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How an {@link IntervalJoinOperator} of a LEFT or FULL join learns which held probe rows matched,
 * without changing {@link HashJoinOperator}: each probe batch it hands to a hash join gets a hidden
 * last column, the row's id ({@code batch ordinal << 32 | row}, a file's rows numbered through its
 * batches); this sink reads the ids of the joined rows, sets their {@link HeldRows#matched} bits,
 * drops the column and passes the rest on under the operator's output schema. A build row padded
 * with NULLs (a FULL join's) has a NULL id and marks nothing. The column travels like any probe
 * column, also through a spill.
 */
final class ProbeMarks implements BatchSink {
  private static final Field ROW_ID =
      new Field("$interval_join_row", FieldType.notNullable(new ArrowType.Int(64, true)), null);

  private final List<HeldRows> probed;
  private final int idColumn;
  private final Schema outputSchema;
  private final BatchSink sink;

  /**
   * @param probed the probe batches the hash join reads, by ordinal
   * @param idColumn the position of the id column in the output: the probe columns before it
   * @param outputSchema the schema of the batches passed on (without the id column)
   */
  ProbeMarks(List<HeldRows> probed, int idColumn, Schema outputSchema, BatchSink sink) {
    this.probed = requireNonNull(probed, "probed is null");
    this.idColumn = idColumn;
    this.outputSchema = requireNonNull(outputSchema, "outputSchema is null");
    this.sink = requireNonNull(sink, "sink is null");
  }

  /** {@code probe} with the id column last. */
  static Schema withRowId(Schema probe) {
    List<Field> fields = new ArrayList<>(probe.getFields());
    fields.add(ROW_ID);
    return new Schema(fields);
  }

  /**
   * {@code batch} (taken over) with the ids of its rows as a last column: rows {@code first, first
   * + 1, ...} of held batch or file {@code ordinal}.
   */
  static VectorSchemaRoot addRowIds(VectorSchemaRoot batch, int ordinal, int first, Schema schema) {
    int rows = batch.getRowCount();
    BigIntVector ids = (BigIntVector) ROW_ID.createVector(batch.getVector(0).getAllocator());
    try {
      ids.allocateNew(rows);
      long base = (long) ordinal << 32;
      for (int row = 0; row < rows; row++) {
        ids.set(row, base | (first + row));
      }
      ids.setValueCount(rows);
    } catch (RuntimeException | Error e) {
      ids.close();
      batch.close();
      throw e;
    }
    List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors());
    vectors.add(ids);
    return new VectorSchemaRoot(schema, vectors, rows);
  }

  @Override
  public void accept(VectorSchemaRoot batch) {
    VectorSchemaRoot rest;
    try {
      BigIntVector ids = (BigIntVector) batch.getVector(idColumn);
      int rows = batch.getRowCount();
      for (int row = 0; row < rows; row++) {
        if (!ids.isNull(row)) {
          long id = ids.get(row);
          probed.get((int) (id >>> 32)).matched.set((int) id);
        }
      }
      List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors());
      vectors.remove(idColumn).close();
      List<Field> fields = new ArrayList<>(vectors.size());
      for (FieldVector vector : vectors) {
        fields.add(vector.getField());
      }
      rest = new VectorSchemaRoot(new Schema(fields), vectors, rows);
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
    sink.accept(BatchTransfer.withSchema(rest, outputSchema));
  }
}
