package dev.quiver.flink.kafka;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.kafka.ValueDecoder.Kind;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
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
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Encodes one row of a batch as one message value, the inverse of {@link ValueDecoder}: what a
 * {@link KafkaBatchSource} of the same schema and format decodes is the row encoded, so a topic
 * written by a {@link KafkaBatchSink} reads back as the rows written. Subclasses write a format
 * ({@link JsonValueEncoder}, {@link CsvValueEncoder}); this class holds the column kinds (those
 * {@link ValueDecoder#kind} accepts) and the text forms they share:
 *
 * <ul>
 *   <li>DATE {@code YYYY-MM-DD};
 *   <li>TIMESTAMP {@code YYYY-MM-DD HH:MM:SS}, with {@code .fff} milliseconds or {@code .ffffff}
 *       microseconds when the value has them (Flink SQL's JSON and CSV form);
 *   <li>DECIMAL plain (never an exponent), with the column's scale;
 *   <li>DOUBLE as Java prints it; NaN and the infinities as {@code NaN}, {@code Infinity}, {@code
 *       -Infinity}.
 * </ul>
 *
 * <p>Not thread-safe: one per task; the returned bytes are new for each row.
 */
abstract class ValueEncoder {
  final Kind[] kinds;
  final String[] names;
  FieldVector[] vectors;
  final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
  private final StringBuilder text = new StringBuilder(32);

  ValueEncoder(Schema schema) {
    List<Field> fields = requireNonNull(schema, "schema is null").getFields();
    kinds = new Kind[fields.size()];
    names = new String[fields.size()];
    for (int c = 0; c < kinds.length; c++) {
      kinds[c] = ValueDecoder.kind(fields.get(c)); // refuses the types values cannot hold
      names[c] = fields.get(c).getName();
    }
  }

  /** The encoder of {@code format} for batches of {@code schema}. */
  static ValueEncoder of(KafkaValueFormat format, Schema schema, char csvDelimiter) {
    return switch (format) {
      case JSON -> new JsonValueEncoder(schema);
      case CSV -> new CsvValueEncoder(schema, csvDelimiter);
    };
  }

  /** Reads the next rows from {@code batch} (of this encoder's schema). */
  void bind(VectorSchemaRoot batch) {
    vectors = batch.getFieldVectors().toArray(new FieldVector[0]);
  }

  /** Reads the next rows from {@code columns} (of this encoder's schema, in its order). */
  void bind(FieldVector[] columns) {
    vectors = columns;
  }

  /** The value of row {@code row} of the bound batch. */
  abstract byte[] encode(int row);

  /** Column {@code c} of row {@code row} as text, for the kinds that have no other form. */
  final CharSequence text(int c, int row) {
    text.setLength(0);
    FieldVector vector = vectors[c];
    switch (kinds[c]) {
      case INTEGER -> text.append(((IntVector) vector).get(row));
      case BIGINT -> text.append(((BigIntVector) vector).get(row));
      case DOUBLE -> text.append(((Float8Vector) vector).get(row));
      case DECIMAL -> text.append(decimal(c, row).toPlainString());
      case BOOLEAN -> text.append(((BitVector) vector).get(row) != 0);
      case DATE -> text.append(LocalDate.ofEpochDay(((DateDayVector) vector).get(row)));
      case TIMESTAMP -> timestamp(((TimeStampMicroVector) vector).get(row));
      case VARCHAR -> text.append(new String(utf8(c, row), StandardCharsets.UTF_8));
    }
    return text;
  }

  final BigDecimal decimal(int c, int row) {
    return ((DecimalVector) vectors[c]).getObject(row);
  }

  final byte[] utf8(int c, int row) {
    return ((VarCharVector) vectors[c]).get(row);
  }

  private void timestamp(long micros) {
    long seconds = Math.floorDiv(micros, 1_000_000L);
    int fraction = (int) Math.floorMod(micros, 1_000_000L);
    LocalDateTime time = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    text.append(time.toLocalDate()).append(' ');
    two(time.getHour()).append(':');
    two(time.getMinute()).append(':');
    two(time.getSecond());
    if (fraction != 0) {
      boolean millis = fraction % 1000 == 0;
      String digits = Integer.toString(1_000_000 + fraction); // 1 and six digits
      text.append('.').append(digits, 1, millis ? 4 : 7);
    }
  }

  private StringBuilder two(int value) {
    return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
  }
}
