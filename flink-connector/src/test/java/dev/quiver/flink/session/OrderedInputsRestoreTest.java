package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
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
  private static final AtomicInteger FAILURES = new AtomicInteger();

  /** The stage whose output fails, and the output batches that arm it. */
  private static volatile int failingStage;

  private static volatile Predicate<VectorSchemaRoot> arming;

  @BeforeEach
  void resetFailures() {
    FAILURES.set(0);
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
    failingStage = 0;
    arming = textStartingWith("table-");
    try (QuiverSession session = session(2)) {
      session.registerTable("items", items.toString());
      String query =
          "SELECT b.auction, t.names FROM bids b JOIN (SELECT CAST(id AS BIGINT) AS id,"
              + " count(DISTINCT name) AS names FROM items GROUP BY id) t ON b.auction = t.id";
      assertThat(session.explain(query))
          .contains("Stage 1  tasks=2  output=none  inputs=[0 SHUFFLE]\n  Aggregate[SINGLE");

      List<List<Object>> rows = session.sql(query).rows();

      assertThat(FAILURES.get()).as("injected failures").isPositive();
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
    failingStage = 0;
    arming = textStartingWith("values-");
    try (QuiverSession session = session(1)) { // one task: the VALUES stay in the stage
      String query =
          "SELECT * FROM (VALUES (CAST(-1 AS BIGINT), 'values-1'), (CAST(-2 AS BIGINT),"
              + " 'values-2')) UNION ALL SELECT auction, channel FROM bids"
              + (streams == 2 ? " UNION ALL SELECT bidder, url FROM bids" : "");
      assertThat(session.explain(query)).contains("Values[rows=2]").doesNotContain("Stage 1");

      List<List<Object>> rows = session.sql(query).rows();

      assertThat(FAILURES.get()).as("injected failures").isPositive();
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
    failingStage = 0;
    arming = negativeKey(); // a group of the table's own ids is out: the table has been counted
    try (QuiverSession session = session(1)) { // one task: the aggregate is SINGLE, in the stage
      session.registerTable("ids", items.toString());
      String query =
          "SELECT a, count(*) AS n FROM (SELECT CAST(id AS BIGINT) AS a FROM ids"
              + " UNION ALL SELECT auction FROM bids) t GROUP BY a";
      assertThat(session.explain(query))
          .contains("Aggregate[SINGLE, keys=[#0], calls=[count(*) AS n], updating]")
          .doesNotContain("Stage 1");

      List<List<Object>> changes = session.sql(query).rows();

      assertThat(FAILURES.get()).as("injected failures").isPositive();
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
    failingStage = 0;
    arming = negativeKey();
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

      assertThat(FAILURES.get()).as("injected failures").isPositive();
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

  /** Batches with a negative key in column 0 (BIGINT). */
  private static Predicate<VectorSchemaRoot> negativeKey() {
    return batch -> {
      BigIntVector keys = (BigIntVector) batch.getVector(0);
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (!keys.isNull(row) && keys.get(row) < 0) {
          return true;
        }
      }
      return false;
    };
  }

  private static QuiverSession session(int parallelism) {
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
                .transform(
                    "fail after a checkpoint",
                    output.getType(),
                    new FailAfterCheckpoint(stage.id()))
                .setParallelism(output.getParallelism());
    QuiverSession session =
        QuiverSession.builder()
            .parallelism(parallelism)
            .configuration(flink)
            .stageOutputHook(hook)
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

  /**
   * Passes batches on. In the first attempt of the {@link #failingStage}'s tasks it sleeps after
   * each batch (the inputs would otherwise end before a checkpoint), and fails on the first batch
   * after a checkpoint has completed whose snapshot it took once an {@link #arming} batch had
   * passed it.
   */
  private static final class FailAfterCheckpoint extends BatchOperator
      implements OneInputStreamOperator<BatchRecord, BatchRecord> {
    private static final long serialVersionUID = 1L;
    private final int stage;
    private transient boolean sawArmingRow;
    private transient Set<Long> snapshotsAfterArmingRow;
    private transient boolean armed;

    FailAfterCheckpoint(int stage) {
      this.stage = stage;
    }

    @Override
    public void open() throws Exception {
      super.open();
      snapshotsAfterArmingRow = new HashSet<>();
    }

    private boolean failing() {
      return stage == failingStage && getRuntimeContext().getTaskInfo().getAttemptNumber() == 0;
    }

    @Override
    public void processElement(StreamRecord<BatchRecord> element) throws Exception {
      BatchRecord record = element.getValue();
      if (!record.isData() || !failing()) {
        emit(record);
        return;
      }
      if (armed) {
        record.close();
        FAILURES.incrementAndGet();
        throw new IllegalStateException("injected failure in " + taskName());
      }
      sawArmingRow |= arming.test(record.batch());
      emit(record);
      Thread.sleep(20);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
      super.snapshotState(context);
      if (sawArmingRow) {
        snapshotsAfterArmingRow.add(context.getCheckpointId());
      }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
      super.notifyCheckpointComplete(checkpointId);
      armed |= snapshotsAfterArmingRow.contains(checkpointId);
    }
  }

  /** Batches with a row whose column 1 starts with {@code prefix}. */
  private static Predicate<VectorSchemaRoot> textStartingWith(String prefix) {
    return batch -> {
      VarCharVector names = (VarCharVector) batch.getVector(1);
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (!names.isNull(row) && new String(names.get(row)).startsWith(prefix)) {
          return true;
        }
      }
      return false;
    };
  }
}
