package dev.quiver.benchmarks.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.benchmarks.run.Engine;
import dev.quiver.nexmark.Bid;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Flink 2.3 streaming SQL runs Nexmark q0, q1 and q2 over 10,000 generated events with the row
 * counts the generator says: every bid (q0, q1), the bids of auctions divisible by 123 (q2); the
 * runner prints its table.
 */
@Timeout(120)
class NexmarkFlinkSqlTest {
  private static final long EVENTS = 10_000;
  private static final NexmarkConfig CONFIG = NexmarkConfig.DEFAULT;
  private static FlinkSqlNexmark flink;

  @BeforeAll
  static void start() {
    flink = new FlinkSqlNexmark(options("--queries", "0,1,2"));
  }

  @AfterAll
  static void stop() throws Exception {
    flink.close();
  }

  @Test
  void passThroughProjectionAndFilterWriteTheGeneratorsRowCounts() throws Exception {
    NexmarkGenerator generator = new NexmarkGenerator(CONFIG);
    Bid bid = new Bid();
    long bids = 0;
    long q2 = 0;
    for (long n = 0; n < EVENTS; n++) {
      if (generator.kind(n) == EventKind.BID) {
        generator.bid(n, bid);
        bids++;
        if (bid.auction() % 123 == 0) {
          q2++;
        }
      }
    }
    assertThat(bids).isEqualTo(9_200);
    assertThat(q2).isPositive();
    assertThat(flink.run(new NexmarkQuery(0), EVENTS).rows()).isEqualTo(bids);
    assertThat(flink.run(new NexmarkQuery(1), EVENTS).rows()).isEqualTo(bids);
    NexmarkResult filtered = flink.run(new NexmarkQuery(2), EVENTS);
    assertThat(filtered.rows()).isEqualTo(q2);
    assertThat(filtered.elapsedNanos()).isPositive();
  }

  @Test
  void theWindowedQueriesRunToTheEnd() throws Exception {
    // 100,000 events at 10,000 per second of event time: 10 s, one or two 10 s windows.
    for (int q : new int[] {5, 7, 8}) {
      NexmarkResult result = flink.run(new NexmarkQuery(q), 100_000);
      assertThat(result.rows()).as("q%d", q).isPositive();
    }
  }

  @Test
  void theRunnerPrintsAHeaderAndALinePerQuery() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    NexmarkBenchmark.run(
        options(
            "--events", "5000", "--queries", "0,2", "--warmup-events", "0", "--engines", "flink"),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("query\tquiver_eps\tflink_eps\t");
    assertThat(lines.get(1)).matches("q0\t-\t\\d+\t-\t-\t.*\t-\t4600");
    assertThat(lines.get(2)).startsWith("q2\t-\t");
  }

  @Test
  void queriesPointTheirSinkAtTheRun() {
    List<String> statements = new NexmarkQuery(2).statements("r1");
    assertThat(statements).hasSize(2);
    assertThat(statements.get(0))
        .startsWith("CREATE TABLE nexmark_q2")
        .contains("'connector' = 'quiver-count', 'run' = 'r1'");
    assertThat(statements.get(1))
        .isEqualTo(
            "INSERT INTO nexmark_q2\nSELECT auction, price FROM bid WHERE MOD(auction, 123) = 0");
    assertThat(
            NexmarkBenchmark.line(
                new NexmarkQuery(0),
                Map.of(
                    Engine.Kind.FLINK,
                    new NexmarkResult(1000, 920, 1_000_000_000L, List.of(1_000_000L)))))
        .isEqualTo("q0\t-\t1000\t-\t-\t1.0\t1.0\t-\t920");
  }

  static NexmarkOptions options(String... args) {
    NexmarkOptions parsed = NexmarkOptions.parse(args);
    return new NexmarkOptions(
        parsed.events(),
        parsed.queries(),
        parsed.parallelism(),
        parsed.config(),
        parsed.warmupEvents(),
        "256m",
        Duration.ofSeconds(60),
        parsed.engines(),
        parsed.flinkSql(),
        parsed.quiverCheckpoints(),
        parsed.quiverResults(),
        parsed.quiverTaskBudget(),
        parsed.flinkConf());
  }
}
