package dev.quiver.nexmark;

import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schema of each event kind's batches: the columns of the spec's {@code person}, {@code
 * auction} and {@code bid} views under their Nexmark names, BIGINT as 64-bit integers, VARCHAR as
 * UTF-8, {@code TIMESTAMP(3)} as millisecond timestamps without a time zone. No value is ever NULL.
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

  private static Schema schema(Object... namesAndTypes) {
    Field[] fields = new Field[namesAndTypes.length / 2];
    for (int i = 0; i < fields.length; i++) {
      fields[i] =
          Field.notNullable((String) namesAndTypes[2 * i], (ArrowType) namesAndTypes[2 * i + 1]);
    }
    return new Schema(List.of(fields));
  }
}
