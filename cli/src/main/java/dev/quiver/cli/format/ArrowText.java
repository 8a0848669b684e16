package dev.quiver.cli.format;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The text of one Arrow value, shared by every output format, read straight from the vector.
 *
 * <table>
 *   <caption>Arrow type to text</caption>
 *   <tr><th>type</th><th>text</th><th>example</th></tr>
 *   <tr><td>BOOLEAN</td><td>true / false</td><td>{@code true}</td></tr>
 *   <tr><td>integers</td><td>decimal digits</td><td>{@code -42}</td></tr>
 *   <tr><td>DECIMAL(p,s)</td><td>plain digits with exactly s decimals, never an exponent</td>
 *       <td>{@code 1234.50}</td></tr>
 *   <tr><td>REAL, DOUBLE</td><td>{@link Float#toString} / {@link Double#toString}: the shortest
 *       text that reads back as the same value; an exponent below 10^-3 and from 10^7 on, and
 *       {@code NaN}, {@code Infinity}</td><td>{@code 0.1}, {@code 1.0E7}</td></tr>
 *   <tr><td>VARCHAR</td><td>the string</td><td>{@code abc}</td></tr>
 *   <tr><td>DATE</td><td>ISO-8601 {@code YYYY-MM-DD}</td><td>{@code 1998-12-01}</td></tr>
 *   <tr><td>TIMESTAMP</td><td>ISO-8601 local date-time: seconds always, a fraction only when
 *       not zero, in as few digits as it needs</td><td>{@code 1998-12-01T08:30:00},
 *       {@code 1998-12-01T08:30:00.25}</td></tr>
 *   <tr><td>INTERVAL</td><td>ISO-8601 duration or period</td><td>{@code PT36H}, {@code
 *       P1Y2M}</td></tr>
 * </table>
 *
 * The caller checks {@link FieldVector#isNull} first: each format writes NULL its own way.
 */
public final class ArrowText {
  /** How a format treats a column: numbers are right-aligned and unquoted in JSON. */
  public enum Kind {
    NUMBER,
    BOOLEAN,
    TEXT
  }

  private ArrowText() {}

  /** The kind of values of {@code type}. */
  public static Kind kind(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
      case FloatingPoint:
      case Decimal:
        return Kind.NUMBER;
      case Bool:
        return Kind.BOOLEAN;
      default:
        return Kind.TEXT;
    }
  }

  /** The text of the non-null value at {@code row} of {@code vector}. */
  public static String text(FieldVector vector, int row) {
    switch (vector.getMinorType()) {
      case BIT:
        return ((BitVector) vector).get(row) != 0 ? "true" : "false";
      case TINYINT:
        return Byte.toString(((TinyIntVector) vector).get(row));
      case SMALLINT:
        return Short.toString(((SmallIntVector) vector).get(row));
      case INT:
        return Integer.toString(((IntVector) vector).get(row));
      case BIGINT:
        return Long.toString(((BigIntVector) vector).get(row));
      case FLOAT4:
        return Float.toString(((Float4Vector) vector).get(row));
      case FLOAT8:
        return Double.toString(((Float8Vector) vector).get(row));
      case DECIMAL:
        return ((DecimalVector) vector).getObject(row).toPlainString();
      case DECIMAL256:
        return ((Decimal256Vector) vector).getObject(row).toPlainString();
      case VARCHAR:
        return new String(((VarCharVector) vector).get(row), StandardCharsets.UTF_8);
      case DATEDAY:
        return LocalDate.ofEpochDay(((DateDayVector) vector).get(row)).toString();
      case TIMESTAMPMICRO:
        return timestampMicros(((TimeStampMicroVector) vector).get(row));
      default:
        return other(vector.getObject(row));
    }
  }

  /** Microseconds since 1970-01-01T00:00 as an ISO-8601 local date-time. */
  static String timestampMicros(long micros) {
    long seconds = Math.floorDiv(micros, 1_000_000L);
    int nanos = (int) Math.floorMod(micros, 1_000_000L) * 1000;
    return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC)
        .format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
  }

  // Types Quiver does not produce today; Arrow's own Java value, ISO-8601 where it has one.
  private static String other(Object value) {
    if (value instanceof LocalDateTime dateTime) {
      return dateTime.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    return String.valueOf(value); // Duration, Period, Text, ...
  }
}
