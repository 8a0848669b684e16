package dev.quiver.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;

/** Reads batches back as Java rows for comparisons in tests (slow, row at a time, on purpose). */
public final class BatchRows {
  private BatchRows() {}

  /** The rows of {@code root}; strings as {@link String}, other values as Arrow's getObject. */
  public static List<List<Object>> rows(VectorSchemaRoot root) {
    List<List<Object>> rows = new ArrayList<>(root.getRowCount());
    for (int row = 0; row < root.getRowCount(); row++) {
      rows.add(row(root, row));
    }
    return rows;
  }

  public static List<Object> row(VectorSchemaRoot root, int row) {
    List<Object> values = new ArrayList<>(root.getFieldVectors().size());
    for (FieldVector vector : root.getFieldVectors()) {
      values.add(value(vector, row));
    }
    return values;
  }

  public static Object value(FieldVector vector, int row) {
    Object value = vector.getObject(row);
    return value instanceof Text ? value.toString() : value;
  }
}
