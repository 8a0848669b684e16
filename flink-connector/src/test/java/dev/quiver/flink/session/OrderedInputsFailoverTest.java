package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
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
  private static final AtomicInteger FAILURES = new AtomicInteger();
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
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    flink.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    StageOutputHook hook =
        (stage, output) ->
            output
                .forward()
                .transform("fail after a checkpoint", output.getType(), new FailAfterCheckpoint())
                .setParallelism(output.getParallelism());
    session =
        QuiverSession.builder().parallelism(2).configuration(flink).stageOutputHook(hook).build();
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
    FAILURES.set(0);
  }

  @Test
  void aTableUnionAStreamHasEveryTableRowOnceAfterAFailover() {
    String query =
        "SELECT CAST(id AS BIGINT) AS id, name FROM items"
            + " UNION ALL SELECT auction, channel FROM bids";
    assertThat(session.explain(query)).contains("Union[inputs=2]").doesNotContain("Stage 1");
    List<List<Object>> rows = session.sql(query).rows();

    assertThat(FAILURES.get()).as("injected failures").isPositive();
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

    assertThat(FAILURES.get()).as("injected failures").isPositive();
    assertThat(rows).hasSize(BIDS).allMatch(row -> row.get(1).equals("table-" + row.get(0)));
  }

  /**
   * Passes batches on. In the first attempt it sleeps after each batch (the stream would otherwise
   * end before a checkpoint), and fails on the first batch after a checkpoint has completed whose
   * snapshot it took once rows of the table ({@code table-...}) had passed it.
   */
  private static final class FailAfterCheckpoint extends BatchOperator
      implements OneInputStreamOperator<BatchRecord, BatchRecord> {
    private static final long serialVersionUID = 1L;
    private transient boolean sawTable;
    private transient Set<Long> snapshotsAfterTable;
    private transient boolean armed;

    @Override
    public void open() throws Exception {
      super.open();
      snapshotsAfterTable = new HashSet<>();
    }

    private boolean firstAttempt() {
      return getRuntimeContext().getTaskInfo().getAttemptNumber() == 0;
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) throws Exception {
      BatchRecord record = element.getValue();
      if (!record.isData() || !firstAttempt()) {
        emit(record);
        return;
      }
      if (armed) {
        record.close();
        FAILURES.incrementAndGet();
        throw new IllegalStateException("injected failure in " + taskName());
      }
      sawTable |= hasTableRow(record.batch());
      emit(record);
      Thread.sleep(20);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
      super.snapshotState(context);
      if (sawTable) {
        snapshotsAfterTable.add(context.getCheckpointId());
      }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
      super.notifyCheckpointComplete(checkpointId);
      armed |= snapshotsAfterTable.contains(checkpointId);
    }

    private static boolean hasTableRow(VectorSchemaRoot batch) {
      VarCharVector names = (VarCharVector) batch.getVector(1);
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (!names.isNull(row) && new String(names.get(row)).startsWith("table-")) {
          return true;
        }
      }
      return false;
    }
  }
}
