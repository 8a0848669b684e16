package dev.quiver.operators.expr;

import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Loads a column of a long-like type (BOOLEAN as 0/1, TINYINT..BIGINT, DATE, TIMESTAMP, the months
 * of a year-month interval) into {@code values[row]} for the selected rows: one loop per width, so
 * kernels after it work on one primitive type.
 */
final class NumericLoads {
  private NumericLoads() {}

  static void longs(Col in, SqlType type, Selection selection, long[] values) {
    ArrowBuf data = in.data;
    int m = in.mask;
    int[] rows = selection.rows();
    int n = selection.size();
    switch (type.kind()) {
      case BOOLEAN:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          values[i] = Bitmaps.get(data, i & m) ? 1 : 0;
        }
        break;
      case TINYINT:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          values[i] = data.getByte(i & m);
        }
        break;
      case SMALLINT:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          values[i] = data.getShort((long) (i & m) << 1);
        }
        break;
      case INTEGER:
      case DATE:
      case INTERVAL_YEAR_MONTH:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          values[i] = data.getInt((long) (i & m) << 2);
        }
        break;
      case BIGINT:
      case TIMESTAMP:
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          values[i] = data.getLong((long) (i & m) << 3);
        }
        break;
      default:
        throw new IllegalArgumentException("not a long-like type: " + type);
    }
  }

  /** REAL or DOUBLE into {@code values[row]}. */
  static void doubles(Col in, SqlType type, Selection selection, double[] values) {
    ArrowBuf data = in.data;
    int m = in.mask;
    int[] rows = selection.rows();
    int n = selection.size();
    if (type.kind() == SqlType.Kind.REAL) {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        values[i] = data.getFloat((long) (i & m) << 2);
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        values[i] = data.getDouble((long) (i & m) << 3);
      }
    }
  }
}
