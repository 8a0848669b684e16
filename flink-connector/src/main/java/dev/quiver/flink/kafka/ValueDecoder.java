package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Decodes one message value into one row of a batch under construction: the value's fields are
 * written straight into the batch's Arrow vectors (no row objects, no boxed values), NULL where the
 * value has none. Subclasses read a format ({@link JsonValueDecoder}, {@link CsvValueDecoder});
 * this class holds the schema's column kinds and the typed writes they share.
 *
 * <p>Not thread-safe: one per Kafka partition being batched.
 */
abstract class ValueDecoder {
  /** The column types a value can be decoded into. */
  enum Kind {
    INTEGER,
    BIGINT,
    DOUBLE,
    DECIMAL,
    VARCHAR,
    BOOLEAN,
    DATE,
    TIMESTAMP
  }

  final Kind[] kinds;
  final String[] names;
  private final boolean[] nullable;
  private final int[] precisions;
  private final int[] scales;
  FieldVector[] vectors;

  ValueDecoder(Schema schema) {
    List<Field> fields = requireNonNull(schema, "schema is null").getFields();
    int n = fields.size();
    kinds = new Kind[n];
    names = new String[n];
    nullable = new boolean[n];
    precisions = new int[n];
    scales = new int[n];
    for (int c = 0; c < n; c++) {
      Field field = fields.get(c);
      names[c] = field.getName();
      nullable[c] = field.isNullable();
      kinds[c] = kind(field);
      if (field.getType() instanceof ArrowType.Decimal decimal) {
        precisions[c] = decimal.getPrecision();
        scales[c] = decimal.getScale();
      }
    }
  }

  /** The decoder of {@code format} for batches of {@code schema}. */
  static ValueDecoder of(KafkaValueFormat format, Schema schema, char csvDelimiter) {
    return switch (format) {
      case JSON -> new JsonValueDecoder(schema);
      case CSV -> new CsvValueDecoder(schema, csvDelimiter);
    };
  }

  /**
   * The kind of a declared field.
   *
   * @throws QuiverException {@link ErrorCode#UNSUPPORTED_TYPE} for a type values cannot be read as
   */
  static Kind kind(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      if (integer.getBitWidth() == 32) {
        return Kind.INTEGER;
      }
      if (integer.getBitWidth() == 64) {
        return Kind.BIGINT;
      }
    } else if (type instanceof ArrowType.FloatingPoint fp
        && fp.getPrecision() == FloatingPointPrecision.DOUBLE) {
      return Kind.DOUBLE;
    } else if (type instanceof ArrowType.Decimal decimal && decimal.getBitWidth() == 128) {
      return Kind.DECIMAL;
    } else if (type instanceof ArrowType.Utf8) {
      return Kind.VARCHAR;
    } else if (type instanceof ArrowType.Bool) {
      return Kind.BOOLEAN;
    } else if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
      return Kind.DATE;
    } else if (type instanceof ArrowType.Timestamp ts
        && ts.getUnit() == TimeUnit.MICROSECOND
        && ts.getTimezone() == null) {
      return Kind.TIMESTAMP;
    }
    throw new QuiverException(
        ErrorCode.UNSUPPORTED_TYPE,
        "Column '"
            + field.getName()
            + "' has type "
            + type
            + ", which Kafka values cannot be read as; declare INTEGER, BIGINT, DOUBLE,"
            + " DECIMAL(p,s), VARCHAR, BOOLEAN, DATE or TIMESTAMP");
  }

  /**
   * Writes the next rows into {@code batch} (its vectors allocated, in schema order): into its
   * first vectors, one per declared column (metadata columns may follow them).
   */
  void bind(VectorSchemaRoot batch) {
    vectors = batch.getFieldVectors().subList(0, names.length).toArray(new FieldVector[0]);
  }

  /** Decodes {@code value} into row {@code row}; {@link BadValue} if it does not fit. */
  abstract void decode(byte[] value, int row) throws BadValue;

  /** Fails if a NOT NULL column of row {@code row} is NULL. */
  final void checkNotNull(int row) throws BadValue {
    for (int c = 0; c < vectors.length; c++) {
      if (!nullable[c] && (row >= vectors[c].getValueCapacity() || vectors[c].isNull(row))) {
        throw new BadValue(c, "the value has no " + names[c] + ", a NOT NULL column");
      }
    }
  }

  /** Column {@code c} of row {@code row} from text (not for VARCHAR, whose bytes are copied). */
  final void fromText(int c, int row, CharSequence s, int from, int to) throws BadValue {
    switch (kinds[c]) {
      case INTEGER -> {
        long v = TextValues.parseLong(s, from, to, c, "INTEGER");
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
          throw new BadValue(c, TextValues.quote(s, from, to) + " is out of range for INTEGER");
        }
        ((IntVector) vectors[c]).setSafe(row, (int) v);
      }
      case BIGINT ->
          ((BigIntVector) vectors[c]).setSafe(row, TextValues.parseLong(s, from, to, c, "BIGINT"));
      case DOUBLE -> setDouble(c, row, parseDouble(s, from, to, c));
      case DECIMAL -> setDecimal(c, row, parseDecimal(s, from, to, c));
      case BOOLEAN -> setBoolean(c, row, parseBoolean(s, from, to, c));
      case DATE -> ((DateDayVector) vectors[c]).setSafe(row, TextValues.parseDate(s, from, to, c));
      case TIMESTAMP ->
          ((TimeStampMicroVector) vectors[c])
              .setSafe(row, TextValues.parseTimestampMicros(s, from, to, c));
      case VARCHAR -> throw new IllegalStateException("VARCHAR is written from bytes");
    }
  }

  final void setDouble(int c, int row, double v) {
    ((Float8Vector) vectors[c]).setSafe(row, v);
  }

  final void setBoolean(int c, int row, boolean v) {
    ((BitVector) vectors[c]).setSafe(row, v ? 1 : 0);
  }

  final void setText(int c, int row, byte[] bytes, int from, int length) {
    ((VarCharVector) vectors[c]).setSafe(row, bytes, from, length);
  }

  /** Rounds half up to the column's scale; {@link BadValue} if it then needs more digits. */
  final void setDecimal(int c, int row, BigDecimal v) throws BadValue {
    BigDecimal scaled = v.setScale(scales[c], RoundingMode.HALF_UP);
    if (scaled.precision() > precisions[c]) {
      throw new BadValue(
          c, v.toPlainString() + " does not fit DECIMAL(" + precisions[c] + "," + scales[c] + ")");
    }
    ((DecimalVector) vectors[c]).setSafe(row, scaled);
  }

  private static double parseDouble(CharSequence s, int from, int to, int c) throws BadValue {
    try {
      return Double.parseDouble(s.subSequence(from, to).toString());
    } catch (NumberFormatException e) {
      throw TextValues.notA(s, from, to, c, "DOUBLE");
    }
  }

  private static BigDecimal parseDecimal(CharSequence s, int from, int to, int c) throws BadValue {
    try {
      return new BigDecimal(s.subSequence(from, to).toString());
    } catch (NumberFormatException e) {
      throw TextValues.notA(s, from, to, c, "DECIMAL");
    }
  }

  private static boolean parseBoolean(CharSequence s, int from, int to, int c) throws BadValue {
    if (regionIs(s, from, to, "true")) {
      return true;
    }
    if (regionIs(s, from, to, "false")) {
      return false;
    }
    throw TextValues.notA(s, from, to, c, "BOOLEAN (true or false)");
  }

  private static boolean regionIs(CharSequence s, int from, int to, String word) {
    if (to - from != word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (Character.toLowerCase(s.charAt(from + i)) != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
