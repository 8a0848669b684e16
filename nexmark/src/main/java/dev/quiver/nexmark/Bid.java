package dev.quiver.nexmark;

/**
 * A bid (the spec's {@code Bid}): a holder the generator overwrites with each bid it generates,
 * read before the next one.
 */
public final class Bid {
  long auction;
  long bidder;
  long price;
  final Text channel = new Text(0);
  final Text url = new Text(0);
  long dateTime;
  final Text extra = new Text(0);

  public long auction() {
    return auction;
  }

  public long bidder() {
    return bidder;
  }

  /** In cents. */
  public long price() {
    return price;
  }

  public Text channel() {
    return channel;
  }

  public Text url() {
    return url;
  }

  /** Event time, milliseconds since the epoch. */
  public long dateTime() {
    return dateTime;
  }

  public Text extra() {
    return extra;
  }

  @Override
  public String toString() {
    return "Bid[" + auction + ", " + bidder + ", " + price + ", " + channel + ", " + url + ", "
        + dateTime + ", " + extra + "]";
  }
}
