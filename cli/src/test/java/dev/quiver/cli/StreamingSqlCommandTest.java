package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver sql} with {@code CREATE TABLE} statements before its query: a table over a
 * directory without a monitor interval is bounded and printed as a table; with {@code
 * 'source.monitor-interval'} it is a stream whose query prints the rows of every file dropped into
 * the directory as they arrive (CSV, flushed per batch), until SIGTERM (Ctrl-C) cancels it.
 */
@Timeout(180)
class StreamingSqlCommandTest {
  private static final Pattern LOG_LINE =
      Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} +(TRACE|DEBUG|INFO|WARN|ERROR) ");

  @TempDir Path dir;

  private String create(Path directory, String more) {
    return """
        -- the orders, as Flink SQL declares them
        CREATE TABLE orders (
          `id` INT NOT NULL,
          customer STRING,
          amount DECIMAL(10, 2),
          ts TIMESTAMP(3),
          WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
        ) WITH (
          'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.header' = 'true'%s
        );
        """
        .formatted(directory, more);
  }

  private static void drop(Path directory, String name, String rows) throws IOException {
    // A file appears whole: written under a hidden name, then renamed.
    Path staged = directory.resolve("." + name);
    Files.writeString(staged, "id,customer,amount,ts\n" + rows, UTF_8);
    Files.move(staged, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
  }

  private Path script(String text) throws IOException {
    Path file = Files.createTempFile(dir, "script", ".sql");
    Files.writeString(file, text, UTF_8);
    return file;
  }

  @Test
  void createTableThenQueryABoundedDirectory() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("orders"));
    drop(orders, "a.csv", "1,ann,1.50,2026-01-01 00:00:01\n2,bob,0.00,2026-01-01 00:00:02\n");
    Cli.Run run =
        Cli.run(
            "sql",
            "--parallelism",
            "1",
            "-f",
            script(create(orders, "") + "SELECT id, customer FROM orders WHERE amount > 0;")
                .toString());
    assertThat(run.err()).isEmpty();
    assertThat(run.status()).isZero();
    assertThat(run.out()).contains("ann").doesNotContain("bob");

    Cli.Run dropped =
        Cli.run(
            "sql",
            "--parallelism",
            "1",
            "-f",
            script(create(orders, "") + "DROP TABLE orders; SELECT id FROM orders").toString());
    assertThat(dropped.status()).isNotZero();
    assertThat(dropped.err()).contains("orders");
  }

  @Test
  void aStreamIsNotPrintedAsATable() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("watched"));
    Cli.Run run =
        Cli.run(
            "sql",
            "--parallelism",
            "1",
            "--format",
            "table",
            "-f",
            script(
                    create(orders, ", 'source.monitor-interval' = '200 ms'")
                        + "SELECT id FROM orders")
                .toString());
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains(
            "--format table prints a result once it is complete, and a stream's never is: use"
                + " --format csv or json");
  }

  @Test
  void aQueryOverAWatchedDirectoryPrintsNewFilesRowsUntilCancelled() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("watched"));
    drop(orders, "a.csv", "1,ann,1.50,2026-01-01 00:00:01\n");
    Path script = dir.resolve("orders.sql");
    Files.writeString(
        script,
        create(orders, ", 'source.monitor-interval' = '200 ms'")
            + "SELECT id, customer FROM orders WHERE amount > 0;\n",
        UTF_8);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process cli =
        new ProcessBuilder(QuiverJvm.command("sql", "--parallelism", "1", "-f", script.toString()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      awaitLines(cli, out, err, List.of("id,customer", "1,ann"));
      drop(orders, "b.csv", "2,bob,2.00,2026-01-01 00:00:05\n3,cy,0.00,2026-01-01 00:00:06\n");
      awaitLines(cli, out, err, List.of("id,customer", "1,ann", "2,bob"));

      cli.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the shutdown hook cancels the job
      assertThat(cli.waitFor(CancelOnExit.WAIT.toSeconds() + 15, TimeUnit.SECONDS))
          .as("the CLI exited")
          .isTrue();
      assertThat(Files.readAllLines(err, UTF_8).stream().filter(l -> l.startsWith("quiver:")))
          .containsExactly("quiver: interrupted: cancelling the query", "quiver: query cancelled");
      assertThat(printed(out)).containsExactly("id,customer", "1,ann", "2,bob");
    } finally {
      cli.destroyForcibly();
    }
  }

  /**
   * A GROUP BY over the stream without a window prints a changelog, as Flink's SQL client does:
   * {@code op} first, {@code +I} for a new group, {@code -U} / {@code +U} when a group changes.
   */
  @Test
  void aGroupByOverAStreamPrintsItsChangelog() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("grouped"));
    drop(orders, "a.csv", "1,ann,1.50,2026-01-01 00:00:01\n");
    Path script = dir.resolve("totals.sql");
    Files.writeString(
        script,
        create(orders, ", 'source.monitor-interval' = '200 ms'")
            + "SELECT customer, count(*) AS n, sum(amount) AS total FROM orders"
            + " GROUP BY customer;\n",
        UTF_8);
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process cli =
        new ProcessBuilder(QuiverJvm.command("sql", "--parallelism", "1", "-f", script.toString()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      List<String> lines = new ArrayList<>(List.of("op,customer,n,total", "+I,ann,1,1.50"));
      awaitLines(cli, out, err, lines);
      drop(orders, "b.csv", "2,ann,2.00,2026-01-01 00:00:05\n");
      lines.addAll(List.of("-U,ann,1,1.50", "+U,ann,2,3.50"));
      awaitLines(cli, out, err, lines);
      drop(orders, "c.csv", "3,bob,0.25,2026-01-01 00:00:06\n");
      lines.add("+I,bob,1,0.25");
      awaitLines(cli, out, err, lines);
    } finally {
      cli.destroyForcibly();
    }
  }

  /** The lines the CLI printed, without the log lines the test class path sends to stdout. */
  private static List<String> printed(Path out) throws IOException {
    return Files.readAllLines(out, UTF_8).stream()
        .filter(l -> !LOG_LINE.matcher(l).find())
        .toList();
  }

  /** Waits until the CLI has printed {@code lines} (and is still running): rows as they arrive. */
  private static void awaitLines(Process cli, Path out, Path err, List<String> lines)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!printed(out).equals(lines)) {
      assertThat(cli.isAlive())
          .as("the CLI ended: %s%s", Files.readString(out, UTF_8), Files.readString(err, UTF_8))
          .isTrue();
      assertThat(System.nanoTime())
          .as("%s within 90 s, got %s", lines, printed(out))
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
