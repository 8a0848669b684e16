package dev.quiver.flink.table;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Copies a non-null field of Flink's internal {@link RowData} into an Arrow vector, per Flink type
 * (the vector is the one {@link FlinkTypes#toArrow} gives for that type). Values are copied
 * exactly: decimals as unscaled integers, dates as days, timestamps as µs or ns since the epoch.
 */
final class ColumnWriters {
  /** Writes field {@code field} of {@code row} (not null) at {@code index} of {@code vector}. */
  @FunctionalInterface
  interface ColumnWriter {
    void write(RowData row, int field, FieldVector vector, int index);
  }

  private ColumnWriters() {}

  static ColumnWriter of(String column, LogicalType type) {
    FlinkTypes.toArrow(column, type); // rejects unsupported types with the column's name
    switch (type.getTypeRoot()) {
      case TINYINT:
        return (row, f, v, i) -> ((TinyIntVector) v).setSafe(i, row.getByte(f));
      case SMALLINT:
        return (row, f, v, i) -> ((SmallIntVector) v).setSafe(i, row.getShort(f));
      case INTEGER:
        return (row, f, v, i) -> ((IntVector) v).setSafe(i, row.getInt(f));
      case BIGINT:
        return (row, f, v, i) -> ((BigIntVector) v).setSafe(i, row.getLong(f));
      case BOOLEAN:
        return (row, f, v, i) -> ((BitVector) v).setSafe(i, row.getBoolean(f) ? 1 : 0);
      case FLOAT:
        return (row, f, v, i) -> ((Float4Vector) v).setSafe(i, row.getFloat(f));
      case DOUBLE:
        return (row, f, v, i) -> ((Float8Vector) v).setSafe(i, row.getDouble(f));
      case DECIMAL:
        return decimal((DecimalType) type);
      case CHAR:
      case VARCHAR:
        return (row, f, v, i) -> ((VarCharVector) v).setSafe(i, row.getString(f).toBytes());
      case DATE:
        return (row, f, v, i) -> ((DateDayVector) v).setSafe(i, row.getInt(f));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestamp(((TimestampType) type).getPrecision());
      default:
        throw new IllegalStateException("no writer for " + type); // toArrow rejected it
    }
  }

  private static ColumnWriter decimal(DecimalType type) {
    int precision = type.getPrecision();
    int scale = type.getScale();
    if (DecimalData.isCompact(precision)) {
      // Up to 18 digits the unscaled value is a long; DecimalVector stores it sign-extended.
      return (row, f, v, i) ->
          ((DecimalVector) v).setSafe(i, row.getDecimal(f, precision, scale).toUnscaledLong());
    }
    return (row, f, v, i) ->
        ((DecimalVector) v).setSafe(i, row.getDecimal(f, precision, scale).toBigDecimal());
  }

  private static ColumnWriter timestamp(int precision) {
    if (precision <= 6) {
      return (row, f, v, i) -> {
        TimestampData value = row.getTimestamp(f, precision);
        long micros = value.getMillisecond() * 1_000L + value.getNanoOfMillisecond() / 1_000;
        ((TimeStampMicroVector) v).setSafe(i, micros);
      };
    }
    return (row, f, v, i) -> {
      TimestampData value = row.getTimestamp(f, precision);
      long nanos = value.getMillisecond() * 1_000_000L + value.getNanoOfMillisecond();
      ((TimeStampNanoVector) v).setSafe(i, nanos);
    };
  }
}
