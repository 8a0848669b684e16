package dev.quiver.flink.eventtime;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.time.EventTime;
import java.io.Serializable;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The largest event time of a batch, in milliseconds since the epoch: one loop over the event-time
 * column's data buffer, NULL rows skipped. A batch without a non-NULL event time has none ({@link
 * #NONE}).
 */
public final class BatchEventTimes implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The event time of a batch that has no row with one. */
  public static final long NONE = Long.MIN_VALUE;

  private final int column;
  private final EventTime.Unit unit;
  private final long unitsPerMilli; // for timestamps: 1 (ms), 1_000 (µs), 1_000_000 (ns); 0 for s

  /** Event times of batches of {@code schema}, from the column {@code eventTime} names. */
  public BatchEventTimes(EventTime eventTime, Schema schema) {
    requireNonNull(eventTime, "eventTime is null");
    this.column = eventTime.columnIndex(schema);
    this.unit = eventTime.unit(schema.getFields().get(column));
    if (unit == EventTime.Unit.TIMESTAMP) {
      ArrowType.Timestamp type = (ArrowType.Timestamp) schema.getFields().get(column).getType();
      unitsPerMilli =
          switch (type.getUnit()) {
            case SECOND -> 0;
            case MILLISECOND -> 1;
            case MICROSECOND -> 1_000;
            case NANOSECOND -> 1_000_000;
          };
    } else {
      unitsPerMilli = 1;
    }
  }

  /** The largest event time of {@code batch} in milliseconds, or {@link #NONE}. */
  public long max(VectorSchemaRoot batch) {
    FieldVector vector = batch.getVector(column);
    int rows = batch.getRowCount();
    long max = Long.MIN_VALUE;
    boolean any = false;
    // One tight loop per vector class, so that each get() is a monomorphic 8-byte read.
    if (unit == EventTime.Unit.EPOCH_MILLIS) {
      BigIntVector values = (BigIntVector) vector;
      for (int i = 0; i < rows; i++) {
        if (values.isSet(i) != 0) {
          long v = values.get(i);
          any = true;
          if (v > max) {
            max = v;
          }
        }
      }
    } else {
      TimeStampVector values = (TimeStampVector) vector;
      for (int i = 0; i < rows; i++) {
        if (values.isSet(i) != 0) {
          long v = values.get(i);
          any = true;
          if (v > max) {
            max = v;
          }
        }
      }
    }
    if (!any) {
      return NONE;
    }
    return unitsPerMilli == 0 ? max * 1000 : Math.floorDiv(max, unitsPerMilli);
  }
}
