package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.testing.KafkaBroker;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver sql --savepoint-dir} over a Kafka topic, in a JVM of its own stopped the way a user
 * stops it (SIGTERM, as Ctrl-C's SIGINT): the job stops with a savepoint, every row it emitted
 * before is printed, and the command exits with status 0 naming the savepoint; {@code
 * --from-savepoint} then goes on where it stopped. The two outputs are every expected row once; for
 * an {@code INSERT} into an exactly-once Kafka topic, the topic's committed records are.
 *
 * <pre>
 *   clicks 0..39 ─► run 1 prints them ─► clicks 40..79 sent, SIGTERM at once (some of them are
 *   read before the savepoint, some after) ─► clicks 80..119 sent while stopped ─► run 2 from the
 *   savepoint ─► run 1 + run 2 = the checkout clicks of 0..119, each once
 * </pre>
 */
@Timeout(240)
class SavepointSqlCommandTest {
  @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

  private static final Pattern STOPPED =
      Pattern.compile(
          "quiver: stopped with a savepoint: (\\S+) \\(resume with --from-savepoint (\\S+)\\)");
  private static final String HEADER = "id,url";

  @TempDir Path dir;

  @Test
  void aStoppedQueryGoesOnFromItsSavepointWithoutLosingOrRepeatingARow() throws Exception {
    KAFKA.createTopic("clicks", 2);
    Path script = script("clicks");
    Path savepoints = dir.resolve("savepoints");
    send("clicks", 0, 40);

    Run first = start("first", "--savepoint-dir", savepoints.toString(), "-f", script.toString());
    List<String> before;
    try {
      first.await(expected(0, 40));
      send("clicks", 40, 80);
      before = first.stop(0);
    } finally {
      first.process.destroyForcibly();
    }
    List<String> notes = first.notes();
    assertThat(notes).hasSize(2);
    assertThat(notes.get(0)).startsWith("quiver: interrupted: stopping the query with a savepoint");
    Matcher stopped = STOPPED.matcher(notes.get(1));
    assertThat(stopped.matches()).as(notes.get(1)).isTrue();
    String savepoint = stopped.group(1);
    assertThat(stopped.group(2)).isEqualTo(savepoint);
    assertThat(Path.of(savepoint)).startsWith(savepoints);
    assertThat(Path.of(savepoint).resolve("_metadata")).isRegularFile();
    assertThat(before).containsAll(expected(0, 40)).doesNotHaveDuplicates();

    send("clicks", 80, 120);
    Run second =
        start(
            "second",
            "--from-savepoint",
            savepoint,
            "--savepoint-dir",
            savepoints.toString(),
            "-f",
            script.toString());
    List<String> after;
    try {
      List<String> rest = new ArrayList<>(expected(0, 120));
      rest.removeAll(before);
      second.await(rest);
      after = second.stop(0); // what it emitted until the stop: no row of run 1 again
    } finally {
      second.process.destroyForcibly();
    }
    List<String> both = new ArrayList<>(before);
    both.addAll(after);
    assertThat(both).containsExactlyInAnyOrderElementsOf(expected(0, 120));
  }

  /**
   * The same for a streaming INSERT into an exactly-once Kafka topic: run 1 is stopped with a
   * savepoint (its sink commits what it wrote before it), clicks arrive while it is stopped, run 2
   * goes on from the savepoint; the topic's committed records are the checkout clicks of 0..119,
   * each once.
   */
  @Test
  void aStoppedInsertGoesOnFromItsSavepointWritingEveryRowOnce() throws Exception {
    KAFKA.createTopic("visits", 1);
    KAFKA.createTopic("checkouts", 1);
    Path script = dir.resolve("insert.sql");
    Files.writeString(
        script,
        """
        CREATE TABLE clicks (id BIGINT NOT NULL, url STRING) WITH (
          'connector' = 'kafka', 'topic' = 'visits', 'format' = 'json',
          'properties.bootstrap.servers' = '%1$s'
        );
        CREATE TABLE checkouts (id BIGINT NOT NULL, url STRING) WITH (
          'connector' = 'kafka', 'topic' = 'checkouts', 'format' = 'json',
          'properties.bootstrap.servers' = '%1$s'
        );
        INSERT INTO checkouts SELECT id, url FROM clicks WHERE url LIKE '%%checkout%%';
        """
            .formatted(KAFKA.bootstrapServers()),
        UTF_8);
    Path savepoints = dir.resolve("savepoints");
    send("visits", 0, 40);
    Run first = start("first", "--savepoint-dir", savepoints.toString(), "-f", script.toString());
    try {
      awaitCommitted(first, expected(0, 40));
      send("visits", 40, 80);
      first.exit(0);
    } finally {
      first.process.destroyForcibly();
    }
    List<String> notes = first.notes();
    assertThat(notes).last().asString().startsWith("quiver: stopped with a savepoint: ");
    Matcher stopped = STOPPED.matcher(notes.get(notes.size() - 1));
    assertThat(stopped.matches()).as(notes.toString()).isTrue();
    assertThat(committed()).doesNotHaveDuplicates().containsAll(expected(0, 40));

    send("visits", 80, 120);
    Run second =
        start(
            "second",
            "--from-savepoint",
            stopped.group(1),
            "--savepoint-dir",
            savepoints.toString(),
            "-f",
            script.toString());
    try {
      awaitCommitted(second, expected(0, 120));
      second.exit(0);
    } finally {
      second.process.destroyForcibly();
    }
    assertThat(committed()).containsExactlyInAnyOrderElementsOf(expected(0, 120));
  }

  /** The committed records of topic {@code checkouts}, as {@code id,url}. */
  private static List<String> committed() {
    Pattern json =
        Pattern.compile("\\{\\s*\"id\"\\s*:\\s*(\\d+)\\s*,\\s*\"url\"\\s*:\\s*\"([^\"]*)\"\\s*}");
    List<String> rows = new ArrayList<>();
    for (String value : KAFKA.values("checkouts", true)) {
      Matcher m = json.matcher(value);
      assertThat(m.matches()).as(value).isTrue();
      rows.add(m.group(1) + "," + m.group(2));
    }
    return rows;
  }

  /** Waits until topic {@code checkouts} has committed {@code rows}, {@code run} still running. */
  private static void awaitCommitted(Run run, List<String> rows) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!new HashSet<>(committed()).containsAll(rows)) {
      assertThat(run.process.isAlive())
          .as("the CLI ended: %s", Files.readString(run.err, UTF_8))
          .isTrue();
      assertThat(System.nanoTime()).as("%s committed within 90 s", rows).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  @Test
  void aSavepointThatFailsCancelsTheQueryWithItsReason() throws Exception {
    KAFKA.createTopic("unsaved", 1);
    send("unsaved", 0, 10);
    Path notADirectory = Files.writeString(dir.resolve("file"), "", UTF_8);
    Run run =
        start(
            "unsaved",
            "--savepoint-dir",
            notADirectory.toString(),
            "-f",
            script("unsaved").toString());
    try {
      run.await(expected(0, 10));
      run.stop(128 + 15); // the JVM's status for SIGTERM: stopped, not ended
    } finally {
      run.process.destroyForcibly();
    }
    List<String> notes = run.notes();
    assertThat(notes).hasSize(4);
    assertThat(notes.get(1))
        .startsWith("quiver: [FILE_WRITE_FAILED] cannot stop job ")
        .contains(" with a savepoint in " + notADirectory.toUri() + ": ");
    assertThat(notes.subList(2, 4))
        .containsExactly("quiver: interrupted: cancelling the query", "quiver: query cancelled");
  }

  /** The script: a Kafka topic of clicks, and the query of the checkout ones. */
  private Path script(String topic) throws IOException {
    Path file = dir.resolve(topic + ".sql");
    Files.writeString(
        file,
        """
        CREATE TABLE clicks (id BIGINT NOT NULL, url STRING) WITH (
          'connector' = 'kafka', 'topic' = '%s', 'format' = 'json',
          'properties.bootstrap.servers' = '%s'
        );
        SELECT id, url FROM clicks WHERE url LIKE '%%checkout%%';
        """
            .formatted(topic, KAFKA.bootstrapServers()),
        UTF_8);
    return file;
  }

  /** Clicks [from, to), spread over the topic's partitions: every other one is a checkout. */
  private static void send(String topic, long from, long to) throws Exception {
    int partitions = topic.equals("clicks") ? 2 : 1;
    for (int partition = 0; partition < partitions; partition++) {
      List<String> values = new ArrayList<>();
      for (long id = from + partition; id < to; id += partitions) {
        values.add("{\"id\": %d, \"url\": \"%s\"}".formatted(id, url(id)));
      }
      KAFKA.send(topic, partition, values);
    }
  }

  private static String url(long id) {
    return (id % 2 == 0 ? "/checkout/" : "/item/") + id;
  }

  /** The CSV lines of the checkout clicks among [from, to). */
  private static List<String> expected(long from, long to) {
    return LongStream.range(from, to)
        .filter(id -> id % 2 == 0)
        .mapToObj(id -> id + "," + url(id))
        .toList();
  }

  private Run start(String name, String... options) throws IOException {
    List<String> args = new ArrayList<>(List.of("sql", "--parallelism", "1"));
    // Rows arrive as checkpoints complete: every 200 ms, not every second.
    args.addAll(List.of("--conf", "execution.checkpointing.interval=200ms"));
    args.addAll(List.of(options));
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    List<String> command = new ArrayList<>(QuiverJvm.command(args.toArray(String[]::new)));
    // The log settings of quiver.jar, not the test class path's: stdout holds the rows alone.
    URL logging = SavepointSqlCommandTest.class.getResource("/log4j2.properties");
    command.add(1, "-Dlog4j2.configurationFile=" + logging);
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    return new Run(process, out, err);
  }

  /** A {@code quiver sql} running in a JVM of its own, its stdout and stderr in files. */
  private record Run(Process process, Path out, Path err) {
    /** Waits until the CLI, still running, has printed at least {@code rows}. */
    void await(List<String> rows) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (!new HashSet<>(rows()).containsAll(rows)) {
        assertThat(process.isAlive())
            .as("the CLI ended: %s%s", Files.readString(out, UTF_8), Files.readString(err, UTF_8))
            .isTrue();
        assertThat(System.nanoTime())
            .as("%s within 90 s, got %s", rows, rows())
            .isLessThan(deadline);
        Thread.sleep(100);
      }
    }

    /** SIGTERM, as Ctrl-C's SIGINT; the exit status is {@code status}; the rows printed. */
    List<String> stop(int status) throws Exception {
      exit(status);
      return rows();
    }

    /** SIGTERM, as Ctrl-C's SIGINT; the exit status is {@code status}. */
    void exit(int status) throws Exception {
      process.destroy();
      assertThat(process.waitFor(CancelOnExit.WAIT.toSeconds() + 30, TimeUnit.SECONDS))
          .as("the CLI exited")
          .isTrue();
      assertThat(process.exitValue()).as(Files.readString(err, UTF_8)).isEqualTo(status);
    }

    /** The result rows printed so far: stdout without its CSV header. */
    List<String> rows() throws IOException {
      List<String> lines = Files.readAllLines(out, UTF_8);
      if (!lines.isEmpty()) {
        assertThat(lines.get(0)).isEqualTo(HEADER);
      }
      return lines.stream().skip(1).toList();
    }

    /** What the CLI said on stderr (its lines starting with "quiver:"). */
    List<String> notes() throws IOException {
      return Files.readAllLines(err, UTF_8).stream().filter(l -> l.startsWith("quiver:")).toList();
    }
  }
}
