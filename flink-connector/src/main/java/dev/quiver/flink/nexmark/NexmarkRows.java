package dev.quiver.flink.nexmark;

import dev.quiver.nexmark.Auction;
import dev.quiver.nexmark.Bid;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkGenerator;
import dev.quiver.nexmark.Person;
import dev.quiver.nexmark.Text;
import java.util.Arrays;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Nexmark events as Flink SQL rows, the row path of the generator: a {@link GenericRowData} per
 * event with the columns of {@code NexmarkSchemas} in order (BIGINT as {@code Long}, VARCHAR as
 * {@code StringData}, {@code TIMESTAMP(3)} as {@code TimestampData}). A string from one of the
 * generator's constant tables is wrapped, not copied; one from a holder's scratch buffer is copied.
 * One instance per thread (it reuses the holders).
 */
public final class NexmarkRows {
  private final NexmarkGenerator generator;
  private final Person person = new Person();
  private final Auction auction = new Auction();
  private final Bid bid = new Bid();

  public NexmarkRows(NexmarkGenerator generator) {
    this.generator = generator;
  }

  /** Event {@code n} as a row of its kind's columns. */
  public RowData row(long n) {
    return row(generator.kind(n), n);
  }

  /** Event {@code n}, which is of {@code kind}, as a row. */
  public RowData row(EventKind kind, long n) {
    return switch (kind) {
      case PERSON -> person(n);
      case AUCTION -> auction(n);
      case BID -> bid(n);
    };
  }

  private RowData bid(long n) {
    generator.bid(n, bid);
    return GenericRowData.of(
        bid.auction(),
        bid.bidder(),
        bid.price(),
        string(bid.channel()),
        string(bid.url()),
        TimestampData.fromEpochMillis(bid.dateTime()),
        string(bid.extra()));
  }

  private RowData person(long n) {
    generator.person(n, person);
    return GenericRowData.of(
        person.id(),
        string(person.name()),
        string(person.emailAddress()),
        string(person.creditCard()),
        string(person.city()),
        string(person.state()),
        TimestampData.fromEpochMillis(person.dateTime()),
        string(person.extra()));
  }

  private RowData auction(long n) {
    generator.auction(n, auction);
    return GenericRowData.of(
        auction.id(),
        string(auction.itemName()),
        string(auction.description()),
        auction.initialBid(),
        auction.reserve(),
        TimestampData.fromEpochMillis(auction.dateTime()),
        TimestampData.fromEpochMillis(auction.expires()),
        auction.seller(),
        auction.category(),
        string(auction.extra()));
  }

  private static StringData string(Text text) {
    if (text.isConstant()) {
      return BinaryStringData.fromBytes(text.bytes(), text.offset(), text.length());
    }
    int from = text.offset();
    return StringData.fromBytes(Arrays.copyOfRange(text.bytes(), from, from + text.length()));
  }
}
