package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streaming stage that reads a bounded table and a stream fails after a checkpoint taken once the
 * table's rows had reached it; Flink restarts the job from that checkpoint. The table's rows that
 * went straight through the stage ({@code table UNION ALL stream}) are in the result once, not sent
 * again by the restored task; the table that is a join's build side is built again, so every stream
 * row still finds its match.
 *
 * <pre>
 *   stage 0: Union[Scan items, Scan bids] ─► [fails once after a checkpoint] ─► result
 *   stage 0: HashJoin[build = Scan items (broadcast), probe = Scan bids] ─► [fails once] ─► result
 * </pre>
 *
 * The stream is 100,000 Nexmark events (92,000 bids, auctions 1000 and up), slowed down in the
 * first attempt so that checkpoints complete while it runs; the table holds auctions 1000 .. 9999
 * and 20 rows of its own (negative ids).
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(240)
class OrderedInputsFailoverTest {
  @TempDir static Path dir;

  private static final int BIDS = 92_000; // of 100,000 events: 46 in 50
  private static final List<List<Object>> TABLE = new ArrayList<>();
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    StringBuilder csv = new StringBuilder("id,name\n");
    for (long id = -20; id < 10_000; id = id == -1 ? 1000 : id + 1) {
      csv.append(id).append(",table-").append(id).append('\n');
      TABLE.add(List.of(id, "table-" + id));
    }
    Path items = dir.resolve("items.csv");
    Files.writeString(items, csv);
    FailAfterCheckpoint.failingStage = FailAfterCheckpoint.ANY_STAGE;
    FailAfterCheckpoint.arming = FailAfterCheckpoint.textStartingWith("table-");
    session =
        QuiverSession.builder()
            .parallelism(2)
            .configuration(FailAfterCheckpoint.configuration())
            .stageOutputHook(FailAfterCheckpoint.hook())
            .build();
    session.registerTable("items", items.toString());
    session.execute(
        """
        CREATE TABLE bids (auction BIGINT NOT NULL, bidder BIGINT NOT NULL,
          price BIGINT NOT NULL, channel STRING NOT NULL, url STRING NOT NULL,
          dateTime TIMESTAMP(3) NOT NULL, extra STRING NOT NULL)
        WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '100000',
          'scan.batch.rows' = '100')
        """);
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @BeforeEach
  void resetFailures() {
    FailAfterCheckpoint.FAILURES.set(0);
  }

  @Test
  void aTableUnionAStreamHasEveryTableRowOnceAfterAFailover() {
    String query =
        "SELECT CAST(id AS BIGINT) AS id, name FROM items"
            + " UNION ALL SELECT auction, channel FROM bids";
    assertThat(session.explain(query)).contains("Union[inputs=2]").doesNotContain("Stage 1");
    List<List<Object>> rows = session.sql(query).rows();

    assertThat(FailAfterCheckpoint.FAILURES.get()).as("injected failures").isPositive();
    List<List<Object>> table =
        rows.stream().filter(row -> ((String) row.get(1)).startsWith("table-")).toList();
    assertThat(table).containsExactlyInAnyOrderElementsOf(TABLE);
    assertThat(rows).hasSize(TABLE.size() + BIDS);
  }

  @Test
  void aStreamJoinedWithATableFindsEveryMatchAfterAFailover() {
    String query =
        "SELECT b.auction, i.name FROM bids b JOIN items i ON b.auction = CAST(i.id AS BIGINT)";
    assertThat(session.explain(query)).contains("BROADCAST").doesNotContain("Stage 1");
    List<List<Object>> rows = session.sql(query).rows();

    assertThat(FailAfterCheckpoint.FAILURES.get()).as("injected failures").isPositive();
    assertThat(rows).hasSize(BIDS).allMatch(row -> row.get(1).equals("table-" + row.get(0)));
  }
}
