package dev.quiver.flink.nexmark;

import dev.quiver.nexmark.NexmarkBatchReader;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Rows of Nexmark batches as lists of value strings (timestamps as epoch milliseconds). */
final class NexmarkBatches {
  private NexmarkBatches() {}

  static List<List<String>> rows(NexmarkBatchReader reader) {
    List<List<String>> rows = new ArrayList<>();
    for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
      try (VectorSchemaRoot batch = next) {
        rows.addAll(rows(batch));
      }
    }
    return rows;
  }

  static List<List<String>> rows(VectorSchemaRoot batch) {
    List<List<String>> rows = new ArrayList<>(batch.getRowCount());
    for (int row = 0; row < batch.getRowCount(); row++) {
      List<String> values = new ArrayList<>();
      for (FieldVector vector : batch.getFieldVectors()) {
        if (vector instanceof BigIntVector v) {
          values.add(Long.toString(v.get(row)));
        } else if (vector instanceof TimeStampMilliVector v) {
          values.add(Long.toString(v.get(row)));
        } else {
          values.add(((VarCharVector) vector).getObject(row).toString());
        }
      }
      rows.add(values);
    }
    return rows;
  }
}
