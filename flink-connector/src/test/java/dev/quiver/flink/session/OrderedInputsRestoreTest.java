package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a restored STREAMING stage task holds beyond {@link OrderedInputsFailoverTest}'s cases: the
 * job fails once, after a checkpoint completed at a chosen point, and Flink restarts it from that
 * checkpoint.
 *
 * <pre>
 *   one input, bounded, rows kept:  stage 0: Scan items ─SHUFFLE─► stage 1: Aggregate[SINGLE]
 *                                   ─BROADCAST─► stage 2: HashJoin[build, probe = Scan bids]
 *                                   (fails in stage 0's output after a checkpoint that stage 1
 *                                   took half way through the table)
 *   VALUES in a stage of streams:   stage 0: Union[Values, Scan bids (, Scan bids)]
 *                                   (fails after a checkpoint taken once the VALUES rows went out)
 * </pre>
 *
 * The stream is 100,000 Nexmark events (92,000 bids, auctions 1000 and up).
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class OrderedInputsRestoreTest {
  @TempDir static Path dir;

  private static final int BIDS = 92_000; // of 100,000 events: 46 in 50
  private static final int COPIES = 20; // rows of the table per auction, each its own name

  @BeforeEach
  void resetFailures() {
    FailAfterCheckpoint.FAILURES.set(0);
  }

  /**
   * Stage 1 aggregates a bounded table, all of which it reads before its output: a checkpoint taken
   * while it has read half of it must hold those rows, since the table's source resumes after them.
   */
  @Test
  void aOneInputStageOfABoundedTableKeepsItsRowsAcrossAFailover() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (int copy = 0; copy < COPIES; copy++) { // every auction in every batch's stretch
      for (long id = 1000; id < 10_000; id++) {
        csv.append(id).append(",table-").append(copy).append('\n');
      }
    }
    Path items = dir.resolve("items.csv");
    Files.writeString(items, csv);
    FailAfterCheckpoint.failingStage = 0;
    FailAfterCheckpoint.arming = FailAfterCheckpoint.textStartingWith("table-");
    try (QuiverSession session = session(2)) {
      session.registerTable("items", items.toString());
      String query =
          "SELECT b.auction, t.names FROM bids b JOIN (SELECT CAST(id AS BIGINT) AS id,"
              + " count(DISTINCT name) AS names FROM items GROUP BY id) t ON b.auction = t.id";
      assertThat(session.explain(query))
          .contains("Stage 1  tasks=2  output=none  inputs=[0 SHUFFLE]\n  Aggregate[SINGLE");

      List<List<Object>> rows = session.sql(query).rows();

      assertThat(FailAfterCheckpoint.FAILURES.get()).as("injected failures").isPositive();
      assertThat(rows.stream().filter(row -> !row.get(1).equals((long) COPIES)).limit(5))
          .as("auctions whose names were not all counted")
          .isEmpty();
      assertThat(rows).hasSize(BIDS);
    }
  }

  /**
   * A VALUES leaf in a stage whose other inputs are streams runs when the task's pipeline starts:
   * its rows went downstream before the checkpoint, and the restored task must not send them again.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aValuesLeafBesideStreamsIsNotRunAgainAfterAFailover(int streams) throws Exception {
    FailAfterCheckpoint.failingStage = 0;
    FailAfterCheckpoint.arming = FailAfterCheckpoint.textStartingWith("values-");
    try (QuiverSession session = session(1)) { // one task: the VALUES stay in the stage
      String query =
          "SELECT * FROM (VALUES (CAST(-1 AS BIGINT), 'values-1'), (CAST(-2 AS BIGINT),"
              + " 'values-2')) UNION ALL SELECT auction, channel FROM bids"
              + (streams == 2 ? " UNION ALL SELECT bidder, url FROM bids" : "");
      assertThat(session.explain(query)).contains("Values[rows=2]").doesNotContain("Stage 1");

      List<List<Object>> rows = session.sql(query).rows();

      assertThat(FailAfterCheckpoint.FAILURES.get()).as("injected failures").isPositive();
      assertThat(rows.stream().filter(row -> ((String) row.get(1)).startsWith("values-")))
          .containsExactlyInAnyOrder(List.of(-1L, "values-1"), List.of(-2L, "values-2"));
      assertThat(rows).hasSize(2 + streams * BIDS);
    }
  }

  /**
   * An updating aggregate (GROUP BY over a stream) of a table and the stream checkpoints its groups
   * itself: the restored task must not replay the table into the restored groups as well.
   */
  @Test
  void anUpdatingAggregateOfATableAndAStreamCountsTheTableOnceAfterAFailover() throws Exception {
    StringBuilder csv = new StringBuilder("id\n");
    int tableRows = 0;
    for (long id = -20; id < 10_000; id = id == -1 ? 1000 : id + 1) {
      csv.append(id).append('\n');
      tableRows++;
    }
    Path items = dir.resolve("ids.csv");
    Files.writeString(items, csv);
    FailAfterCheckpoint.failingStage = 0;
    FailAfterCheckpoint.arming =
        FailAfterCheckpoint
            .negativeKey(); // a group of the table's own ids is out: the table has been counted
    try (QuiverSession session = session(1)) { // one task: the aggregate is SINGLE, in the stage
      session.registerTable("ids", items.toString());
      String query =
          "SELECT a, count(*) AS n FROM (SELECT CAST(id AS BIGINT) AS a FROM ids"
              + " UNION ALL SELECT auction FROM bids) t GROUP BY a";
      assertThat(session.explain(query))
          .contains("Aggregate[SINGLE, keys=[#0], calls=[count(*) AS n], updating]")
          .doesNotContain("Stage 1");

      List<List<Object>> changes = session.sql(query).rows();

      assertThat(FailAfterCheckpoint.FAILURES.get()).as("injected failures").isPositive();
      Map<Long, Long> counts = finalCounts(changes);
      assertThat(counts.get(-1L)).isEqualTo(1L);
      assertThat(counts.values().stream().mapToLong(Long::longValue).sum())
          .as("the table's rows and the bids, each counted once")
          .isEqualTo(tableRows + BIDS);
    }
  }

  /**
   * The same with VALUES in place of the table: they ran before the checkpoint, their rows are in
   * the restored groups, and the restored task must not run them into the groups again.
   */
  @Test
  void anUpdatingAggregateOfValuesAndAStreamCountsTheValuesOnceAfterAFailover() {
    FailAfterCheckpoint.failingStage = 0;
    FailAfterCheckpoint.arming = FailAfterCheckpoint.negativeKey();
    try (QuiverSession session = session(1)) {
      StringBuilder values = new StringBuilder("VALUES (CAST(-1 AS BIGINT))");
      for (long auction = 1000; auction < 10_000; auction += 500) {
        values.append(", (CAST(").append(auction).append(" AS BIGINT))"); // later bids count too
      }
      String query =
          "SELECT a, count(*) AS n FROM (SELECT * FROM ("
              + values
              + ") UNION ALL SELECT auction FROM bids) t(a) GROUP BY a";
      assertThat(session.explain(query)).contains("updating]").doesNotContain("Stage 1");

      List<List<Object>> changes = session.sql(query).rows();

      assertThat(FailAfterCheckpoint.FAILURES.get()).as("injected failures").isPositive();
      assertThat(finalCounts(changes).values().stream().mapToLong(Long::longValue).sum())
          .as("the VALUES rows and the bids, each counted once")
          .isEqualTo(1 + 18 + BIDS);
    }
  }

  /** A changelog of (op, key, count) rows applied in order: each key's last count. */
  private static Map<Long, Long> finalCounts(List<List<Object>> changes) {
    Map<Long, Long> counts = new HashMap<>();
    for (List<Object> change : changes) {
      if (change.get(0).equals("+I") || change.get(0).equals("+U")) {
        counts.put((Long) change.get(1), (Long) change.get(2));
      }
    }
    return counts;
  }

  private static QuiverSession session(int parallelism) {
    QuiverSession session =
        QuiverSession.builder()
            .parallelism(parallelism)
            .configuration(FailAfterCheckpoint.configuration())
            .stageOutputHook(FailAfterCheckpoint.hook())
            .build();
    session.execute(
        """
        CREATE TABLE bids (auction BIGINT NOT NULL, bidder BIGINT NOT NULL,
          price BIGINT NOT NULL, channel STRING NOT NULL, url STRING NOT NULL,
          dateTime TIMESTAMP(3) NOT NULL, extra STRING NOT NULL)
        WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '100000',
          'scan.batch.rows' = '100')
        """);
    return session;
  }
}
