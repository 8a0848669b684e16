package dev.quiver.nexmark;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes one kind's events into a batch of {@link NexmarkSchemas}: the generator fills a reused
 * holder, the holder's fields go straight into the batch's buffers ({@link Columns}). Nothing is
 * allocated per event.
 */
abstract class KindColumns {
  /** What a timestamp's milliseconds are multiplied by: 1, or 1000 for microseconds. */
  final long timeScale;

  KindColumns(long timeScale) {
    this.timeScale = timeScale;
  }

  /** Allocates {@code root}'s vectors for {@code rows} rows and keeps them for {@link #write}. */
  abstract void start(VectorSchemaRoot root, int rows);

  /** Writes event {@code n} of this kind into row {@code row}. */
  abstract void write(NexmarkGenerator generator, long n, int row);

  /** Sets the batch's counts and validity after {@code rows} rows. */
  abstract void finish(int rows);

  /** The writer of {@code kind}'s batches, timestamps in milliseconds times {@code timeScale}. */
  static KindColumns of(EventKind kind, long timeScale) {
    return switch (kind) {
      case PERSON -> new PersonColumns(timeScale);
      case AUCTION -> new AuctionColumns(timeScale);
      case BID -> new BidColumns(timeScale);
    };
  }

  private static final class BidColumns extends KindColumns {
    BidColumns(long timeScale) {
      super(timeScale);
    }

    private final Bid bid = new Bid();
    private final Columns.Longs auction = new Columns.Longs();
    private final Columns.Longs bidder = new Columns.Longs();
    private final Columns.Longs price = new Columns.Longs();
    private final Columns.Strings channel = new Columns.Strings();
    private final Columns.Strings url = new Columns.Strings();
    private final Columns.Longs dateTime = new Columns.Longs();
    private final Columns.Strings extra = new Columns.Strings();

    @Override
    void start(VectorSchemaRoot root, int rows) {
      auction.start(root.getVector(0), rows);
      bidder.start(root.getVector(1), rows);
      price.start(root.getVector(2), rows);
      channel.start(root.getVector(3), rows, 12);
      url.start(root.getVector(4), rows, 64);
      dateTime.start(root.getVector(5), rows);
      extra.start(root.getVector(6), rows, 72);
    }

    @Override
    void write(NexmarkGenerator generator, long n, int row) {
      generator.bid(n, bid);
      auction.set(row, bid.auction);
      bidder.set(row, bid.bidder);
      price.set(row, bid.price);
      channel.set(row, bid.channel);
      url.set(row, bid.url);
      dateTime.set(row, bid.dateTime * timeScale);
      extra.set(row, bid.extra);
    }

    @Override
    void finish(int rows) {
      auction.finish(rows);
      bidder.finish(rows);
      price.finish(rows);
      channel.finish(rows);
      url.finish(rows);
      dateTime.finish(rows);
      extra.finish(rows);
    }
  }

  private static final class PersonColumns extends KindColumns {
    PersonColumns(long timeScale) {
      super(timeScale);
    }

    private final Person person = new Person();
    private final Columns.Longs id = new Columns.Longs();
    private final Columns.Strings name = new Columns.Strings();
    private final Columns.Strings email = new Columns.Strings();
    private final Columns.Strings creditCard = new Columns.Strings();
    private final Columns.Strings city = new Columns.Strings();
    private final Columns.Strings state = new Columns.Strings();
    private final Columns.Longs dateTime = new Columns.Longs();
    private final Columns.Strings extra = new Columns.Strings();

    @Override
    void start(VectorSchemaRoot root, int rows) {
      id.start(root.getVector(0), rows);
      name.start(root.getVector(1), rows, 12);
      email.start(root.getVector(2), rows, 12);
      creditCard.start(root.getVector(3), rows, 19);
      city.start(root.getVector(4), rows, 8);
      state.start(root.getVector(5), rows, 2);
      dateTime.start(root.getVector(6), rows);
      extra.start(root.getVector(7), rows, 144);
    }

    @Override
    void write(NexmarkGenerator generator, long n, int row) {
      generator.person(n, person);
      id.set(row, person.id);
      name.set(row, person.name);
      email.set(row, person.emailAddress);
      creditCard.set(row, person.creditCard);
      city.set(row, person.city);
      state.set(row, person.state);
      dateTime.set(row, person.dateTime * timeScale);
      extra.set(row, person.extra);
    }

    @Override
    void finish(int rows) {
      id.finish(rows);
      name.finish(rows);
      email.finish(rows);
      creditCard.finish(rows);
      city.finish(rows);
      state.finish(rows);
      dateTime.finish(rows);
      extra.finish(rows);
    }
  }

  private static final class AuctionColumns extends KindColumns {
    AuctionColumns(long timeScale) {
      super(timeScale);
    }

    private final Auction auction = new Auction();
    private final Columns.Longs id = new Columns.Longs();
    private final Columns.Strings itemName = new Columns.Strings();
    private final Columns.Strings description = new Columns.Strings();
    private final Columns.Longs initialBid = new Columns.Longs();
    private final Columns.Longs reserve = new Columns.Longs();
    private final Columns.Longs dateTime = new Columns.Longs();
    private final Columns.Longs expires = new Columns.Longs();
    private final Columns.Longs seller = new Columns.Longs();
    private final Columns.Longs category = new Columns.Longs();
    private final Columns.Strings extra = new Columns.Strings();

    @Override
    void start(VectorSchemaRoot root, int rows) {
      id.start(root.getVector(0), rows);
      itemName.start(root.getVector(1), rows, 10);
      description.start(root.getVector(2), rows, 50);
      initialBid.start(root.getVector(3), rows);
      reserve.start(root.getVector(4), rows);
      dateTime.start(root.getVector(5), rows);
      expires.start(root.getVector(6), rows);
      seller.start(root.getVector(7), rows);
      category.start(root.getVector(8), rows);
      extra.start(root.getVector(9), rows, 400);
    }

    @Override
    void write(NexmarkGenerator generator, long n, int row) {
      generator.auction(n, auction);
      id.set(row, auction.id);
      itemName.set(row, auction.itemName);
      description.set(row, auction.description);
      initialBid.set(row, auction.initialBid);
      reserve.set(row, auction.reserve);
      dateTime.set(row, auction.dateTime * timeScale);
      expires.set(row, auction.expires * timeScale);
      seller.set(row, auction.seller);
      category.set(row, auction.category);
      extra.set(row, auction.extra);
    }

    @Override
    void finish(int rows) {
      id.finish(rows);
      itemName.finish(rows);
      description.finish(rows);
      initialBid.finish(rows);
      reserve.finish(rows);
      dateTime.finish(rows);
      expires.finish(rows);
      seller.finish(rows);
      category.finish(rows);
      extra.finish(rows);
    }
  }
}
