package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code --savepoint-dir} and {@code --from-savepoint} refuse, in this JVM: a script that is
 * not one query (a usage error naming the option, before any session starts), a batch query or a
 * savepoint that does not exist (the session's one line, status 1); and what a signal does when
 * there is nothing to stop with a savepoint (it exits as the JVM would). {@code
 * SavepointSqlCommandTest} stops and resumes a real stream.
 */
@Timeout(120)
class SavepointOptionsTest {
  @TempDir Path dir;

  private Path script(String text) throws IOException {
    Path file = Files.createTempFile(dir, "script", ".sql");
    Files.writeString(file, text, UTF_8);
    return file;
  }

  private String stream(Path directory) {
    return """
        CREATE TABLE orders (`id` INT NOT NULL, customer STRING) WITH (
          'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.header' = 'true',
          'source.monitor-interval' = '200 ms'
        );
        """
        .formatted(directory);
  }

  @Test
  void fromSavepointStartsExactlyOneQuery() throws Exception {
    Path orders = Files.createDirectories(dir.resolve("orders"));
    Cli.Run two =
        Cli.run(
            "sql",
            "--from-savepoint",
            "sp",
            "-f",
            script(stream(orders) + "SELECT id FROM orders; SELECT customer FROM orders;")
                .toString());
    assertThat(two.status()).isEqualTo(Errors.USAGE);
    assertThat(two.err())
        .isEqualTo(
            "quiver: --from-savepoint starts one streaming query, and the input has 2 statements"
                + " besides CREATE / DROP TABLE (see 'quiver sql --help')\n");

    Cli.Run none =
        Cli.run("sql", "--from-savepoint", "sp", "-f", script(stream(orders)).toString());
    assertThat(none.status()).isEqualTo(Errors.USAGE);
    assertThat(none.err()).contains("the input has 0 statements besides CREATE / DROP TABLE");
  }

  @Test
  void savepointsAreForOneQueryNotOutputDir() throws Exception {
    Path query = script("SELECT 1");
    for (String option : List.of("--savepoint-dir", "--from-savepoint")) {
      Cli.Run run =
          Cli.run(
              "sql", option, "sp", "--output-dir", dir.resolve("out").toString(), "-f", "" + query);
      assertThat(run.status()).isEqualTo(Errors.USAGE);
      assertThat(run.err())
          .startsWith(
              "quiver: "
                  + option
                  + " is for one streaming query, and --output-dir runs several files");
    }
  }

  @Test
  void theSessionRefusesABatchQueryOrAMissingSavepointWithOneLine() throws Exception {
    Path csv = dir.resolve("t.csv");
    Files.writeString(csv, "x\n1\n", UTF_8);
    Cli.Run batch =
        Cli.run(
            "sql",
            "--parallelism",
            "1",
            "--from-savepoint",
            dir.resolve("sp").toString(),
            "-t",
            "t=" + csv,
            "SELECT x FROM t");
    assertThat(batch.status()).isEqualTo(Errors.FAILURE);
    assertThat(batch.err())
        .startsWith("quiver: [INVALID_QUERY] only a streaming query restores a savepoint")
        .hasLineCount(1);

    Path orders = Files.createDirectories(dir.resolve("orders"));
    Cli.Run missing =
        Cli.run(
            "sql",
            "--parallelism",
            "1",
            "--from-savepoint",
            dir.resolve("no-such-savepoint").toString(),
            "-f",
            script(stream(orders) + "SELECT id FROM orders").toString());
    assertThat(missing.status()).isEqualTo(Errors.FAILURE);
    assertThat(missing.err())
        .contains(
            "no-such-savepoint does not exist: give the path that stopping the query with a"
                + " savepoint returned")
        .hasLineCount(1);
  }

  @Test
  void aSignalWithNoQueryToStopExitsAsTheJvmWould() {
    StringWriter err = new StringWriter();
    List<Integer> exits = new ArrayList<>();
    SavepointOnStop stop = new SavepointOnStop("sp", new PrintWriter(err, true), exits::add);
    stop.stop(130);
    assertThat(exits).containsExactly(130);
    assertThat(stop.stopped()).isFalse();
    assertThat(stop.savepoint()).isEmpty();
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void helpSaysWhatTheOptionsDo() {
    Cli.Run help = Cli.run("sql", "--help");
    assertThat(help.status()).isZero();
    assertThat(help.out())
        .contains("--savepoint-dir=DIR")
        .contains("--from-savepoint=PATH")
        .contains("A batch query or INSERT is cancelled")
        .contains("quiver sql --from-savepoint PATH -f clicks.sql");
  }
}
