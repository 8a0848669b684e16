package dev.quiver.nexmark;

import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schema of each event kind's batches: the columns of the spec's {@code person}, {@code
 * auction} and {@code bid} views under their Nexmark names, BIGINT as 64-bit integers, VARCHAR as
 * UTF-8, {@code TIMESTAMP(3)} as millisecond timestamps without a time zone (or, for Quiver's SQL,
 * whose TIMESTAMP is microseconds, {@link #of(EventKind, TimeUnit)} with microseconds: the same
 * instants). No value is ever NULL.
 */
public final class NexmarkSchemas {
  private static final ArrowType BIGINT = new ArrowType.Int(64, true);
  private static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;
  private static final ArrowType TIMESTAMP_3 = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);

  /** The event-time column of every kind. */
  public static final String DATE_TIME = "dateTime";

  public static final Schema PERSON =
      schema(
          "id",
          BIGINT,
          "name",
          VARCHAR,
          "emailAddress",
          VARCHAR,
          "creditCard",
          VARCHAR,
          "city",
          VARCHAR,
          "state",
          VARCHAR,
          DATE_TIME,
          TIMESTAMP_3,
          "extra",
          VARCHAR);

  public static final Schema AUCTION =
      schema(
          "id",
          BIGINT,
          "itemName",
          VARCHAR,
          "description",
          VARCHAR,
          "initialBid",
          BIGINT,
          "reserve",
          BIGINT,
          DATE_TIME,
          TIMESTAMP_3,
          "expires",
          TIMESTAMP_3,
          "seller",
          BIGINT,
          "category",
          BIGINT,
          "extra",
          VARCHAR);

  public static final Schema BID =
      schema(
          "auction",
          BIGINT,
          "bidder",
          BIGINT,
          "price",
          BIGINT,
          "channel",
          VARCHAR,
          "url",
          VARCHAR,
          DATE_TIME,
          TIMESTAMP_3,
          "extra",
          VARCHAR);

  private NexmarkSchemas() {}

  public static Schema of(EventKind kind) {
    return switch (kind) {
      case PERSON -> PERSON;
      case AUCTION -> AUCTION;
      case BID -> BID;
    };
  }

  /**
   * The schema of {@code kind} with its timestamps ({@code dateTime}, {@code expires}) in {@code
   * unit}: {@link TimeUnit#MILLISECOND} (the constants above) or {@link TimeUnit#MICROSECOND}.
   */
  public static Schema of(EventKind kind, TimeUnit unit) {
    Schema schema = of(kind);
    if (unit == TimeUnit.MILLISECOND) {
      return schema;
    }
    if (unit != TimeUnit.MICROSECOND) {
      throw new IllegalArgumentException("Nexmark timestamps are milli- or microseconds: " + unit);
    }
    ArrowType micros = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
    Field[] fields = new Field[schema.getFields().size()];
    for (int i = 0; i < fields.length; i++) {
      Field field = schema.getFields().get(i);
      fields[i] =
          field.getType().equals(TIMESTAMP_3) ? Field.notNullable(field.getName(), micros) : field;
    }
    return new Schema(List.of(fields));
  }

  private static Schema schema(Object... namesAndTypes) {
    Field[] fields = new Field[namesAndTypes.length / 2];
    for (int i = 0; i < fields.length; i++) {
      fields[i] =
          Field.notNullable((String) namesAndTypes[2 * i], (ArrowType) namesAndTypes[2 * i + 1]);
    }
    return new Schema(List.of(fields));
  }
}
