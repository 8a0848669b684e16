package dev.quiver.flink.session;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;

/**
 * Result batches as plain Java values, for callers that want rows rather than vectors (tests, small
 * results, a JDBC-like API).
 *
 * <table>
 *   <caption>SQL type to Java value</caption>
 *   <tr><th>SQL</th><th>Java</th></tr>
 *   <tr><td>BOOLEAN</td><td>Boolean</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INTEGER, BIGINT</td><td>Byte, Short, Integer, Long</td></tr>
 *   <tr><td>REAL, DOUBLE</td><td>Float, Double</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>BigDecimal of scale s</td></tr>
 *   <tr><td>VARCHAR</td><td>String</td></tr>
 *   <tr><td>DATE</td><td>LocalDate</td></tr>
 *   <tr><td>TIMESTAMP</td><td>LocalDateTime</td></tr>
 *   <tr><td>INTERVAL DAY TO SECOND, INTERVAL YEAR TO MONTH</td><td>Duration, Period</td></tr>
 * </table>
 *
 * NULL is {@code null}. Row at a time: fine for results, not for bulk data.
 */
public final class ResultValues {
  private ResultValues() {}

  /** The rows of {@code batch}. */
  public static List<List<Object>> rows(VectorSchemaRoot batch) {
    List<FieldVector> vectors = batch.getFieldVectors();
    List<List<Object>> rows = new ArrayList<>(batch.getRowCount());
    for (int row = 0; row < batch.getRowCount(); row++) {
      List<Object> values = new ArrayList<>(vectors.size());
      for (FieldVector vector : vectors) {
        values.add(value(vector, row));
      }
      rows.add(values);
    }
    return rows;
  }

  /** The value at {@code row} of {@code vector}. */
  public static Object value(FieldVector vector, int row) {
    if (vector.isNull(row)) {
      return null;
    }
    // Arrow returns days since the epoch as an Integer for DATE, and its own Text for strings.
    if (vector instanceof DateDayVector days) {
      return LocalDate.ofEpochDay(days.get(row));
    }
    Object value = vector.getObject(row);
    return value instanceof Text text ? text.toString() : value;
  }
}
