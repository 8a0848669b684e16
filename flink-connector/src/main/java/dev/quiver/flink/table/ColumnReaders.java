package dev.quiver.flink.table;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Reads a non-null Arrow value as the Java object Flink's {@code Row} holds for the column's type
 * (see {@link FlinkTypes#toFlink(Field)}): Byte, Short, Integer, Long, Boolean, Float, Double,
 * BigDecimal (with the column's scale), String, LocalDate, LocalDateTime.
 */
final class ColumnReaders {
  /** Reads the value at {@code index} of {@code vector} (not null). */
  @FunctionalInterface
  interface ColumnReader {
    Object read(FieldVector vector, int index);
  }

  private ColumnReaders() {}

  static ColumnReader of(Field field) {
    FlinkTypes.toFlink(field); // rejects unsupported types with the column's name
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Int:
        switch (((ArrowType.Int) type).getBitWidth()) {
          case 8:
            return (v, i) -> ((TinyIntVector) v).get(i);
          case 16:
            return (v, i) -> ((SmallIntVector) v).get(i);
          case 32:
            return (v, i) -> ((IntVector) v).get(i);
          default:
            return (v, i) -> ((BigIntVector) v).get(i);
        }
      case Bool:
        return (v, i) -> ((BitVector) v).get(i) != 0;
      case FloatingPoint:
        return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE
            ? (v, i) -> ((Float4Vector) v).get(i)
            : (v, i) -> ((Float8Vector) v).get(i);
      case Decimal:
        return (v, i) -> ((DecimalVector) v).getObject(i);
      case Utf8:
        return (v, i) -> new String(((VarCharVector) v).get(i), UTF_8);
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY
            ? (v, i) -> LocalDate.ofEpochDay(((DateDayVector) v).get(i))
            : (v, i) ->
                LocalDate.ofEpochDay(Math.floorDiv(((DateMilliVector) v).get(i), 86_400_000L));
      default: // a timestamp without zone
        return timestamp(((ArrowType.Timestamp) type).getUnit());
    }
  }

  private static ColumnReader timestamp(TimeUnit unit) {
    long perSecond = (long) Math.pow(10, FlinkTypes.precision(unit));
    long nanosPerUnit = 1_000_000_000L / perSecond;
    return (v, i) -> {
      long value = ((TimeStampVector) v).get(i);
      long seconds = Math.floorDiv(value, perSecond);
      long nanos = Math.floorMod(value, perSecond) * nanosPerUnit;
      return LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), ZoneOffset.UTC);
    };
  }

  /** The Flink type information of the objects {@link #of} reads for {@code field}. */
  static TypeInformation<?> typeInfo(Field field) {
    switch (FlinkTypes.toFlink(field).getTypeRoot()) {
      case TINYINT:
        return Types.BYTE;
      case SMALLINT:
        return Types.SHORT;
      case INTEGER:
        return Types.INT;
      case BIGINT:
        return Types.LONG;
      case BOOLEAN:
        return Types.BOOLEAN;
      case FLOAT:
        return Types.FLOAT;
      case DOUBLE:
        return Types.DOUBLE;
      case DECIMAL:
        return Types.BIG_DEC;
      case VARCHAR:
        return Types.STRING;
      case DATE:
        return Types.LOCAL_DATE;
      default:
        return Types.LOCAL_DATE_TIME;
    }
  }
}
