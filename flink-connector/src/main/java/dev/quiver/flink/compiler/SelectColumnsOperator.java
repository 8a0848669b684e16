package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Passes on the data batches of a stream table with only the columns a scan reads, in the scan's
 * order, as batches of this task ({@link StreamScans}, stream connectors whose source reads more
 * columns than the scan needs). The selected vectors are transferred, not copied; the others are
 * released with the received batch. Markers are dropped: a scan's consumer ignores them.
 */
public final class SelectColumnsOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final int[] columns;
  private final RowSchema output; // an Arrow Schema is not Serializable
  private transient Schema schema;

  SelectColumnsOperator(int[] columns, RowSchema output) {
    this.columns = columns.clone();
    this.output = requireNonNull(output, "output is null");
    if (columns.length != output.size()) {
      throw new IllegalArgumentException(
          columns.length + " columns selected for a schema of " + output.size());
    }
  }

  /**
   * {@code stream} with only the columns of {@code read} (by name and type), as batches of {@code
   * type}, in the same tasks: the stream itself when it has exactly those columns.
   *
   * @throws IllegalArgumentException if the stream lacks a column of {@code read}
   */
  public static DataStream<BatchRecord> select(
      DataStream<BatchRecord> stream, RowSchema read, BatchTypeInfo type, String name) {
    Schema streamSchema = schemaOf(stream);
    if (streamSchema.equals(type.schema())) {
      return stream;
    }
    return stream
        .forward()
        .transform(
            name + ": columns",
            type,
            new SelectColumnsOperator(columns(name, streamSchema, read), read))
        .setParallelism(stream.getParallelism());
  }

  /** The index in {@code stream} of each column of {@code read}, which must have its type. */
  static int[] columns(String name, Schema stream, RowSchema read) {
    int[] columns = new int[read.size()];
    for (int c = 0; c < columns.length; c++) {
      Column column = read.column(c);
      columns[c] = -1;
      for (int s = 0; s < stream.getFields().size(); s++) {
        Field field = stream.getFields().get(s);
        if (field.getName().equals(column.name()) && Column.fromArrow(field).equals(column)) {
          columns[c] = s;
        }
      }
      if (columns[c] < 0) {
        throw new IllegalArgumentException(
            "the scan of stream table '" + name + "' reads " + column + ", which its stream lacks");
      }
    }
    return columns;
  }

  static Schema schemaOf(DataStream<BatchRecord> batches) {
    if (!(batches.getType() instanceof BatchTypeInfo type)) {
      throw new IllegalArgumentException("not a stream of Arrow batches: " + batches.getType());
    }
    return type.schema();
  }

  @Override
  public void open() throws Exception {
    super.open();
    schema = output.toArrow();
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) {
    try (BatchRecord record = element.getValue()) {
      if (!record.isData()) {
        return;
      }
      VectorSchemaRoot batch = record.batch();
      List<FieldVector> vectors = new ArrayList<>(columns.length);
      for (int column : columns) {
        TransferPair pair = batch.getVector(column).getTransferPair(allocator());
        pair.transfer();
        vectors.add((FieldVector) pair.getTo());
      }
      VectorSchemaRoot selected =
          new VectorSchemaRoot(schema.getFields(), vectors, batch.getRowCount());
      emit(BatchRecord.data(partition(), selected));
    }
  }
}
