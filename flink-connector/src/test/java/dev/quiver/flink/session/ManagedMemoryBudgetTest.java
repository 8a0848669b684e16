package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.stage.TaskStats;
import dev.quiver.flink.testing.RecordingReporter;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without an explicit budget, a task's budget is its slot's share of Flink managed memory: a
 * session whose TaskManager has 2 MB of managed memory over 2 slots gives each stage task 1 MB, a
 * sort of 100,000 rows spills beyond it (instead of failing), and the spill shows in Flink's task
 * metrics as well as in the task statistics.
 */
@ExtendWith(ArrowLeakCheck.class)
class ManagedMemoryBudgetTest {

  @TempDir static Path dir;
  @TempDir Path tmp;
  private static Path orders;

  @BeforeAll
  static void writeOrders() throws Exception {
    orders = OrdersFiles.writeSpillingOrders(dir);
  }

  @BeforeEach
  void clearMetrics() {
    RecordingReporter.clear();
  }

  @Test
  void aTasksBudgetIsItsSlotsShareOfManagedMemoryAndASortBeyondItSpills() throws IOException {
    List<List<Object>> expected;
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      expected = session.sql(OrdersFiles.SORT_ALL).rows();
    }

    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(2));
    flink.set(CoreOptions.TMP_DIRS, tmp.toString());
    RecordingReporter.configure(flink);
    List<TaskStats.Task> tasks;
    try (QuiverSession session =
        QuiverSession.builder().parallelism(2).configuration(flink).build()) {
      session.registerTable("orders", orders.toString());
      try (SqlResult result = session.sql(OrdersFiles.SORT_ALL)) {
        assertThat(result.rows()).hasSize(100_000).containsExactlyElementsOf(expected);
        tasks = result.taskStats().values().stream().flatMap(List::stream).toList();
      }
    }

    long slotShare = MemorySize.ofMebiBytes(1).getBytes(); // 2 MB over 2 slots
    assertThat(tasks)
        .isNotEmpty()
        .allSatisfy(t -> assertThat(t.memoryBudget()).isEqualTo(slotShare));
    long spilled = tasks.stream().mapToLong(TaskStats.Task::spilledBytes).sum();
    assertThat(spilled).isPositive();
    // The same volume as Flink metrics, reported by every task when it ended.
    assertThat(RecordingReporter.values("quiverSpilledBytes").stream().mapToLong(v -> v).sum())
        .isEqualTo(spilled);
    assertThat(RecordingReporter.values("quiverSpillFiles"))
        .anySatisfy(n -> assertThat(n).isPositive());
    assertThat(RecordingReporter.values("quiverMemoryBudget")).containsOnly(slotShare);
    try (Stream<Path> left = Files.walk(tmp)) {
      assertThat(left.filter(Files::isRegularFile).filter(p -> p.toString().contains("spill")))
          .isEmpty();
    }
  }

  @Test
  void anExplicitBudgetOverridesManagedMemory() {
    Configuration flink = new Configuration();
    flink.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(2));
    try (QuiverSession session =
        QuiverSession.builder()
            .parallelism(2)
            .taskMemoryBudget(64 << 20)
            .configuration(flink)
            .build()) {
      session.registerTable("orders", orders.toString());
      try (SqlResult result = session.sql(OrdersFiles.SORT_ALL)) {
        assertThat(result.rows()).hasSize(100_000);
        assertThat(result.taskStats().values())
            .allSatisfy(
                stage ->
                    assertThat(stage)
                        .allSatisfy(
                            t -> {
                              assertThat(t.memoryBudget()).isEqualTo(64 << 20);
                              assertThat(t.spilledBytes()).isZero();
                            }));
      }
    }
  }

  @Test
  void aLocalSessionGetsHalfTheHeapAsManagedMemory() {
    assertThat(LocalCluster.defaultManagedMemory().getBytes())
        .isEqualTo(Math.max(Runtime.getRuntime().maxMemory() / 2, 128L << 20));
  }
}
