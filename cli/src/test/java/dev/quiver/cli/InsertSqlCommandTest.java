package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver sql -f pipeline.sql} with an {@code INSERT INTO}: over bounded tables it runs to
 * its end, prints the rows written, and the statements after it see them; over a stream it writes
 * rows as they come, committed with each checkpoint, until SIGTERM (Ctrl-C) cancels it.
 */
@Timeout(180)
class InsertSqlCommandTest {
  @TempDir Path dir;

  private static String tables(Path orders, String more, Path out) {
    return """
        CREATE TABLE orders (
          `id` INT NOT NULL, customer STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3),
          WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
        ) WITH (
          'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s
        );
        CREATE TABLE paid (id BIGINT NOT NULL, customer STRING)
          WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'parquet');
        """
        .formatted(orders, more, out);
  }

  private static void drop(Path directory, String name, String rows) throws IOException {
    Path staged = directory.resolve("." + name);
    Files.writeString(staged, "id,customer,amount,ts\n" + rows, UTF_8);
    Files.move(staged, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
  }

  private Path script(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text, UTF_8);
    return file;
  }

  @Test
  void aBoundedInsertRunsToItsEndThenTheNextStatements() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("orders"));
    drop(orders, "a.csv", "1,ann,1.50,2026-01-01 00:00:01\n2,bob,0.00,2026-01-01 00:00:02\n");
    Path paid = dir.resolve("paid");
    Cli.Run run =
        Cli.run(
            "sql",
            "--parallelism",
            "1",
            "--format",
            "csv",
            "-f",
            script(
                    "pipeline.sql",
                    tables(orders, "", paid)
                        + "INSERT INTO paid SELECT id, customer FROM orders WHERE amount > 0;\n"
                        + "DROP TABLE paid;\n"
                        + tables(orders, "", paid).replaceAll("(?s)CREATE TABLE orders.*?;", "")
                        + "SELECT * FROM paid;\n")
                .toString());
    assertThat(run.err()).isEmpty();
    assertThat(run.status()).isZero();
    assertThat(run.out()).isEqualTo("rows_written\n1\nid,customer\n1,ann\n");
  }

  @Test
  void aStreamingInsertWritesUntilCancelled() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("watched"));
    drop(orders, "a.csv", "1,ann,1.50,2026-01-01 00:00:01\n");
    Path paid = dir.resolve("paid");
    Path script =
        script(
            "pipeline.sql",
            tables(orders, ", 'source.monitor-interval' = '200 ms'", paid)
                + "INSERT INTO paid SELECT id, customer FROM orders WHERE amount > 0;\n");
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    Process cli =
        new ProcessBuilder(QuiverJvm.command("sql", "--parallelism", "1", "-f", script.toString()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      awaitRows(cli, paid, List.of("id,customer", "1,ann"));
      drop(orders, "b.csv", "2,bob,2.00,2026-01-01 00:00:05\n3,cy,0.00,2026-01-01 00:00:06\n");
      awaitRows(cli, paid, List.of("id,customer", "1,ann", "2,bob"));

      cli.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the shutdown hook cancels the job
      assertThat(cli.waitFor(CancelOnExit.WAIT.toSeconds() + 15, TimeUnit.SECONDS))
          .as("the CLI exited")
          .isTrue();
      List<String> notes =
          Files.readAllLines(err, UTF_8).stream().filter(l -> l.startsWith("quiver:")).toList();
      assertThat(notes).hasSize(3);
      assertThat(notes.get(0))
          .matches("quiver: INSERT INTO paid runs as job \\w+ until Ctrl-C stops it");
      assertThat(notes.subList(1, 3))
          .containsExactly("quiver: interrupted: cancelling the query", "quiver: query cancelled");
      assertThat(read(paid)).containsExactly("id,customer", "1,ann", "2,bob");
      try (Stream<Path> files = Files.list(paid)) {
        assertThat(files.map(f -> f.getFileName().toString()).filter(f -> !f.startsWith(".")))
            .allMatch(f -> f.startsWith("part-") && f.endsWith(".parquet"));
      }
    } finally {
      cli.destroyForcibly();
    }
  }

  /** The committed rows of {@code paid}, read by another {@code quiver sql}, as CSV lines. */
  private static List<String> read(Path paid) throws IOException {
    boolean any;
    try (Stream<Path> files = Files.list(paid)) {
      any = files.anyMatch(f -> f.getFileName().toString().endsWith(".parquet"));
    } catch (java.nio.file.NoSuchFileException e) {
      any = false;
    }
    if (!any) {
      return List.of();
    }
    Cli.Run run =
        Cli.run(
            "sql",
            "--parallelism",
            "1",
            "--format",
            "csv",
            "-t",
            "paid=" + paid,
            "SELECT id, customer FROM paid ORDER BY id");
    assertThat(run.status()).as(run.err()).isZero();
    return run.out().lines().toList();
  }

  /** Waits until the committed files of {@code paid} hold {@code lines} (the CLI still runs). */
  private static void awaitRows(Process cli, Path paid, List<String> lines) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    List<String> read;
    while (!(read = read(paid)).equals(lines)) {
      assertThat(cli.isAlive()).as("the CLI ended").isTrue();
      assertThat(System.nanoTime()).as("%s within 90 s, got %s", lines, read).isLessThan(deadline);
      Thread.sleep(300);
    }
  }
}
