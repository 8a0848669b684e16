package dev.quiver.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The event model: determinism, the 1:3:46 proportions, ids, hot items and value ranges. */
class NexmarkGeneratorTest {
  private static final NexmarkConfig CONFIG = NexmarkConfig.DEFAULT.withSeed(7);

  @Test
  void sameConfigurationAndEventNumberGiveTheSameEventInAnyOrder() {
    NexmarkGenerator forward = new NexmarkGenerator(CONFIG);
    NexmarkGenerator backward = new NexmarkGenerator(CONFIG);
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (long n = 0; n < 5_000; n++) {
      a.add(event(forward, n));
    }
    for (long n = 4_999; n >= 0; n--) {
      b.add(0, event(backward, n));
    }
    assertThat(a).isEqualTo(b);
    NexmarkGenerator otherSeed = new NexmarkGenerator(CONFIG.withSeed(8));
    assertThat(event(otherSeed, 10)).isNotEqualTo(a.get(10));
    assertThat(event(otherSeed, 0)).isNotEqualTo(a.get(0));
  }

  @Test
  void kindsFollowTheOneThreeFortySixProportions() {
    NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
    int[] counts = new int[3];
    for (long n = 0; n < 50_000; n++) {
      counts[generator.kind(n).ordinal()]++;
    }
    assertThat(counts).containsExactly(1_000, 3_000, 46_000);
    assertThat(generator.kind(0)).isEqualTo(EventKind.PERSON);
    assertThat(generator.kind(1)).isEqualTo(EventKind.AUCTION);
    assertThat(generator.kind(3)).isEqualTo(EventKind.AUCTION);
    assertThat(generator.kind(4)).isEqualTo(EventKind.BID);
    assertThat(generator.kind(49)).isEqualTo(EventKind.BID);
    assertThat(generator.kind(50)).isEqualTo(EventKind.PERSON);
  }

  @Test
  void personsAndAuctionsAreNumberedInCreationOrderFromOneThousand() {
    NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
    Person person = new Person();
    Auction auction = new Auction();
    long nextPerson = 1000;
    long nextAuction = 1000;
    for (long n = 0; n < 10_000; n++) {
      switch (generator.kind(n)) {
        case PERSON -> {
          generator.person(n, person);
          assertThat(person.id()).isEqualTo(nextPerson++);
        }
        case AUCTION -> {
          generator.auction(n, auction);
          assertThat(auction.id()).isEqualTo(nextAuction++);
        }
        case BID -> {}
      }
    }
    assertThatThrownBy(() -> generator.bid(0, new Bid()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("event 0 is a person, not a bid");
  }

  @Test
  void valuesStayInTheSpecsRanges() {
    NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
    Person person = new Person();
    Auction auction = new Auction();
    Bid bid = new Bid();
    Set<String> hotChannels = Set.of("Google", "Facebook", "Baidu", "Apple");
    Set<String> states = Set.of("AZ", "CA", "ID", "OR", "WA", "WY");
    long bids = 0;
    long hotAuctionBids = 0;
    long hotBidderBids = 0;
    long hotChannelBids = 0;
    long bidBytes = 0;
    long auctions = 0;
    long hotSellerAuctions = 0;
    Set<String> channels = new HashSet<>();
    for (long n = 0; n < 200_000; n++) {
      long time = CONFIG.baseTimeMillis() + n / 10; // 10,000 events per second
      long people = n / 50 + 1; // persons created up to and including event n's epoch
      switch (generator.kind(n)) {
        case PERSON -> {
          generator.person(n, person);
          assertThat(person.dateTime()).isEqualTo(time);
          // A word of spaces trims to nothing, as in the spec.
          assertThat(person.emailAddress().toString()).matches("[a-z ]*@[a-z ]*\\.com");
          assertThat(person.creditCard().toString()).matches("\\d{4} \\d{4} \\d{4} \\d{4}");
          assertThat(person.name().toString()).matches("[A-Z][a-z]+ [A-Z][a-z]+");
          assertThat(states).contains(person.state().toString());
        }
        case AUCTION -> {
          generator.auction(n, auction);
          auctions++;
          assertThat(auction.dateTime()).isEqualTo(time);
          assertThat(auction.expires()).isGreaterThan(auction.dateTime());
          assertThat(auction.category()).isBetween(10L, 14L);
          assertThat(auction.initialBid()).isBetween(100L, 100_000_000L);
          assertThat(auction.reserve()).isGreaterThan(auction.initialBid());
          assertThat(auction.seller()).isBetween(1000L, 1000 + people - 1 + 10);
          if ((auction.seller() - 1000) % 100 == 0) {
            hotSellerAuctions++;
          }
          assertThat(auction.itemName().length()).isBetween(1, 19);
        }
        case BID -> {
          generator.bid(n, bid);
          bids++;
          long lastAuction = 1000 + (n / 50) * 3 + 2;
          assertThat(bid.dateTime()).isEqualTo(time);
          assertThat(bid.auction()).isBetween(Math.max(1000, lastAuction - 100), lastAuction + 10);
          assertThat(bid.bidder())
              .isBetween(Math.max(1000, 1000 + people - 1000), 1000 + people + 9);
          assertThat(bid.price()).isBetween(100L, 100_000_000L);
          String channel = bid.channel().toString();
          channels.add(channel);
          if (hotChannels.contains(channel)) {
            hotChannelBids++;
          } else {
            assertThat(channel).matches("channel-\\d{1,4}");
          }
          assertThat(bid.url().toString()).startsWith("https://www.nexmark.com/");
          if (bid.auction() == (lastAuction - 1000) / 100 * 100 + 1000) {
            hotAuctionBids++;
          }
          if ((bid.bidder() - 1000) % 100 == 1) {
            hotBidderBids++;
          }
          bidBytes += 32 + bid.extra().length();
        }
      }
    }
    // Hot auctions 1/2 (plus cold picks that land on the same id), hot bidders 3/4, hot sellers
    // 3/4, hot channels 1/2, the spec's average bid size of 100 bytes.
    assertThat((double) hotAuctionBids / bids).isBetween(0.49, 0.53);
    assertThat((double) hotBidderBids / bids).isBetween(0.74, 0.77);
    assertThat((double) hotSellerAuctions / auctions).isBetween(0.73, 0.78);
    assertThat((double) hotChannelBids / bids).isBetween(0.49, 0.51);
    assertThat((double) bidBytes / bids).isBetween(98.0, 102.0);
    assertThat(channels.size()).isGreaterThan(9_000);
  }

  @Test
  void eventTimeFollowsTheRate() {
    NexmarkGenerator generator =
        new NexmarkGenerator(CONFIG.withEventsPerSecond(10_000_000).withBaseTimeMillis(0));
    assertThat(generator.dateTime(0)).isZero();
    assertThat(generator.dateTime(9_999)).isZero();
    assertThat(generator.dateTime(10_000)).isEqualTo(1);
    assertThat(generator.dateTime(10_000_000)).isEqualTo(1_000);
  }

  static String event(NexmarkGenerator generator, long n) {
    return switch (generator.kind(n)) {
      case PERSON -> {
        Person person = new Person();
        generator.person(n, person);
        yield person.toString();
      }
      case AUCTION -> {
        Auction auction = new Auction();
        generator.auction(n, auction);
        yield auction.toString();
      }
      case BID -> {
        Bid bid = new Bid();
        generator.bid(n, bid);
        yield bid.toString();
      }
    };
  }
}
