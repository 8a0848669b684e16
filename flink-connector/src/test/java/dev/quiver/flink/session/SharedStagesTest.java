package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.testing.FailOnceOperator;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.StageInput;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries with a CTE used two and three times, end to end on a MiniCluster at parallelism 2: the
 * CTE (an aggregate) is one stage that each use reads, and the answers are DuckDB's on the same
 * files. One reader failing fails the query with that reader's error; a reader that fails once
 * under a restart strategy reads the shared stage's output again and the answer is unchanged.
 *
 * <pre>
 *   scan orders ─► partial agg ─SHUFFLE─► final agg (the CTE, shared) ─┬─► use 1
 *                                                                      ├─► use 2
 *                                                                      └─► use 3
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
class SharedStagesTest {
  private static final String CTE =
      "WITH c AS (SELECT customer, status, sum(amount) AS total, count(*) AS n"
          + " FROM orders GROUP BY customer, status) ";

  /** A self-join: both sides read the CTE (the same columns, so one subplan). */
  private static final String TWICE =
      CTE
          + "SELECT a.customer, a.status, b.status AS other, a.total - b.total AS diff, a.n + b.n AS n"
          + " FROM c a JOIN c b ON a.customer = b.customer AND a.status < b.status"
          + " ORDER BY a.customer NULLS FIRST, a.status, other";

  /** Three global aggregates of the CTE, each in a stage of its own. */
  private static final String THRICE =
      CTE
          + "SELECT 'max' AS k, max(total) AS v FROM c"
          + " UNION ALL SELECT 'min', min(total) FROM c"
          + " UNION ALL SELECT 'sum', sum(total) FROM c ORDER BY k";

  /** Two readers, the second dividing by zero. */
  private static final String ONE_READER_FAILS =
      CTE
          + "SELECT sum(total + n) AS v FROM c"
          + " UNION ALL SELECT sum(n / (n - n) + total) FROM c";

  @TempDir static Path dir;
  private static Path orders;
  private static QuiverSession session;

  @BeforeAll
  static void writeOrders() throws Exception {
    try (BufferAllocator allocator = Allocators.newChild("write orders")) {
      orders = OrdersFiles.writeParquet(dir.resolve("orders"), 4, 2_000, allocator);
    }
    session = session(new Configuration(), StageOutputHook.NONE);
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  private static QuiverSession session(Configuration flink, StageOutputHook hook) {
    QuiverSession created =
        QuiverSession.builder().parallelism(2).configuration(flink).stageOutputHook(hook).build();
    created.registerTable("orders", orders.toString());
    return created;
  }

  private static List<List<Object>> duckDb(String sql) throws Exception {
    try (DuckDbReference reference = new DuckDbReference()) {
      reference.view("orders", "read_parquet('" + orders + "/*.parquet')");
      return reference.rows(sql);
    }
  }

  /** The one stage whose plan runs the CTE's final aggregate, and its readers. */
  private static Stage sharedStage(StageGraph graph) {
    List<Stage> shared =
        graph.stages().stream().filter(stage -> graph.isShared(stage.id())).toList();
    assertThat(shared).as(graph.explain()).isNotEmpty();
    List<Stage> finals =
        graph.stages().stream()
            .filter(stage -> stage.plan().toString().startsWith("Aggregate[FINAL, keys=[#0, #1]"))
            .toList();
    assertThat(finals).as("the CTE is computed once\n" + graph.explain()).hasSize(1);
    assertThat(shared).contains(finals.get(0));
    return finals.get(0);
  }

  @Test
  void aCteUsedTwiceIsOneStageReadTwice() throws Exception {
    StageGraph graph = session.stageGraph(TWICE);
    Stage cte = sharedStage(graph);
    assertThat(graph.readers(cte.id())).hasSize(2);
    assertThat(session.explain(TWICE)).contains("readers=" + graph.readers(cte.id()));
    assertThat(DuckDbReference.normalize(session.sql(TWICE).rows())).isEqualTo(duckDb(TWICE));
  }

  /**
   * Without broadcast joins both sides of the self-join are the same hash repartition of the CTE:
   * the join's stage reads the CTE's stage twice, both times SHUFFLE (one Flink result partition,
   * two inputs of one operator).
   */
  @Test
  void aJoinReadsTheSharedStageTwiceInTheSameMode() throws Exception {
    try (QuiverSession partitioned =
        QuiverSession.builder().parallelism(2).broadcastThreshold(0).build()) {
      partitioned.registerTable("orders", orders.toString());
      StageGraph graph = partitioned.stageGraph(TWICE);
      Stage cte = sharedStage(graph);
      List<Integer> readers = graph.readers(cte.id());
      assertThat(readers).hasSize(2).containsOnly(readers.get(0));
      assertThat(graph.stage(readers.get(0)).inputs())
          .filteredOn(input -> input.stage() == cte.id())
          .extracting(StageInput::mode)
          .containsExactly(InputMode.SHUFFLE, InputMode.SHUFFLE);
      assertThat(DuckDbReference.normalize(partitioned.sql(TWICE).rows())).isEqualTo(duckDb(TWICE));
    }
  }

  @Test
  void aCteUsedThreeTimesIsOneStageReadByThreeStages() throws Exception {
    StageGraph graph = session.stageGraph(THRICE);
    Stage cte = sharedStage(graph);
    assertThat(graph.readers(cte.id())).hasSize(3).doesNotHaveDuplicates();
    assertThat(session.explainDot(THRICE))
        .contains("s" + cte.id() + " [label=")
        .contains(", style=bold];");
    List<List<Object>> rows = session.sql(THRICE).rows();
    assertThat(rows).hasSize(3);
    assertThat(DuckDbReference.normalize(rows)).isEqualTo(duckDb(THRICE));
  }

  @Test
  void explainAnalyzeReportsTheSharedStageOnce() {
    StageGraph graph = session.stageGraph(THRICE);
    Stage cte = sharedStage(graph);
    String analyzed = session.explainAnalyze(THRICE);
    String header = "Stage " + cte.id() + "  tasks=2";
    assertThat(analyzed).containsOnlyOnce(header);
    String block = analyzed.substring(analyzed.indexOf(header));
    assertThat(block.lines().skip(1).limit(2)).allMatch(line -> line.startsWith("  | task "));
  }

  @Test
  void oneReaderFailingFailsTheQueryWithItsError() {
    StageGraph graph = session.stageGraph(ONE_READER_FAILS);
    Stage cte = sharedStage(graph);
    List<Integer> readers = graph.readers(cte.id());
    assertThat(readers).hasSize(2);
    assertThatThrownBy(() -> session.sql(ONE_READER_FAILS).rows())
        .isInstanceOfSatisfying(
            QuiverException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
              assertThat(e.getMessage()).contains("(stage " + readers.get(1) + ", task ");
            });
    // The session still answers.
    assertThat(session.sql(THRICE).rows()).hasSize(3);
  }

  @Test
  void aReaderThatFailsOnceReadsTheSharedOutputAgain() throws Exception {
    StageGraph graph = session.stageGraph(THRICE);
    int reader = graph.readers(sharedStage(graph).id()).get(1);
    Configuration flink = new Configuration();
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    try (QuiverSession failing = session(flink, FailOnceOperator.inStage(reader, 0, 0))) {
      assertThat(DuckDbReference.normalize(failing.sql(THRICE).rows())).isEqualTo(duckDb(THRICE));
    }
  }
}
