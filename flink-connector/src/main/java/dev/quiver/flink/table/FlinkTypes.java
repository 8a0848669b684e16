package dev.quiver.flink.table;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Maps Flink logical types to Arrow types and back, exactly (no value changes either way).
 *
 * <table>
 *   <caption>Flink type ↔ Arrow type</caption>
 *   <tr><th>Flink</th><th>Arrow</th></tr>
 *   <tr><td>TINYINT, SMALLINT, INT, BIGINT</td><td>int8, int16, int32, int64 (signed)</td></tr>
 *   <tr><td>BOOLEAN, FLOAT, DOUBLE</td><td>bool, float32, float64</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>decimal128(p, s)</td></tr>
 *   <tr><td>CHAR(n), VARCHAR(n), STRING → ; ← STRING</td><td>utf8</td></tr>
 *   <tr><td>DATE</td><td>date32 (days); date64 reads as DATE too</td></tr>
 *   <tr><td>TIMESTAMP(p) → µs for p ≤ 6, ns above; ← TIMESTAMP(0, 3, 6, 9) by unit</td>
 *       <td>timestamp(unit) without time zone</td></tr>
 * </table>
 *
 * Nullability maps to the field's nullable flag. Any other type is an {@link
 * ErrorCode#UNSUPPORTED_TYPE} error naming the column.
 */
public final class FlinkTypes {
  private FlinkTypes() {}

  /** The Arrow schema of rows of {@code type}. */
  public static Schema toArrow(RowType type) {
    requireNonNull(type, "type is null");
    List<Field> fields = new ArrayList<>(type.getFieldCount());
    for (RowType.RowField field : type.getFields()) {
      fields.add(toArrow(field.getName(), field.getType()));
    }
    return new Schema(fields);
  }

  /** The Arrow field of a column {@code name} of Flink type {@code type}. */
  public static Field toArrow(String name, LogicalType type) {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    return new Field(name, new FieldType(type.isNullable(), arrowType(name, type), null), null);
  }

  private static ArrowType arrowType(String name, LogicalType type) {
    switch (type.getTypeRoot()) {
      case TINYINT:
        return new ArrowType.Int(8, true);
      case SMALLINT:
        return new ArrowType.Int(16, true);
      case INTEGER:
        return new ArrowType.Int(32, true);
      case BIGINT:
        return new ArrowType.Int(64, true);
      case BOOLEAN:
        return ArrowType.Bool.INSTANCE;
      case FLOAT:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        return new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128);
      case CHAR:
      case VARCHAR:
        return ArrowType.Utf8.INSTANCE;
      case DATE:
        return new ArrowType.Date(DateUnit.DAY);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        int precision = ((TimestampType) type).getPrecision();
        return new ArrowType.Timestamp(
            precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND, null);
      default:
        throw unsupported(name, type.asSummaryString());
    }
  }

  /** The Flink row type of batches of {@code schema}. */
  public static RowType toFlink(Schema schema) {
    requireNonNull(schema, "schema is null");
    List<RowType.RowField> fields = new ArrayList<>();
    for (Field field : schema.getFields()) {
      fields.add(new RowType.RowField(field.getName(), toFlink(field)));
    }
    return new RowType(false, fields);
  }

  /** The Flink type of the Arrow {@code field}. */
  public static LogicalType toFlink(Field field) {
    requireNonNull(field, "field is null");
    boolean nullable = field.isNullable();
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Int:
        ArrowType.Int integer = (ArrowType.Int) type;
        if (!integer.getIsSigned()) {
          break;
        }
        switch (integer.getBitWidth()) {
          case 8:
            return new TinyIntType(nullable);
          case 16:
            return new SmallIntType(nullable);
          case 32:
            return new IntType(nullable);
          case 64:
            return new BigIntType(nullable);
          default:
            break;
        }
        break;
      case Bool:
        return new BooleanType(nullable);
      case FloatingPoint:
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        if (precision == FloatingPointPrecision.HALF) {
          break;
        }
        return precision == FloatingPointPrecision.SINGLE
            ? new FloatType(nullable)
            : new DoubleType(nullable);
      case Decimal:
        ArrowType.Decimal decimal = (ArrowType.Decimal) type;
        if (decimal.getBitWidth() != 128 || decimal.getPrecision() > DecimalType.MAX_PRECISION) {
          break;
        }
        return new DecimalType(nullable, decimal.getPrecision(), decimal.getScale());
      case Utf8:
        return new VarCharType(nullable, VarCharType.MAX_LENGTH);
      case Date:
        return new DateType(nullable);
      case Timestamp:
        ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
        if (timestamp.getTimezone() != null) {
          break;
        }
        return new TimestampType(nullable, precision(timestamp.getUnit()));
      default:
        break;
    }
    throw unsupported(field.getName(), type.toString());
  }

  /** The digits of second fractions of {@code unit}: 0, 3, 6 or 9. */
  static int precision(TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return 0;
      case MILLISECOND:
        return 3;
      case MICROSECOND:
        return 6;
      default:
        return 9;
    }
  }

  private static QuiverException unsupported(String column, String type) {
    return new QuiverException(
        ErrorCode.UNSUPPORTED_TYPE,
        "Column '"
            + column
            + "' has type "
            + type
            + ", which has no exact counterpart between Flink and Quiver; cast it to a supported"
            + " type (integers, BOOLEAN, FLOAT, DOUBLE, DECIMAL, STRING, DATE, TIMESTAMP)");
  }
}
