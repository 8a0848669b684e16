package dev.quiver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quiver shell} reading standard input (as {@code echo '...;' | quiver shell} does), and the
 * {@link Shell} under it cancelled mid-query as Ctrl-C does on a terminal.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShellCommandTest {
  @TempDir static Path dir;
  static Path table;

  @BeforeAll
  static void writeTable() throws Exception {
    table = dir.resolve("t.csv");
    Files.writeString(
        table,
        IntStream.range(0, 3000)
            .mapToObj(Integer::toString)
            .collect(Collectors.joining("\n", "x\n", "\n")),
        UTF_8);
  }

  @Test
  void createAndDropTableInTheShell() {
    String input =
        String.join(
            "\n",
            "CREATE TABLE `my t` (x BIGINT)",
            "  WITH ('connector' = 'filesystem', 'path' = '" + table + "', 'format' = 'csv');",
            "select count(*) as n from \"my t\";",
            "create table `my t` (x bigint) with ('connector' = 'filesystem');",
            "drop table `my t`;",
            "select count(*) from \"my t\";",
            "");
    Cli.Run run = withStdin(input, "shell", "-p", "1");
    assertThat(run.out())
        .as(run.err())
        .contains("CREATE TABLE\nTime: ")
        .contains("   n\n----\n3000\n(1 row)\n")
        .contains("DROP TABLE\nTime: ");
    assertThat(run.err())
        .contains(
            "quiver: [INVALID_QUERY] the table my t already exists: CREATE TABLE IF NOT EXISTS"
                + " keeps it, DROP TABLE my t first replaces it\n")
        .contains("Object 'my t' not found")
        .endsWith("quiver: 2 statements failed\n");
  }

  @Test
  void runsTheStatementsOfStandardInputOnOneSession() {
    String input =
        String.join(
            "\n",
            "select 1;",
            "select count(*) as n,",
            "  sum(x) as s from t;  select 'a;b' as v;",
            "\\d",
            "\\d T",
            "explain select x % 3, count(*) from t group by x % 3;",
            "explain analyze select count(*) from t;",
            "select nope from t;",
            "\\timing off",
            "select x from t order by x",
            "");
    Cli.Run run = withStdin(input, "shell", "-p", "2", "--max-rows", "2", "-t", "t=" + table);
    assertThat(run.status()).as(run.err()).isEqualTo(1);
    assertThat(run.err())
        .contains(
            "quiver: [INVALID_QUERY] From line 1, column 8 to line 1, column 11: Column 'nope' not"
                + " found in any table\n")
        .endsWith("quiver: 1 statement failed\n");
    String out = run.out();
    assertThat(out)
        .contains("EXPR$0\n------\n     1\n(1 row)\nTime: ")
        .contains("   n |       s\n-----+--------\n3000 | 4498500\n(1 row)\n")
        .contains("v\n---\na;b\n(1 row)\n")
        .contains("table | columns |  rows\n------+---------+------\nt     |       1 | 3,000\n")
        .contains(
            "Table t\ncolumn | type   | nullable\n-------+--------+---------\nx      | BIGINT | yes\n")
        .contains("Stage 1 (final)  tasks=2")
        .contains("-- 1 rows in ")
        .contains("  | task 0: ")
        .contains("Timing is off.\n")
        // the last statement has no ';': end of input ends it; only its first 2 rows are shown
        .endsWith("x\n-\n0\n1\n(3000 rows, the first 2 shown)\n");
    assertThat(Pattern.compile("^Time: \\d+\\.\\d{3} s$", Pattern.MULTILINE).matcher(out).results())
        .as("a time for each of the 5 statements before \\timing off, the failing one aside")
        .hasSize(5);
  }

  @Test
  void quitStopsReadingAndWebUiPrintsTheUrl() {
    Cli.Run run =
        withStdin(
            "select 1;\n\\q\nselect nope;\n", "shell", "-p", "1", "--web-ui", "-t", "t=" + table);
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.err()).containsPattern("(?m)^Flink web UI: http://[^ ]+:\\d+/$");
    assertThat(run.out()).contains("(1 row)").doesNotContain("nope");
  }

  @Test
  void cancelEndsTheRunningQueryAndTheShellGoesOn() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try (QuiverSession session = QuiverSession.builder().parallelism(1).build()) {
      session.registerTable("t", table.toString());
      Shell shell = new Shell(session, new PrintWriter(out), new PrintWriter(err), false, 10);
      // The reader stops after its first batch until cancelled: the job, with 9 M rows to send
      // and nobody taking them, waits in its result sink, where a cancel ends it at once.
      CountDownLatch firstBatch = new CountDownLatch(1);
      CountDownLatch cancelled = new CountDownLatch(1);
      shell.afterBatch(
          () -> {
            firstBatch.countDown();
            try {
              cancelled.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      Thread running = new Thread(() -> shell.execute("select a.x, b.x from t a, t b;"), "shell");
      running.start();
      assertThat(firstBatch.await(60, TimeUnit.SECONDS)).as("a first batch: %s", err).isTrue();
      shell.cancel(); // what Ctrl-C does
      cancelled.countDown();
      running.join(TimeUnit.SECONDS.toMillis(60));
      assertThat(running.isAlive()).as("the statement did not end").isFalse();
      assertThat(err.toString()).isEqualTo("quiver: query cancelled\n");
      assertThat(shell.failures()).isEqualTo(1);
      assertThat(session.unfinishedJobs().orElseThrow()).isZero();
      assertThat(session.openQueries()).isZero();

      shell.afterBatch(() -> {});
      assertThat(shell.execute("select count(*) from t;")).isTrue();
      assertThat(out.toString()).contains("3000\n(1 row)\nTime: ");
      assertThat(shell.failures()).isEqualTo(1);
    }
  }

  /**
   * On a terminal a finished result goes to the pager (JLine's less when taller than the screen),
   * not to the output; the time printed leaves out the time the result was on the pager.
   */
  @Test
  void aTerminalsResultsGoToThePagerAndItsTimeIsNotTheQuerys() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try (QuiverSession session = QuiverSession.builder().parallelism(1).build()) {
      session.registerTable("t", table.toString());
      Shell shell = new Shell(session, new PrintWriter(out), new PrintWriter(err), false, 10);
      List<String> pages = new ArrayList<>();
      shell.pager(
          text -> {
            pages.add(text);
            try {
              Thread.sleep(2_000); // a user reading the page
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      long start = System.nanoTime();
      assertThat(shell.execute("select count(*) AS n from t;")).isTrue();
      double wall = (System.nanoTime() - start) / 1e9;
      assertThat(pages).containsExactly("   n\n----\n3000\n(1 row)\n");
      assertThat(out.toString()).doesNotContain("3000").startsWith("Time: ");
      double shown = Double.parseDouble(out.toString().replaceAll("(?s)Time: ([0-9.]+) s.*", "$1"));
      assertThat(shown)
          .as("the time without the pager's 2 s, of %s s", wall)
          .isLessThan(wall - 1.9);
    }
  }

  @Test
  void theWebUiListsTheRunningQuerysJob() throws Exception {
    try (QuiverSession session =
        QuiverSession.builder().parallelism(1).configuration(WebUiOption.localRest()).build()) {
      session.registerTable("t", table.toString());
      // 9 million rows nobody reads: the job runs until the result is closed.
      try (var result = session.sql("select a.x, b.x from t a, t b")) {
        String url = WebUiOption.url(session).toString();
        String jobs = get(url + "jobs/overview");
        Matcher job =
            Pattern.compile(
                    "\\{\"jid\":\""
                        + result.jobId().toHexString()
                        + "\",\"name\":\"([^\"]*)\".*?"
                        + "\"state\":\"(\\w+)\"")
                .matcher(jobs);
        assertThat(job.find()).as(jobs).isTrue();
        assertThat(job.group(1)).isEqualTo("quiver: select a.x, b.x from t a, t b");
        assertThat(job.group(2)).isIn("INITIALIZING", "CREATED", "RUNNING");
        assertThat(get(url)).as("the web UI's page").contains("<title>Apache Flink Web Dashboard");
        assertThat(get(url + "config")).contains("\"web-submit\":false");
        assertThat(url).startsWith("http://127.0.0.1:"); // loopback only
      }
    }
  }

  private static String get(String url) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    var response =
        http.send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(url).isEqualTo(200);
    return response.body();
  }

  private static Cli.Run withStdin(String input, String... args) {
    InputStream stdin = System.in;
    System.setIn(new ByteArrayInputStream(input.getBytes(UTF_8)));
    try {
      return Cli.run(args);
    } finally {
      System.setIn(stdin);
    }
  }
}
