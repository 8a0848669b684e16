package dev.quiver.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.nexmark.NexmarkProgress;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.nexmark.Bid;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkGenerator;
import dev.quiver.plan.time.EventTime;
import dev.quiver.testing.ArrowLeakCheck;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code 'connector' = 'nexmark'} tables in a session: a filter over the bids runs as a STREAMING
 * job and returns exactly the generator's bids that pass it, read by two tasks that report their
 * progress to a {@link NexmarkProgress} listener; aggregates over the stream are refused (not wired
 * yet); wrong options and schemas name what to fix.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(120)
class NexmarkTablesTest {
  private static final long EVENTS = 40_000;
  private static final NexmarkConfig CONFIG = NexmarkConfig.DEFAULT.withSeed(11);
  private static final List<Long> PROGRESS = new CopyOnWriteArrayList<>();
  private static final AtomicInteger READERS = new AtomicInteger();
  private static QuiverSession session;
  private static NexmarkProgress.Registration progress;

  @BeforeAll
  static void start() {
    progress =
        NexmarkProgress.register(
            "nexmark-tables-test",
            () -> {
              READERS.incrementAndGet();
              return (dateTime, nanos) -> PROGRESS.add(dateTime);
            });
    session = QuiverSession.builder().parallelism(2).build();
    session.registerTable(
        "bid",
        NexmarkTables.schema(EventKind.BID),
        Optional.empty(),
        bids(Map.of("progress", "nexmark-tables-test")));
  }

  @AfterAll
  static void stop() {
    progress.close();
    if (session != null) {
      session.close();
    }
  }

  private static Map<String, String> bids(Map<String, String> more) {
    Map<String, String> with = new HashMap<>();
    with.put("connector", "nexmark");
    with.put("kind", "bid");
    with.put("events", Long.toString(EVENTS));
    with.put("seed", Long.toString(CONFIG.seed()));
    with.put("scan.batch.rows", "1000");
    with.putAll(more);
    return with;
  }

  @Test
  void aFilterReturnsTheGeneratorsBidsThatPassIt() {
    // dateTime is a keyword of Quiver's parser: quoted (nexmark-flink quotes it with backticks).
    assertThat(session.explain("SELECT auction FROM bid"))
        .contains("unbounded, WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND");
    List<List<Object>> rows =
        session
            .sql("SELECT auction, price, \"dateTime\" FROM bid WHERE MOD(auction, 7) = 0")
            .rows();

    List<List<Object>> expected = new ArrayList<>();
    NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
    Bid bid = new Bid();
    long bids = 0;
    long lastTime = Long.MIN_VALUE;
    for (long n = 0; n < EVENTS; n++) {
      if (generator.kind(n) == EventKind.BID) {
        bids++;
        generator.bid(n, bid);
        lastTime = bid.dateTime();
        if (bid.auction() % 7 == 0) {
          LocalDateTime time =
              LocalDateTime.ofEpochSecond(0, 0, ZoneOffset.UTC)
                  .plus(Duration.ofMillis(bid.dateTime()));
          expected.add(List.of(bid.auction(), bid.price(), time));
        }
      }
    }
    assertThat(bids).isEqualTo(EVENTS / 50 * 46);
    assertThat(expected).hasSizeGreaterThan(1000);
    assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    // Each reader told the progress listener of its batches (the EXPLAIN above ran no job).
    assertThat(READERS).hasValue(2);
    assertThat(PROGRESS).hasSizeGreaterThanOrEqualTo((int) (bids / 1000)).contains(lastTime);
  }

  @Test
  void whatWouldWaitForTheEndOfTheStreamIsRefused() {
    assertThatThrownBy(() -> session.sql("SELECT median(price) FROM bid"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("unbounded table 'bid'")
        .satisfies(
            e -> assertThat(((QuiverException) e).code()).isEqualTo(ErrorCode.UNSUPPORTED_FEATURE));
  }

  @Test
  void wrongOptionsAndSchemasNameWhatToFix() {
    assertThatThrownBy(
            () ->
                session.registerTable(
                    "t",
                    NexmarkTables.schema(EventKind.BID),
                    Optional.empty(),
                    bids(Map.of("kind", "bids"))))
        .hasMessage(
            "[INVALID_QUERY] Table 't': 'kind' = 'bids' is not a Nexmark kind: person, auction,"
                + " bid");
    assertThatThrownBy(
            () ->
                session.registerTable(
                    "t", NexmarkTables.schema(EventKind.PERSON), Optional.empty(), bids(Map.of())))
        .hasMessageStartingWith("[INVALID_QUERY] Table 't': a Nexmark bid table has the schema (");
    assertThatThrownBy(
            () ->
                session.registerTable(
                    "t",
                    NexmarkTables.schema(EventKind.BID),
                    Optional.empty(),
                    bids(Map.of("events", "-1"))))
        .hasMessageContaining("'events' and 'block-events' must be positive");
    assertThatThrownBy(
            () ->
                session.registerTable(
                    "t",
                    NexmarkTables.schema(EventKind.BID),
                    Optional.of(new EventTime("price", Duration.ZERO)),
                    bids(Map.of())))
        .hasMessageContaining("event time is its dateTime, not price");
    assertThatThrownBy(
            () ->
                session.registerTable(
                    "t",
                    NexmarkTables.schema(EventKind.BID),
                    Optional.empty(),
                    bids(Map.of("rate", "5"))))
        .hasMessageContaining("['rate'] is not one the nexmark connector has");
  }
}
