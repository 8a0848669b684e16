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
