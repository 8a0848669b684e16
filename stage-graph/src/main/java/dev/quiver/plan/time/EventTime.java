package dev.quiver.plan.time;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The event time of an unbounded table: which column holds each row's event time and how far behind
 * the largest event time seen so far the watermark stays, the SQL declaration {@code WATERMARK FOR
 * ts AS ts - INTERVAL '5' SECOND}.
 *
 * <p>The column is a {@code TIMESTAMP} (any Arrow unit, no time zone: UTC values) or a {@code
 * BIGINT} of milliseconds since the epoch. The watermark after a set of rows is {@code max(ts) -
 * watermarkDelay} in milliseconds: no row with an event time at or below it is expected any more.
 * Rows whose event time is NULL take no part in it. This is a description only (a planner reads it,
 * a source turns it into its runtime's watermarks); it holds no state.
 *
 * @param column the name of the event-time column
 * @param watermarkDelay how far the watermark stays behind the largest event time (zero or more)
 */
public record EventTime(String column, Duration watermarkDelay) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How the event-time column stores time. */
  public enum Unit {
    /** An Arrow timestamp; the value's unit is the field's. */
    TIMESTAMP,
    /** A BIGINT of milliseconds since the epoch. */
    EPOCH_MILLIS
  }

  public EventTime {
    requireNonNull(column, "column is null");
    requireNonNull(watermarkDelay, "watermarkDelay is null");
    if (column.isEmpty()) {
      throw new IllegalArgumentException("the event-time column has no name");
    }
    if (watermarkDelay.isNegative()) {
      throw new IllegalArgumentException("the watermark delay is negative: " + watermarkDelay);
    }
  }

  /** The watermark delay in milliseconds. */
  public long delayMillis() {
    return watermarkDelay.toMillis();
  }

  /**
   * The index of the event-time column in {@code schema}.
   *
   * @throws QuiverException {@link ErrorCode#INVALID_QUERY} if the schema has no such column or it
   *     is neither a TIMESTAMP nor a BIGINT
   */
  public int columnIndex(Schema schema) {
    List<Field> fields = requireNonNull(schema, "schema is null").getFields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equals(column)) {
        unit(fields.get(i)); // checks the type
        return i;
      }
    }
    throw new QuiverException(
        ErrorCode.INVALID_QUERY,
        "The event-time column '" + column + "' is not a column of " + names(fields));
  }

  /**
   * How {@code field}, the event-time column, stores time.
   *
   * @throws QuiverException {@link ErrorCode#INVALID_QUERY} if it is neither a TIMESTAMP without
   *     time zone nor a BIGINT
   */
  public Unit unit(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Timestamp timestamp && timestamp.getTimezone() == null) {
      return Unit.TIMESTAMP;
    }
    if (type instanceof ArrowType.Int integer
        && integer.getBitWidth() == 64
        && integer.getIsSigned()) {
      return Unit.EPOCH_MILLIS;
    }
    throw new QuiverException(
        ErrorCode.INVALID_QUERY,
        "The event-time column '"
            + column
            + "' has type "
            + type
            + "; it must be a TIMESTAMP or a BIGINT of milliseconds since the epoch");
  }

  private static String names(List<Field> fields) {
    return fields.stream().map(Field::getName).toList().toString();
  }

  /** The SQL declaration, e.g. {@code WATERMARK FOR ts AS ts - INTERVAL '5' SECOND}. */
  @Override
  public String toString() {
    BigDecimal seconds = BigDecimal.valueOf(watermarkDelay.toMillis(), 3).stripTrailingZeros();
    return "WATERMARK FOR "
        + column
        + " AS "
        + column
        + " - INTERVAL '"
        + seconds.toPlainString()
        + "' SECOND";
  }
}
