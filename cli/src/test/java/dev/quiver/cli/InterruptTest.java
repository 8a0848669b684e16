package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C during {@code quiver sql}: the command line runs in its own JVM on a local MiniCluster; a
 * sort over a cross join spills (a 1 MB budget) under the JVM's temp directory (Flink's default
 * {@code io.tmp.dirs}); once spill files exist, the process gets SIGTERM (which, like SIGINT, runs
 * the JVM's shutdown hooks). It cancels the query, exits, and leaves no spill file behind.
 */
class InterruptTest {
  private static final String QUERY =
      "SELECT a.x * 100000 + b.x AS v FROM t a, t b ORDER BY v DESC";

  @TempDir Path data;
  @TempDir Path tmp;

  @Test
  void aSignalCancelsTheRunningQueryAndDeletesItsSpillFiles() throws Exception {
    Path csv = data.resolve("t.csv");
    Files.writeString(
        csv,
        IntStream.range(0, 3000)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining("\n", "x\n", "\n")),
        UTF_8);
    Path err = data.resolve("err.txt");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Xmx1g");
    command.add("-Djava.io.tmpdir=" + tmp);
    command.add("-cp");
    command.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.add("dev.quiver.cli.Quiver");
    command.addAll(
        List.of(
            "sql",
            "--parallelism",
            "2",
            "--memory-budget",
            "1m",
            "--table",
            "t=" + csv,
            "--format",
            "csv",
            "-o",
            data.resolve("out.csv").toString(),
            QUERY));
    Process cli =
        new ProcessBuilder(command)
            .redirectOutput(data.resolve("out.txt").toFile())
            .redirectError(err.toFile())
            .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (spillFiles() == 0) {
        assertThat(cli.isAlive())
            .as("the query ended before it spilled: %s", Files.readString(err, UTF_8))
            .isTrue();
        assertThat(System.nanoTime()).as("no spill file within 90 s").isLessThan(deadline);
        Thread.sleep(50);
      }

      long start = System.nanoTime();
      cli.destroy(); // SIGTERM
      boolean exited = cli.waitFor(30, TimeUnit.SECONDS);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(exited).as("the CLI exited").isTrue();
      assertThat(millis).isLessThan(CancelOnExit.WAIT.toMillis() + 5_000);
      // What the CLI says: the cancellation, and no error of the query it cancelled.
      assertThat(Files.readAllLines(err, UTF_8).stream().filter(l -> l.startsWith("quiver:")))
          .containsExactly("quiver: interrupted: cancelling the query", "quiver: query cancelled");
      assertThat(spillFiles()).isZero();
      assertThat(data.resolve("out.csv")).doesNotExist(); // replaced only when complete
    } finally {
      cli.destroyForcibly();
    }
  }

  /** The spill files under the CLI's temp directory now (they come and go: retry a walk). */
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
