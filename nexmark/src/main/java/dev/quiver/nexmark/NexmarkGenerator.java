package dev.quiver.nexmark;

import static java.util.Objects.requireNonNull;

/**
 * The Nexmark event model: event {@code n} (any {@code n >= 0}) as a person, an auction or a bid,
 * deterministic in the configuration and {@code n} alone.
 *
 * <p>The model, as the Nexmark spec and its reference implementation (nexmark-flink's generator)
 * define it:
 *
 * <ul>
 *   <li>Events come in epochs of {@link NexmarkConfig#totalProportion()} (50): first the persons
 *       (1), then the auctions (3), then the bids (46). The kind of event {@code n} is its offset
 *       {@code n % 50}.
 *   <li>Persons and auctions are numbered in the order they are created: the person of event {@code
 *       n} has id {@code 1000 + epoch * 1 + offset}, an auction {@code 1000 + epoch * 3 + (offset -
 *       1)}. A bid or an auction refers to a person or an auction created before it (or up to 10
 *       ids ahead, the spec's "lead", so that some references arrive before the event they refer
 *       to).
 *   <li>Hot items: a bid is for a hot auction with probability 1/2 (the first of the last hundred
 *       auctions), by a hot bidder with probability 3/4 (the second of the last hundred persons);
 *       an auction is by a hot seller with probability 3/4 (the first of the last hundred persons).
 *       Otherwise a bid picks one of the last 100 auctions, a bidder or seller one of the last 1000
 *       persons (plus the lead).
 *   <li>Prices are {@code round(10^(6u) * 100)} cents, {@code u} uniform in {@code [0, 1)};
 *       categories 10..14; half the bids come from one of four hot channels, the rest from one of
 *       10,000 channels with their URLs; {@code extra} pads each event to the spec's average size.
 *   <li>Event time is {@code baseTime + n * 1000 / eventsPerSecond}: non-decreasing in {@code n}.
 * </ul>
 *
 * <p>One instance per thread: it reuses one random stream, reset per event from the seed and {@code
 * n}, and writes into the caller's holder, so that generating an event allocates nothing.
 */
public final class NexmarkGenerator {
  static final long FIRST_PERSON_ID = 1000;
  static final long FIRST_AUCTION_ID = 1000;
  static final long FIRST_CATEGORY_ID = 10;
  static final int NUM_CATEGORIES = 5;
  private static final int PERSON_ID_LEAD = 10;
  private static final int AUCTION_ID_LEAD = 10;
  // Hot sellers, bidders and auctions are one of each block of this many ids.
  private static final int HOT_BLOCK = 100;

  private final NexmarkConfig config;
  private final int total;
  private final int persons;
  private final int auctions;
  private final Vocabulary words = Vocabulary.INSTANCE;
  private final EventRandom random = new EventRandom();

  public NexmarkGenerator(NexmarkConfig config) {
    this.config = requireNonNull(config, "config is null");
    this.total = config.totalProportion();
    this.persons = config.personProportion();
    this.auctions = config.auctionProportion();
  }

  public NexmarkConfig config() {
    return config;
  }

  /** The kind of event {@code n}. */
  public EventKind kind(long n) {
    long offset = n % total;
    if (offset < persons) {
      return EventKind.PERSON;
    }
    return offset < persons + auctions ? EventKind.AUCTION : EventKind.BID;
  }

  /** The event time of event {@code n}, milliseconds since the epoch. */
  public long dateTime(long n) {
    return config.baseTimeMillis() + n * 1000 / config.eventsPerSecond();
  }

  /** Writes event {@code n}, which must be a person, into {@code out}. */
  public void person(long n, Person out) {
    checkKind(n, EventKind.PERSON);
    random.reset(config.seed(), n);
    out.id = FIRST_PERSON_ID + lastPersonId(n);
    out.name.set(words.names[random.nextInt(words.names.length)]);
    byte[] email = out.emailAddress.scratch();
    int length = Words.write(random, email, 0, 7, (byte) ' ');
    email[length++] = '@';
    length += Words.write(random, email, length, 5, (byte) ' ');
    email[length++] = '.';
    email[length++] = 'c';
    email[length++] = 'o';
    email[length++] = 'm';
    out.emailAddress.useScratch(0, length);
    byte[] card = out.creditCard.scratch();
    for (int group = 0, at = 0; group < 4; group++) {
      int digits = random.nextInt(10_000);
      if (group > 0) {
        card[at++] = ' ';
      }
      for (int d = 3; d >= 0; d--) {
        card[at + d] = (byte) ('0' + digits % 10);
        digits /= 10;
      }
      at += 4;
    }
    out.creditCard.useScratch(0, 19);
    out.city.set(words.cities[random.nextInt(words.cities.length)]);
    out.state.set(words.states[random.nextInt(words.states.length)]);
    out.dateTime = dateTime(n);
    int size =
        8
            + out.name.length()
            + out.emailAddress.length()
            + out.creditCard.length()
            + out.city.length()
            + out.state.length();
    extra(out.extra, size, config.avgPersonByteSize());
  }

  /** Writes event {@code n}, which must be an auction, into {@code out}. */
  public void auction(long n, Auction out) {
    checkKind(n, EventKind.AUCTION);
    random.reset(config.seed(), n);
    out.id = FIRST_AUCTION_ID + lastAuctionId(n);
    long seller;
    if (random.nextInt(config.hotSellersRatio()) > 0) {
      seller = (lastPersonId(n) / HOT_BLOCK) * HOT_BLOCK;
    } else {
      seller = nextPersonId(n);
    }
    out.seller = FIRST_PERSON_ID + seller;
    out.category = FIRST_CATEGORY_ID + random.nextInt(NUM_CATEGORIES);
    out.initialBid = nextPrice();
    out.dateTime = dateTime(n);
    out.expires = out.dateTime + nextAuctionLength(n, out.dateTime);
    out.itemName.useScratch(0, Words.write(random, out.itemName.scratch(), 0, 20, (byte) ' '));
    out.description.useScratch(
        0, Words.write(random, out.description.scratch(), 0, 100, (byte) ' '));
    out.reserve = out.initialBid + nextPrice();
    int size = 8 + out.itemName.length() + out.description.length() + 8 + 8 + 8 + 8 + 8;
    extra(out.extra, size, config.avgAuctionByteSize());
  }

  /** Writes event {@code n}, which must be a bid, into {@code out}. */
  public void bid(long n, Bid out) {
    checkKind(n, EventKind.BID);
    random.reset(config.seed(), n);
    long auction;
    if (random.nextInt(config.hotAuctionRatio()) > 0) {
      auction = (lastAuctionId(n) / HOT_BLOCK) * HOT_BLOCK;
    } else {
      auction = nextAuctionId(n);
    }
    out.auction = FIRST_AUCTION_ID + auction;
    long bidder;
    if (random.nextInt(config.hotBiddersRatio()) > 0) {
      // The second of the block, so that hot bidders are not hot sellers.
      bidder = (lastPersonId(n) / HOT_BLOCK) * HOT_BLOCK + 1;
    } else {
      bidder = nextPersonId(n);
    }
    out.bidder = FIRST_PERSON_ID + bidder;
    out.price = nextPrice();
    if (random.nextInt(2) > 0) {
      int hot = random.nextInt(words.hotChannels.length);
      out.channel.set(words.hotChannels[hot]);
      out.url.set(words.hotUrls[hot]);
    } else {
      int channel = random.nextInt(Vocabulary.CHANNELS);
      out.channel.set(words.channels[channel]);
      out.url.set(words.channelUrls[channel]);
    }
    out.dateTime = dateTime(n);
    extra(out.extra, 8 + 8 + 8 + 8, config.avgBidByteSize());
  }

  /**
   * The id (from 0) of the newest person as of event {@code n}: the person {@code n} creates, or
   * the last one created before it.
   */
  long lastPersonId(long n) {
    long epoch = n / total;
    long offset = Math.min(n % total, persons - 1);
    return epoch * persons + offset;
  }

  /**
   * The id (from 0) of the newest auction as of event {@code n}: the auction {@code n} creates, or
   * the last one created before it ({@code -1} before the first).
   */
  long lastAuctionId(long n) {
    long epoch = n / total;
    long offset = n % total;
    if (offset < persons) {
      return epoch * auctions - 1; // the last auction of the previous epoch
    }
    return epoch * auctions + Math.min(offset - persons, auctions - 1);
  }

  // One of the active (newest) persons, or up to PERSON_ID_LEAD ids ahead.
  private long nextPersonId(long n) {
    long people = lastPersonId(n) + 1;
    long active = Math.min(people, config.numActivePeople());
    return people - active + random.nextLong(active + PERSON_ID_LEAD);
  }

  // One of the auctions likely still open, or up to AUCTION_ID_LEAD ids ahead.
  private long nextAuctionId(long n) {
    long max = Math.max(lastAuctionId(n), 0);
    long min = Math.max(max - config.numInFlightAuctions(), 0);
    return min + random.nextLong(max - min + 1 + AUCTION_ID_LEAD);
  }

  private long nextPrice() {
    return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
  }

  // An auction lasts on average as long as the stream takes to create numInFlightAuctions more.
  private long nextAuctionLength(long n, long dateTime) {
    long eventsAhead = (long) config.numInFlightAuctions() * total / auctions;
    long horizon = dateTime(n + eventsAhead) - dateTime;
    return 1 + random.nextLong(Math.max(horizon * 2, 1));
  }

  // Pads an event of `size` bytes to `average` on average: a slice of the letter pool of
  // (average - size) +- 20 % bytes.
  private void extra(Text out, int size, int average) {
    if (size > average) {
      out.set(words.extraPool, 0, 0);
      return;
    }
    int wanted = average - size;
    int delta = (int) Math.round(wanted * 0.2);
    int length = wanted - delta + (delta == 0 ? 0 : random.nextInt(2 * delta));
    int from = random.nextInt(words.extraPool.length - length);
    out.set(words.extraPool, from, length);
  }

  private void checkKind(long n, EventKind expected) {
    if (n < 0) {
      throw new IllegalArgumentException("event number must be >= 0: " + n);
    }
    EventKind kind = kind(n);
    if (kind != expected) {
      throw new IllegalArgumentException(
          "event " + n + " is a " + kind.tableName() + ", not a " + expected.tableName());
    }
  }
}
