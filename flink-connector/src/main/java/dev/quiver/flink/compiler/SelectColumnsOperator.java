package dev.quiver.flink.compiler;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.plan.node.RowSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Passes on the data batches of a stream table with only the columns a scan reads, in the scan's
 * order, as batches of this task ({@link StreamScans}). The selected vectors are transferred, not
 * copied; the others are released with the received batch. Markers are dropped: a scan's consumer
 * ignores them.
 */
final class SelectColumnsOperator extends BatchOperator
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
