package dev.quiver.nexmark;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes one kind's events into a batch of {@link NexmarkSchemas}: the generator fills a reused
 * holder, the holder's fields go straight into the vectors (fixed-width ones preallocated for the
 * batch, strings grown as needed). Nothing is allocated per event.
 */
abstract class KindColumns {
  /** Allocates {@code root}'s vectors for {@code rows} rows and keeps them for {@link #write}. */
  abstract void start(VectorSchemaRoot root, int rows);

  /** Writes event {@code n} of this kind into row {@code row}. */
  abstract void write(NexmarkGenerator generator, long n, int row);

  static KindColumns of(EventKind kind) {
    return switch (kind) {
      case PERSON -> new PersonColumns();
      case AUCTION -> new AuctionColumns();
      case BID -> new BidColumns();
    };
  }

  static void set(VarCharVector vector, int row, Text text) {
    vector.setSafe(row, text.bytes(), text.offset(), text.length());
  }

  static BigIntVector bigint(VectorSchemaRoot root, int column, int rows) {
    BigIntVector vector = (BigIntVector) root.getVector(column);
    vector.allocateNew(rows);
    return vector;
  }

  static TimeStampMilliVector timestamp(VectorSchemaRoot root, int column, int rows) {
    TimeStampMilliVector vector = (TimeStampMilliVector) root.getVector(column);
    vector.allocateNew(rows);
    return vector;
  }

  static VarCharVector varchar(VectorSchemaRoot root, int column, int rows, int averageBytes) {
    VarCharVector vector = (VarCharVector) root.getVector(column);
    vector.allocateNew((long) rows * averageBytes, rows);
    return vector;
  }

  private static final class BidColumns extends KindColumns {
    private final Bid bid = new Bid();
    private BigIntVector auction;
    private BigIntVector bidder;
    private BigIntVector price;
    private VarCharVector channel;
    private VarCharVector url;
    private TimeStampMilliVector dateTime;
    private VarCharVector extra;

    @Override
    void start(VectorSchemaRoot root, int rows) {
      auction = bigint(root, 0, rows);
      bidder = bigint(root, 1, rows);
      price = bigint(root, 2, rows);
      channel = varchar(root, 3, rows, 12);
      url = varchar(root, 4, rows, 64);
      dateTime = timestamp(root, 5, rows);
      extra = varchar(root, 6, rows, 72);
    }

    @Override
    void write(NexmarkGenerator generator, long n, int row) {
      generator.bid(n, bid);
      auction.set(row, bid.auction);
      bidder.set(row, bid.bidder);
      price.set(row, bid.price);
      set(channel, row, bid.channel);
      set(url, row, bid.url);
      dateTime.set(row, bid.dateTime);
      set(extra, row, bid.extra);
    }
  }

  private static final class PersonColumns extends KindColumns {
    private final Person person = new Person();
    private BigIntVector id;
    private VarCharVector name;
    private VarCharVector email;
    private VarCharVector creditCard;
    private VarCharVector city;
    private VarCharVector state;
    private TimeStampMilliVector dateTime;
    private VarCharVector extra;

    @Override
    void start(VectorSchemaRoot root, int rows) {
      id = bigint(root, 0, rows);
      name = varchar(root, 1, rows, 12);
      email = varchar(root, 2, rows, 12);
      creditCard = varchar(root, 3, rows, 19);
      city = varchar(root, 4, rows, 8);
      state = varchar(root, 5, rows, 2);
      dateTime = timestamp(root, 6, rows);
      extra = varchar(root, 7, rows, 144);
    }

    @Override
    void write(NexmarkGenerator generator, long n, int row) {
      generator.person(n, person);
      id.set(row, person.id);
      set(name, row, person.name);
      set(email, row, person.emailAddress);
      set(creditCard, row, person.creditCard);
      set(city, row, person.city);
      set(state, row, person.state);
      dateTime.set(row, person.dateTime);
      set(extra, row, person.extra);
    }
  }

  private static final class AuctionColumns extends KindColumns {
    private final Auction auction = new Auction();
    private BigIntVector id;
    private VarCharVector itemName;
    private VarCharVector description;
    private BigIntVector initialBid;
    private BigIntVector reserve;
    private TimeStampMilliVector dateTime;
    private TimeStampMilliVector expires;
    private BigIntVector seller;
    private BigIntVector category;
    private VarCharVector extra;

    @Override
    void start(VectorSchemaRoot root, int rows) {
      id = bigint(root, 0, rows);
      itemName = varchar(root, 1, rows, 10);
      description = varchar(root, 2, rows, 50);
      initialBid = bigint(root, 3, rows);
      reserve = bigint(root, 4, rows);
      dateTime = timestamp(root, 5, rows);
      expires = timestamp(root, 6, rows);
      seller = bigint(root, 7, rows);
      category = bigint(root, 8, rows);
      extra = varchar(root, 9, rows, 400);
    }

    @Override
    void write(NexmarkGenerator generator, long n, int row) {
      generator.auction(n, auction);
      id.set(row, auction.id);
      set(itemName, row, auction.itemName);
      set(description, row, auction.description);
      initialBid.set(row, auction.initialBid);
      reserve.set(row, auction.reserve);
      dateTime.set(row, auction.dateTime);
      expires.set(row, auction.expires);
      seller.set(row, auction.seller);
      category.set(row, auction.category);
      set(extra, row, auction.extra);
    }
  }
}
