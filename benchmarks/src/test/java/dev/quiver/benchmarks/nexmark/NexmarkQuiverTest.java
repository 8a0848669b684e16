package dev.quiver.benchmarks.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.nexmark.Bid;
import dev.quiver.nexmark.EventKind;
import dev.quiver.nexmark.NexmarkConfig;
import dev.quiver.nexmark.NexmarkGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Quiver runs Nexmark q0, q1 and q2 over 10,000 generated events through its session with the row
 * counts the generator says, with latency samples where the result has {@code dateTime}, and the
 * windowed queries q5, q7 and q8 with Flink SQL's row counts over the same events.
 */
@Timeout(120)
class NexmarkQuiverTest {
  private static final long EVENTS = 10_000;
  private static final long WINDOWED_EVENTS = 100_000;
  private static QuiverNexmark quiver;
  private static QuiverNexmark callerSide;

  @BeforeAll
  static void start() {
    quiver = new QuiverNexmark(NexmarkFlinkSqlTest.options("--queries", "0,1,2"));
    callerSide =
        new QuiverNexmark(
            NexmarkFlinkSqlTest.options("--queries", "0,2", "--quiver-results", "caller"));
  }

  @AfterAll
  static void stop() {
    quiver.close();
    callerSide.close();
  }

  @Test
  void passThroughProjectionAndFilterReturnTheGeneratorsRowCounts() throws Exception {
    assertThat(quiver.options().quiverResults()).isEqualTo(NexmarkOptions.QuiverResults.SINK);
    long q2 = q2Rows();
    NexmarkResult q0 = quiver.run(new NexmarkQuery(0), EVENTS);
    assertThat(q0.rows()).isEqualTo(9_200);
    assertThat(q0.latencyNanos()).isNotEmpty(); // measured in the counting sink
    assertThat(q0.elapsedNanos()).isPositive();
    assertThat(quiver.run(new NexmarkQuery(1), EVENTS).rows()).isEqualTo(9_200);
    NexmarkResult filtered = quiver.run(new NexmarkQuery(2), EVENTS);
    assertThat(filtered.rows()).isEqualTo(q2).isPositive();
    assertThat(filtered.elapsedNanos()).isPositive();
    assertThat(filtered.latencyNanos()).isEmpty(); // no dateTime in q2's result
  }

  @Test
  void theCallerSidePathCountsTheSameRows() throws Exception {
    NexmarkResult q0 = callerSide.run(new NexmarkQuery(0), EVENTS);
    assertThat(q0.rows()).isEqualTo(9_200);
    assertThat(q0.latencyNanos()).isNotEmpty();
    assertThat(callerSide.run(new NexmarkQuery(2), EVENTS).rows()).isEqualTo(q2Rows());
  }

  private static long q2Rows() {
    NexmarkGenerator generator = new NexmarkGenerator(NexmarkConfig.DEFAULT);
    Bid bid = new Bid();
    long q2 = 0;
    for (long n = 0; n < EVENTS; n++) {
      if (generator.kind(n) == EventKind.BID) {
        generator.bid(n, bid);
        if (bid.auction() % 123 == 0) {
          q2++;
        }
      }
    }
    return q2;
  }

  /**
   * The windowed queries give Flink SQL's rows over the same 100,000 events (10 s of event time):
   * q5 (hopping window counts joined with their maximum per window: window aggregates of window
   * aggregates and a window join), q7 (an interval join of the bids with their windowed maximum)
   * and q8 (a window join of new persons and new auctions' sellers). Flink's streaming SQL is the
   * oracle; both count in a sink inside the job.
   */
  @Test
  void theWindowedQueriesGiveFlinkSqlsRows() throws Exception {
    try (FlinkSqlNexmark flink = new FlinkSqlNexmark(NexmarkFlinkSqlTest.options())) {
      for (int q : new int[] {5, 7, 8}) {
        long expected = flink.run(new NexmarkQuery(q), WINDOWED_EVENTS).rows();
        assertThat(expected).as("q%d on Flink SQL", q).isPositive();
        assertThat(quiver.run(new NexmarkQuery(q), WINDOWED_EVENTS).rows())
            .as("q%d on Quiver", q)
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void theRunnerPrintsBothEngines() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    NexmarkBenchmark.run(
        NexmarkFlinkSqlTest.options("--events", "5000", "--queries", "0,8", "--warmup-events", "0"),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("query\tquiver_eps\tflink_eps\t");
    assertThat(lines.get(1)).matches("q0\t\\d+\t\\d+\t.*\t4600\t4600");
    assertThat(lines.get(2)).matches("q8\t\\d+\t\\d+\t.*");
  }

  @Test
  void quiverRunsTheSelectOfTheInsertWithStandardQuoting() {
    assertThat(new NexmarkQuery(0).select())
        .isEqualTo("SELECT auction, bidder, price, \"dateTime\", extra FROM bid");
    assertThat(new NexmarkQuery(2).select())
        .isEqualTo("SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0");
  }
}
