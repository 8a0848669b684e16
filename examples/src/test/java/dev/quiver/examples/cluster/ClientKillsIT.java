package dev.quiver.examples.cluster;

import static dev.quiver.examples.cluster.TpchCluster.JOB_RUN;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quiver.cli.QuiverJvm;
import dev.quiver.testing.FaultMatrix;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client that disappears while it streams a large result: {@code quiver sql --cluster} in a JVM
 * of its own, stopped after it has written the first 64 KB of rows to its standard output (which
 * the test then stops reading, so the command, and through the collect sink's bounded buffer the
 * job, wait for it). The job must not stay RUNNING: SIGTERM runs the command's shutdown hook, which
 * cancels it; SIGKILL runs nothing, and the cluster cancels it when the session's heartbeats stop
 * ({@code client.heartbeat.timeout}, 5 s here).
 *
 * <p>The command runs without restarts ({@code restart-strategy.type: none}), so that its reader
 * hands out batches as they come: with restarts, the reader keeps each result task's output until
 * that task has ended ({@code ResultCommits}), and the job may have finished by the time the first
 * rows are written; here it provably has not, its collect sink waiting for the reader.
 */
@ExtendWith({TpchCluster.Shared.class, FaultMatrix.class})
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClientKillsIT {
  /** 240,700 rows of 16 columns (~30 MB as CSV): more than Flink and the pipes buffer. */
  private static final String LARGE =
      "select * from lineitem union all select * from lineitem union all select * from lineitem"
          + " union all select * from lineitem";

  private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(5);
  private static final int STREAMED = 64 << 10;

  private static TpchCluster tpch;

  @BeforeAll
  static void start(TpchCluster shared) throws Exception {
    tpch = shared;
    tpch.restore();
  }

  @ParameterizedTest
  @ValueSource(strings = {"SIGKILL", "SIGTERM"})
  void aCommandLineKilledMidResultLeavesNoJobRunning(String signal) throws Exception {
    FaultMatrix.fault(
        "client gone mid-result",
        "`quiver sql --cluster` (its own JVM) killed with "
            + signal
            + " after 64 KB of a 240,700-row result");
    FlinkRest rest = tpch.cluster.rest();
    List<String> args = new ArrayList<>(List.of("sql"));
    args.addAll(tpch.clusterOptions());
    args.addAll(
        List.of(
            "--conf",
            "client.heartbeat.timeout=" + HEARTBEAT_TIMEOUT.toSeconds() + "s",
            "--conf",
            "client.heartbeat.interval=1s",
            "--conf",
            "restart-strategy.type=none",
            "--format",
            "csv",
            LARGE));
    Path err = tpch.dir.resolve("client-" + signal.toLowerCase(Locale.ROOT) + ".err");
    Process cli =
        new ProcessBuilder(QuiverJvm.command(args.toArray(String[]::new)))
            .redirectError(err.toFile())
            .start();
    try {
      // The command streams: the first rows have arrived. The test reads no more from here on.
      InputStream out = cli.getInputStream();
      byte[] buffer = new byte[8192];
      long read = 0;
      while (read < STREAMED) {
        int n = out.read(buffer);
        assertThat(n).as("the output ended early: %s", Files.readString(err)).isPositive();
        read += n;
      }
      String job = onlyRunningJob(rest);
      if (signal.equals("SIGKILL")) {
        cli.destroyForcibly();
      } else {
        cli.destroy();
      }
      assertThat(cli.waitFor(30, TimeUnit.SECONDS)).as("the command exited").isTrue();
      long start = System.nanoTime();
      JsonNode ended = rest.awaitJob(job, JOB_RUN);
      double seconds = (System.nanoTime() - start) / 1e9;
      assertThat(ended.path("state").asText()).isEqualTo("CANCELED");
      if (signal.equals("SIGTERM")) {
        assertThat(Files.readString(err)).contains("quiver: query cancelled");
      }
      FaultMatrix.canceled(
          String.format(
              Locale.ROOT,
              "the job CANCELED %.1f s after the command exited (%s)",
              seconds,
              signal.equals("SIGKILL")
                  ? "by the cluster: client.heartbeat.timeout "
                      + HEARTBEAT_TIMEOUT.toSeconds()
                      + " s"
                  : "by its shutdown hook"));
    } finally {
      cli.destroyForcibly();
    }
  }

  /** The one job the cluster runs now (the command's). */
  private static String onlyRunningJob(FlinkRest rest) throws Exception {
    long deadline = System.nanoTime() + JOB_RUN.toNanos();
    while (true) {
      List<String> running = new ArrayList<>(rest.runningJobs());
      if (running.size() == 1) {
        return running.get(0);
      }
      assertThat(System.nanoTime()).as("one running job: %s", running).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
