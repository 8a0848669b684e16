package dev.quiver.nexmark;

import java.io.Serializable;

/**
 * The parameters of a Nexmark event stream. Two generators with equal configurations produce equal
 * events for every event number.
 *
 * <p>Event time: event {@code n} happens at {@code baseTimeMillis + n * 1000 / eventsPerSecond}
 * (integer division), so the stream as a whole advances at {@code eventsPerSecond} in event time
 * however it is split among tasks.
 *
 * @param seed the seed every event's random values are derived from (with its event number)
 * @param eventsPerSecond the event-time rate (the spec's {@code firstEventRate}); not a rate limit
 * @param baseTimeMillis the event time of event 0, milliseconds since the epoch
 * @param personProportion persons per epoch of {@link #totalProportion()} events (1)
 * @param auctionProportion auctions per epoch (3)
 * @param bidProportion bids per epoch (46)
 * @param hotAuctionRatio a bid is for a hot auction with probability {@code 1 - 1/ratio} (2)
 * @param hotSellersRatio an auction is by a hot seller with probability {@code 1 - 1/ratio} (4)
 * @param hotBiddersRatio a bid is by a hot bidder with probability {@code 1 - 1/ratio} (4)
 * @param numInFlightAuctions the auctions a cold bid may pick from, the newest ones (100)
 * @param numActivePeople the persons a cold bidder or seller is picked from, the newest (1000)
 * @param avgPersonByteSize the average size the {@code extra} column fills a person up to (200)
 * @param avgAuctionByteSize ... an auction (500)
 * @param avgBidByteSize ... a bid (100)
 */
public record NexmarkConfig(
    long seed,
    long eventsPerSecond,
    long baseTimeMillis,
    int personProportion,
    int auctionProportion,
    int bidProportion,
    int hotAuctionRatio,
    int hotSellersRatio,
    int hotBiddersRatio,
    int numInFlightAuctions,
    int numActivePeople,
    int avgPersonByteSize,
    int avgAuctionByteSize,
    int avgBidByteSize)
    implements Serializable {

  /** 2026-01-01T00:00:00Z: a fixed event time of event 0, so that runs are reproducible. */
  public static final long DEFAULT_BASE_TIME_MILLIS = 1_767_225_600_000L;

  /** The spec's default event-time rate (nexmark-flink's {@code firstEventRate}). */
  public static final long DEFAULT_EVENTS_PER_SECOND = 10_000;

  /** The spec's defaults (those of nexmark-flink's {@code NexmarkConfiguration}), seed 0. */
  public static final NexmarkConfig DEFAULT =
      new NexmarkConfig(
          0,
          DEFAULT_EVENTS_PER_SECOND,
          DEFAULT_BASE_TIME_MILLIS,
          1,
          3,
          46,
          2,
          4,
          4,
          100,
          1000,
          200,
          500,
          100);

  public NexmarkConfig {
    checkPositive(eventsPerSecond, "eventsPerSecond");
    checkPositive(personProportion, "personProportion");
    checkPositive(auctionProportion, "auctionProportion");
    checkPositive(bidProportion, "bidProportion");
    checkPositive(hotAuctionRatio, "hotAuctionRatio");
    checkPositive(hotSellersRatio, "hotSellersRatio");
    checkPositive(hotBiddersRatio, "hotBiddersRatio");
    checkPositive(numInFlightAuctions, "numInFlightAuctions");
    checkPositive(numActivePeople, "numActivePeople");
    if (eventsPerSecond > 1_000_000_000L) {
      throw new IllegalArgumentException(
          "eventsPerSecond must be at most 10^9 (event times are whole milliseconds of n * 1000 /"
              + " rate): "
              + eventsPerSecond);
    }
  }

  private static void checkPositive(long value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }

  /** Events per epoch: one cycle of persons, auctions, bids (50 by default). */
  public int totalProportion() {
    return personProportion + auctionProportion + bidProportion;
  }

  public NexmarkConfig withSeed(long value) {
    return new NexmarkConfig(
        value,
        eventsPerSecond,
        baseTimeMillis,
        personProportion,
        auctionProportion,
        bidProportion,
        hotAuctionRatio,
        hotSellersRatio,
        hotBiddersRatio,
        numInFlightAuctions,
        numActivePeople,
        avgPersonByteSize,
        avgAuctionByteSize,
        avgBidByteSize);
  }

  public NexmarkConfig withEventsPerSecond(long value) {
    return new NexmarkConfig(
        seed,
        value,
        baseTimeMillis,
        personProportion,
        auctionProportion,
        bidProportion,
        hotAuctionRatio,
        hotSellersRatio,
        hotBiddersRatio,
        numInFlightAuctions,
        numActivePeople,
        avgPersonByteSize,
        avgAuctionByteSize,
        avgBidByteSize);
  }

  public NexmarkConfig withBaseTimeMillis(long value) {
    return new NexmarkConfig(
        seed,
        eventsPerSecond,
        value,
        personProportion,
        auctionProportion,
        bidProportion,
        hotAuctionRatio,
        hotSellersRatio,
        hotBiddersRatio,
        numInFlightAuctions,
        numActivePeople,
        avgPersonByteSize,
        avgAuctionByteSize,
        avgBidByteSize);
  }
}
