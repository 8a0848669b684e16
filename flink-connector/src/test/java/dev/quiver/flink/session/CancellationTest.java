package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.SlowOperator;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a result while its job runs cancels the job within seconds, and the cancelled tasks free
 * their Arrow memory (the leak check) and delete their spill files. The sort below spills (a 256 KB
 * budget) and then sends its merged runs slowly, so it is cancelled while its spill files are open.
 */
@ExtendWith(ArrowLeakCheck.class)
class CancellationTest {

  @TempDir static Path dir;
  @TempDir Path tmp;
  private static Path orders;

  @BeforeAll
  static void writeOrders() throws Exception {
    orders = OrdersFiles.writeSpillingOrders(dir);
  }

  @Test
  void closingARunningQueryCancelsItsJobAndFreesMemoryAndSpillFiles() throws Exception {
    Configuration flink = new Configuration();
    flink.set(CoreOptions.TMP_DIRS, tmp.toString());
    try (QuiverSession session =
        QuiverSession.builder()
            .parallelism(2)
            .taskMemoryBudget(256 << 10)
            .configuration(flink)
            .stageOutputHook(SlowOperator.inStage(0, 200))
            .build()) {
      session.registerTable("orders", orders.toString());
      MiniCluster cluster = session.localCluster().orElseThrow().miniCluster();
      SqlResult result = session.sql(OrdersFiles.SORT_ALL);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (spillFiles() == 0) {
        assertThat(System.nanoTime()).as("the sort spilled within 60 s").isLessThan(deadline);
        Thread.sleep(20);
      }
      assertThat(cluster.getJobStatus(result.jobId()).get()).isEqualTo(JobStatus.RUNNING);

      long start = System.nanoTime();
      result.close();
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(cluster.getJobStatus(result.jobId()).get()).isEqualTo(JobStatus.CANCELED);
      assertThat(millis).as("cancelling took %d ms", millis).isLessThan(10_000);
      assertThat(spillFiles()).isZero();
      assertThat(result.hasNext()).isFalse();
    }
  }

  /**
   * A three-way cross join counts 8 * 10^12 pairs: its task's thread spends its time inside one
   * nested loop join call per probe batch. Cancelled once that stage runs (its broadcast inputs are
   * finished, its scan chained into it, so it is joining), the job ends within seconds and the
   * session runs the next query; the join asks whether its thread was interrupted (before, it ran
   * until Flink's 180 s cancellation timeout failed the TaskManager, and the next query failed).
   */
  @Test
  void aJoinBusyInsideOneBatchIsCancelledWithinSeconds() throws Exception {
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("orders", orders.toString());
      MiniCluster cluster = session.localCluster().orElseThrow().miniCluster();
      SqlResult result =
          session.sql(
              "SELECT count(*) FROM (SELECT id FROM orders LIMIT 20000) a,"
                  + " (SELECT id FROM orders LIMIT 20000) b,"
                  + " (SELECT id FROM orders LIMIT 20000) c");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!joinRuns(cluster, result)) {
        assertThat(System.nanoTime()).as("the join ran within 60 s").isLessThan(deadline);
        Thread.sleep(20);
      }
      Thread.sleep(500); // into its first probe batch (the inputs are ready: milliseconds)

      long start = System.nanoTime();
      result.close();
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(cluster.getJobStatus(result.jobId()).get()).isEqualTo(JobStatus.CANCELED);
      assertThat(millis).as("cancelling took %d ms", millis).isLessThan(15_000);
      assertThat(session.sql("SELECT count(*) FROM orders").rows()).hasSize(1);
    }
  }

  /** Whether every stage of the job but the last (the joins') has finished and that one runs. */
  private static boolean joinRuns(MiniCluster cluster, SqlResult result) throws Exception {
    int finished = 0;
    int running = 0;
    int total = 0;
    for (var vertex :
        cluster.getArchivedExecutionGraph(result.jobId()).get().getVerticesTopologically()) {
      total++;
      switch (vertex.getAggregateState()) {
        case FINISHED -> finished++;
        case RUNNING -> running++;
        default -> {}
      }
    }
    return running == 1 && finished == total - 1;
  }

  /** The spill files under io.tmp.dirs now (tasks create and delete them meanwhile: retry). */
  private long spillFiles() throws IOException {
    while (true) {
      try (Stream<Path> files = Files.walk(tmp)) {
        return files
            .filter(Files::isRegularFile)
            .filter(p -> p.toString().contains("quiver-spill"))
            .count();
      } catch (UncheckedIOException | NoSuchFileException e) {
        // a file or directory vanished while walking
      }
    }
  }
}
