package dev.quiver.cli.serve;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.QuiverJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver serve} as a user runs it, in its own JVM: it prints where it listens, a JDBC client
 * runs a query, and SIGTERM while a query streams cancels it and stops the server.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServeCommandTest {
  private static final Pattern LISTENING =
      Pattern.compile(
          "Quiver Flight SQL server listening on grpc\\+tcp://127\\.0\\.0\\.1:(\\d+) .*");

  @TempDir Path data;

  @Test
  void servesJdbcAndStopsOnSigterm() throws Exception {
    Path csv = data.resolve("t.csv");
    Files.writeString(
        csv,
        IntStream.range(0, 3000)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining("\n", "x\n", "\n")),
        UTF_8);
    Path err = data.resolve("err.txt");
    List<String> command =
        QuiverJvm.command(
            "serve", "--parallelism", "1", "--table", "t=" + csv, "--port", "0", "--no-auth");
    Process serve = new ProcessBuilder(command).redirectError(err.toFile()).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(serve.getInputStream(), UTF_8))) {
      // The test class path's log configuration logs to stdout too: skip its lines.
      String line = out.readLine();
      while (line != null && !LISTENING.matcher(line).matches()) {
        line = out.readLine();
      }
      assertThat(line).as("stderr: %s", Files.readString(err, UTF_8)).isNotNull();
      Matcher listening = LISTENING.matcher(line);
      assertThat(listening.matches()).as(line).isTrue();
      assertThat(line).contains("jdbc:arrow-flight-sql://127.0.0.1:").contains("1 tables");
      String url =
          "jdbc:arrow-flight-sql://127.0.0.1:" + listening.group(1) + "/?useEncryption=false";
      try (Connection connection = DriverManager.getConnection(url);
          Statement statement = connection.createStatement()) {
        try (ResultSet rs = statement.executeQuery("select count(*), sum(x) from t")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(3000);
          assertThat(rs.getLong(2)).isEqualTo(2999L * 3000 / 2);
        }
        // 9 M rows: still streaming when the server is told to stop.
        ResultSet rs = statement.executeQuery("select a.x, b.x from t a, t b");
        assertThat(rs.next()).isTrue();
        long start = System.nanoTime();
        serve.destroy(); // SIGTERM
        assertThat(serve.waitFor(45, TimeUnit.SECONDS)).as("the server exited").isTrue();
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(40);
      }
      assertThat(Files.readAllLines(err, UTF_8).stream().filter(l -> l.startsWith("quiver:")))
          .containsExactly("quiver: stopping: cancelling 1 queries", "quiver: stopped");
    } finally {
      serve.destroyForcibly();
    }
  }
}
