package dev.quiver.nexmark;

/**
 * A new auction (the spec's {@code Auction}): a holder the generator overwrites with each auction
 * it generates, read before the next one.
 */
public final class Auction {
  long id;
  final Text itemName = new Text(20);
  final Text description = new Text(100);
  long initialBid;
  long reserve;
  long dateTime;
  long expires;
  long seller;
  long category;
  final Text extra = new Text(0);

  public long id() {
    return id;
  }

  public Text itemName() {
    return itemName;
  }

  public Text description() {
    return description;
  }

  public long initialBid() {
    return initialBid;
  }

  public long reserve() {
    return reserve;
  }

  /** Event time, milliseconds since the epoch. */
  public long dateTime() {
    return dateTime;
  }

  /** When the auction closes, milliseconds since the epoch. */
  public long expires() {
    return expires;
  }

  public long seller() {
    return seller;
  }

  public long category() {
    return category;
  }

  public Text extra() {
    return extra;
  }

  @Override
  public String toString() {
    return "Auction["
        + id
        + ", "
        + itemName
        + ", "
        + description
        + ", "
        + initialBid
        + ", "
        + reserve
        + ", "
        + dateTime
        + ", "
        + expires
        + ", "
        + seller
        + ", "
        + category
        + ", "
        + extra
        + "]";
  }
}
