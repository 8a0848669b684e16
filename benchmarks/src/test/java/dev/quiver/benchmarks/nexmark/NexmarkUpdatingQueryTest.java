package dev.quiver.benchmarks.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.benchmarks.run.ClusterSettings;
import dev.quiver.flink.catalog.NexmarkTables;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.nexmark.Bid;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkGenerator;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nexmark q17 (auction statistics per day: an unbounded GROUP BY of {@code auction} and {@code
 * DATE_FORMAT(dateTime, 'yyyy-MM-dd')} with FILTERed counts, min, max, avg and sum) on Quiver, its
 * groups beyond a 64 KiB task budget in the RocksDB spill store: the changelog applied in order is
 * the statistics computed here from the generator's bids, each group inserted once.
 */
@Timeout(180)
class NexmarkUpdatingQueryTest {
  private static final long EVENTS = 40_000;

  @Test
  void q17sChangelogAppliedIsTheGeneratorsAuctionStatistics() throws Exception {
    Map<List<Object>, List<Object>> expected = statistics();
    Map<List<Object>, List<Object>> applied = new HashMap<>();
    Map<List<Object>, Integer> inserts = new HashMap<>();
    try (QuiverSession session =
        QuiverSession.builder()
            .parallelism(2)
            .configuration(ClusterSettings.configuration(2, "256m", ClusterSettings.freePort()))
            .taskMemoryBudget(64 * 1024)
            .build()) {
      NexmarkConfig config = NexmarkConfig.DEFAULT;
      session.registerTable(
          "bid",
          NexmarkTables.schema(EventKind.BID),
          Optional.of(NexmarkTables.eventTime()),
          Map.of(
              "connector", "nexmark",
              "kind", "bid",
              "events", Long.toString(EVENTS),
              "seed", Long.toString(config.seed()),
              "events-per-second", Long.toString(config.eventsPerSecond()),
              "base-time-millis", Long.toString(config.baseTimeMillis())));
      try (SqlResult result = session.sql(new NexmarkQuery(17).select())) {
        assertThat(result.changelog()).isTrue();
        for (List<Object> change : result.rows()) {
          List<Object> row = normalized(change.subList(1, change.size()));
          List<Object> key = row.subList(0, 2);
          switch (change.get(0).toString()) {
            case "+I" -> {
              inserts.merge(key, 1, Integer::sum);
              assertThat(applied.put(key, row)).as("+I of a live group %s", key).isNull();
            }
            case "+U" -> assertThat(applied.put(key, row)).as("+U of %s", key).isNull();
            case "-U", "-D" ->
                assertThat(applied.remove(key)).as("%s of %s", change.get(0), key).isEqualTo(row);
            default -> throw new AssertionError("not a row kind: " + change);
          }
        }
      }
    }
    assertThat(expected).hasSizeGreaterThan(1_000); // far beyond 64 KiB of groups per task
    assertThat(applied).isEqualTo(expected);
    assertThat(inserts.values()).containsOnly(1);
  }

  /** (auction, day) → auction, day, total, rank1..3, min, max, avg, sum of the generated bids. */
  private static Map<List<Object>, List<Object>> statistics() {
    NexmarkGenerator generator = new NexmarkGenerator(NexmarkConfig.DEFAULT);
    Bid bid = new Bid();
    Map<List<Object>, long[]> groups = new HashMap<>();
    for (long n = 0; n < EVENTS; n++) {
      if (generator.kind(n) != EventKind.BID) {
        continue;
      }
      generator.bid(n, bid);
      String day = Instant.ofEpochMilli(bid.dateTime()).atZone(ZoneOffset.UTC).toLocalDate() + "";
      long[] s =
          groups.computeIfAbsent(
              List.of(bid.auction(), day),
              k -> new long[] {0, 0, 0, 0, Long.MAX_VALUE, Long.MIN_VALUE, 0});
      long price = bid.price();
      s[0]++;
      s[price < 10_000 ? 1 : price < 1_000_000 ? 2 : 3]++;
      s[4] = Math.min(s[4], price);
      s[5] = Math.max(s[5], price);
      s[6] += price;
    }
    Map<List<Object>, List<Object>> rows = new HashMap<>();
    groups.forEach(
        (key, s) -> {
          List<Object> row = new ArrayList<>(key);
          for (int i = 0; i < 6; i++) {
            row.add(s[i]);
          }
          row.add(Math.round((double) s[6] / s[0] * 1e6) / 1e6);
          row.add(s[6]);
          rows.put(key, row);
        });
    return rows;
  }

  /** Text as String, whole numbers as long, the average rounded to six decimals. */
  private static List<Object> normalized(List<Object> row) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < row.size(); i++) {
      Object value = row.get(i);
      if (i == 8) {
        out.add(Math.round(((Number) value).doubleValue() * 1e6) / 1e6);
      } else if (value instanceof Number number) {
        out.add(number.longValue());
      } else {
        out.add(value.toString());
      }
    }
    return out;
  }
}
