package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Stages done / total of a query's job, for the progress line, from the REST endpoint. */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JobStagesTest {
  @TempDir Path dir;

  @Test
  void countsTheStagesOfFinishedVertices() throws Exception {
    String json =
        "{\"state\":\"RUNNING\",\"vertices\":["
            + "{\"name\":\"Source: scan /t.csv -> stage 0: Aggregate[PARTIAL]\",\"status\":\"FINISHED\"},"
            + "{\"name\":\"stage 1: Aggregate[FINAL] -> stage 2: Project[StageInput[stage=1]]\","
            + "\"status\":\"FINISHED\"},"
            + "{\"name\":\"stage 3: NestedLoopJoin -> encode result -> Sink: result sink\","
            + "\"status\":\"RUNNING\"}]}";
    assertThat(JobStages.count(json, 4)).isEqualTo(3);
    assertThat(JobStages.count(json.replace("FINISHED", "RUNNING"), 4)).isZero();
    assertThat(JobStages.count("{\"state\":\"FINISHED\",\"vertices\":[]}", 4)).isEqualTo(4);
  }

  @Test
  void theProgressLineShowsStages() {
    Progress progress = new Progress(new PrintWriter(new StringWriter()), true, "query", true, 0);
    // Nothing listens there: the count stays at 0, and the query is not disturbed.
    progress.watch(new JobStages(URI.create("http://127.0.0.1:1"), "00", 3));
    assertThat(progress.text()).matches("query  \\d+\\.\\d s  stages 0/3  0 rows");
  }

  @Test
  void stagesAreDoneWhileTheResultWaitsForItsReaderAndAllOnceItIsRead() throws Exception {
    Path table = dir.resolve("t.csv");
    Files.writeString(
        table,
        IntStream.range(0, 3000)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining("\n", "x\n", "\n")),
        UTF_8);
    try (QuiverSession session = QuiverSession.builder().parallelism(2).build()) {
      session.registerTable("t", table.toString());
      // Stages 0 and 1 aggregate (a blocking exchange after each), stage 2 joins them with t into
      // 3 M rows, far more than the result sink holds: the job cannot end while nobody reads.
      try (SqlResult result =
          session.sql(
              "select g.x, t.x from (select x % 1000 as x from t group by x % 1000) g, t")) {
        assertThat(result.graph().stages()).hasSize(3);
        JobStages stages = stages(session, result);
        // Stage 2 itself may finish too: its vertex writes to a blocking partition that the sink's
        // vertex reads (a multiple-input operator's sink is not chained).
        int done = await(stages::done, 2);
        assertThat(done).isLessThanOrEqualTo(3);
        assertThat(session.unfinishedJobs().orElseThrow()).isEqualTo(1);
      }
      SqlResult result = session.sql("select x % 7, count(*) from t group by x % 7");
      JobStages stages = stages(session, result);
      assertThat(result.rows()).hasSize(7); // read to the end and closed: the job has ended
      assertThat(await(stages::done, stages.total())).isEqualTo(stages.total());
    }
  }

  private static JobStages stages(QuiverSession session, SqlResult result) {
    return new JobStages(
        session.restAddress(), result.jobId().toHexString(), result.graph().stages().size());
  }

  /** Polls until at least {@code expected} stages are done; returns how many. */
  private static int await(IntSupplier done, int expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    int now;
    while ((now = done.getAsInt()) < expected) {
      assertThat(System.nanoTime())
          .as("%d stages done after 60 s, not %d", now, expected)
          .isLessThan(deadline);
      Thread.sleep(100);
    }
    return now;
  }
}
