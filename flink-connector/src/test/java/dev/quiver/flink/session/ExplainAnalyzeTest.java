package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.stage.TaskStats;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.stage.Stage;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** EXPLAIN ANALYZE: every task of every stage reports what it did, and the figures add up. */
@ExtendWith(ArrowLeakCheck.class)
class ExplainAnalyzeTest {
  private static final int FILES = 4;
  private static final int ROWS_PER_FILE = 5_000;
  private static final String QUERY =
      "SELECT status, count(*) AS n, sum(amount) AS total FROM orders GROUP BY status";

  @TempDir static Path dir;
  private static Path orders;

  @BeforeAll
  static void writeOrders() throws Exception {
    orders = dir.resolve("orders");
    try (BufferAllocator allocator = Allocators.newChild("write orders")) {
      OrdersFiles.writeParquet(orders, FILES, ROWS_PER_FILE, allocator);
    }
  }

  @Test
  void everyStageReportsEachTaskAndTheRowsAddUp() {
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      Map<Integer, List<TaskStats.Task>> stats;
      List<Stage> stages;
      long resultRows;
      try (SqlResult result = session.sql(QUERY)) {
        resultRows = result.rows().size();
        stats = result.taskStats();
        stages = result.graph().stages();
      }
      assertThat(resultRows).isEqualTo(3);
      for (Stage stage : stages) {
        assertThat(stats.get(stage.id())).as("stage %d", stage.id()).hasSize(stage.tasks());
      }
      // Stage 0 scans and pre-aggregates: all rows of the table go into it (as scan output, not
      // stage input), and what it sends is exactly what the shuffled final stage receives.
      Stage last = stages.get(stages.size() - 1);
      long sent = stats.get(0).stream().mapToLong(TaskStats.Task::rowsOut).sum();
      long received =
          stats.get(stages.get(1).id()).stream().mapToLong(TaskStats.Task::rowsIn).sum();
      assertThat(received).isEqualTo(sent);
      assertThat(stats.get(last.id()).stream().mapToLong(TaskStats.Task::rowsOut).sum())
          .isEqualTo(resultRows);
      assertThat(stats.get(0).stream().mapToLong(TaskStats.Task::bytesOut).sum()).isPositive();
    }
  }

  @Test
  void analyzeTextShowsEachTaskUnderItsStage() {
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      String text = session.explainAnalyze(QUERY);
      assertThat(text).startsWith("-- 3 rows in ");
      assertThat(text).contains("Stage 0").contains("  | task 0: in ").contains("  | task 1: in ");
      assertThat(text).contains("busy ").contains("Scan[orders");
    }
  }
}
