package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.testing.FailOnceOperator;
import dev.quiver.flink.testing.RecordingReporter;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task that fails once mid-query, with a restart strategy configured: the query gives exactly the
 * answer of a run without failures (every row once, in order), and neither the failed attempt's
 * Arrow memory (the leak check) nor its spill files (a budget of 256 KB makes the sort spill; the
 * tasks' spill metrics show the failed attempt had files) are left behind. Without restarts left,
 * the failure reaches the user as the task's own error.
 *
 * <p>The stages of the query at parallelism 2:
 *
 * <pre>
 *   stage 0 (2 tasks): scan orders ─► sort (spills) ─MERGE─► stage 1 (1 task) ─► collect sink
 * </pre>
 */
@ExtendWith(ArrowLeakCheck.class)
class FailoverTest {

  @TempDir static Path dir;
  @TempDir Path tmp;
  private static Path orders;
  private static List<List<Object>> expected;

  @BeforeAll
  static void writeOrdersAndAnswer() throws Exception {
    orders = OrdersFiles.writeSpillingOrders(dir);
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      expected = session.sql(OrdersFiles.SORT_ALL).rows();
    }
  }

  private Configuration restarts(int attempts) {
    Configuration flink = new Configuration();
    flink.set(CoreOptions.TMP_DIRS, tmp.toString());
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, attempts);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
    return RecordingReporter.configure(flink);
  }

  private QuiverSession session(Configuration flink, StageOutputHook hook) {
    QuiverSession session =
        QuiverSession.builder()
            .parallelism(2)
            .taskMemoryBudget(256 << 10)
            .configuration(flink)
            .stageOutputHook(hook)
            .build();
    session.registerTable("orders", orders.toString());
    return session;
  }

  private List<List<Object>> runAndCheckSpilled(QuiverSession session) {
    try (SqlResult result = session.sql(OrdersFiles.SORT_ALL)) {
      List<List<Object>> rows = result.rows();
      assertThat(result.taskStats().get(0))
          .allSatisfy(task -> assertThat(task.spilledBytes()).isPositive());
      return rows;
    }
  }

  /**
   * Sort task 0 fails while it sends its merged runs (its spill files are open), after 3 batches;
   * Flink restarts its region (the task alone: its consumer has not started, its edge is blocking).
   */
  @Test
  void aSpillingTaskThatFailsOnceGivesTheSameAnswer() throws IOException {
    RecordingReporter.clear();
    try (QuiverSession session = session(restarts(2), FailOnceOperator.inStage(0, 0, 3))) {
      assertThat(runAndCheckSpilled(session)).containsExactlyElementsOf(expected);
    }
    // The sort tasks that finished and the attempt that failed all had spill files.
    assertThat(RecordingReporter.values("quiverSpillFiles").stream().filter(n -> n > 0)).hasSize(3);
    assertNoSpillFilesLeft();
  }

  /**
   * The result task fails after it has sent 8 batches (about 3 MB, more than the collect sink
   * buffers before the reader fetches, so the reader has already received results from the failed
   * attempt). The restarted task and sink send everything again; the reader hands out every row
   * once.
   */
  @Test
  void theResultTaskFailingAfterResultsReachedTheReaderGivesEveryRowOnce() throws IOException {
    try (QuiverSession session = session(restarts(2), FailOnceOperator.inStage(1, 0, 8))) {
      assertThat(runAndCheckSpilled(session)).containsExactlyElementsOf(expected);
    }
    assertNoSpillFilesLeft();
  }

  /**
   * A remote session learns the cluster's restart strategy (its own configuration names none), so
   * its reader hands out every row once when the cluster restarts the result task.
   */
  @Test
  void aRemoteSessionKnowsTheClustersRestartStrategy() throws Exception {
    try (QuiverSession server = session(restarts(2), StageOutputHook.NONE)) {
      URI rest = server.localCluster().orElseThrow().restAddress();
      Configuration flink = new Configuration();
      flink.set(CoreOptions.TMP_DIRS, tmp.toString());
      try (QuiverSession client =
          QuiverSession.builder()
              .parallelism(2)
              .taskMemoryBudget(256 << 10)
              .configuration(flink)
              .remote(rest.getHost(), rest.getPort())
              .stageOutputHook(FailOnceOperator.inStage(1, 0, 8))
              .build()) {
        client.registerTable("orders", orders.toString());
        assertThat(runAndCheckSpilled(client)).containsExactlyElementsOf(expected);
      }
    }
    assertNoSpillFilesLeft();
  }

  /** A failure that happens in every attempt ends in the task's own error once restarts run out. */
  @Test
  void aFailureThatOutlastsTheRestartsNamesItsStageAndTask() throws IOException {
    try (QuiverSession session = session(restarts(1), StageOutputHook.NONE)) {
      assertThatThrownBy(() -> session.sql("SELECT id / (quantity - quantity) FROM orders").rows())
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
                assertThat(e.getMessage()).contains("(stage 0, task ");
              });
    }
    assertNoSpillFilesLeft();
  }

  private void assertNoSpillFilesLeft() throws IOException {
    try (Stream<Path> left = Files.walk(tmp)) {
      assertThat(left.filter(Files::isRegularFile).filter(p -> p.toString().contains("spill")))
          .isEmpty();
    }
  }
}
