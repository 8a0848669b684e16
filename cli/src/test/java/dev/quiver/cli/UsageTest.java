package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage, help and the errors found before any session starts (so no Flink here). */
class UsageTest {
  @Test
  void noArgumentsPrintsUsage() {
    Cli.Run run = Cli.run();
    assertThat(run.status()).isZero();
    assertThat(run.out()).startsWith("Usage: quiver ").contains("sql", "explain", "tpch", "gen");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void everySubcommandHasHelp() {
    for (String[] command :
        new String[][] {
          {"sql"}, {"explain"}, {"serve"}, {"tpch"}, {"gen"}, {"gen", "tpch"}, {"demo"}
        }) {
      String[] args = new String[command.length + 1];
      System.arraycopy(command, 0, args, 0, command.length);
      args[command.length] = "--help";
      Cli.Run run = Cli.run(args);
      assertThat(run.status()).as(String.join(" ", args)).isZero();
      assertThat(run.out()).startsWith("Usage: quiver " + String.join(" ", command));
    }
  }

  @Test
  void serveRefusesToStartWithoutAnAuthenticationChoice() {
    Cli.Run run = Cli.run("serve", "--port", "0");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .startsWith("quiver: choose who may connect: --user NAME with --password or")
        .contains("--no-auth")
        .hasLineCount(1);
    Cli.Run both = Cli.run("serve", "--no-auth", "--user", "alice", "--password", "x");
    assertThat(both.status()).isEqualTo(2);
    assertThat(both.err()).contains("--no-auth goes with neither");
  }

  @Test
  void unknownOptionIsAUsageErrorOnOneLine() {
    Cli.Run run = Cli.run("sql", "--formt", "csv", "SELECT 1");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("quiver: Unknown option")
        .contains("'--formt'", "did you mean --format?", "see 'quiver sql --help'")
        .hasLineCount(1);
  }

  @Test
  void missingQueryAndBadValuesAreUsageErrors() {
    assertThat(Cli.run("sql", "--format", "csv").status()).isEqualTo(2);
    assertThat(Cli.run("sql", "--format", "xml", "SELECT 1").err())
        .contains("--format", "xml")
        .hasLineCount(1);
    assertThat(Cli.run("sql", "-f", "q.sql", "SELECT 1").status()).isEqualTo(2);
    assertThat(Cli.run("sql", "--parallelism", "0", "SELECT 1").err())
        .isEqualTo("quiver: --parallelism must be at least 1, not 0 (see 'quiver sql --help')\n");
    assertThat(Cli.run("sql", "--cluster", "localhost", "SELECT 1").err()).contains("HOST:PORT");
    assertThat(Cli.run("sql", "  ").err()).startsWith("quiver: the query is empty");
    Cli.Run queries = Cli.run("tpch", "--queries", "1,23");
    assertThat(queries.status()).isEqualTo(2);
    assertThat(queries.err()).contains("--queries", "1 to 22");
    Cli.Run tpcds = Cli.run("tpcds", "--queries", "100");
    assertThat(tpcds.status()).isEqualTo(2);
    assertThat(tpcds.err()).contains("--queries", "1 to 99");
    assertThat(Cli.run("gen", "tpch", "--out", "x").err()).contains("'--sf=SF'");
    assertThat(Cli.run("gen", "tpcds", "--sf", "0", "--out", "x").err()).contains("--sf must be");
    assertThat(Cli.run("gen").status()).isEqualTo(2);
  }

  @Test
  void memoryBudgetIsASize() {
    Cli.Run run = Cli.run("sql", "--memory-budget", "lots", "SELECT 1");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--memory-budget must be a positive size like 64m, not lots");
    assertThat(Cli.run("sql", "--memory-budget", "0", "SELECT 1").status()).isEqualTo(2);
  }

  @Test
  void confIsKeyEqualsValue() {
    Cli.Run run = Cli.run("sql", "--conf", "restart-strategy.type", "SELECT 1");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("KEY=VALUE");
    assertThat(Cli.run("sql", "--conf", "restart-strategy.type=none", "SELECT 1").status())
        .isZero();
  }

  @Test
  void runtimeFiltersAreOffStatisticsOrAlways() {
    Cli.Run run = Cli.run("sql", "--runtime-filters", "sometimes", "SELECT 1");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .contains("--runtime-filters must be off, statistics or always, not sometimes");
  }

  @Test
  void analyzePrintsTextOnly() {
    Cli.Run run = Cli.run("explain", "--analyze", "--format", "dot", "SELECT 1");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("quiver: --analyze prints text").hasLineCount(1);
  }

  @Test
  void missingQueryFileFailsWithItsName(@TempDir Path dir) {
    Path file = dir.resolve("missing.sql");
    Cli.Run run = Cli.run("sql", "-f", file.toString());
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("quiver: query file " + file + " does not exist\n");

    Cli.Run verbose = Cli.run("sql", "-f", file.toString(), "--verbose");
    Cli.Run verboseFirst = Cli.run("-v", "sql", "-f", file.toString());
    assertThat(verboseFirst.err().lines().limit(3))
        .containsExactlyElementsOf(verbose.err().lines().limit(3).toList());
    assertThat(verbose.status()).isEqualTo(1);
    assertThat(verbose.err())
        .startsWith("quiver: query file " + file + " does not exist\n")
        .contains("CliException", "\tat ");
  }

  @Test
  void clusterNeedsTheJar() {
    // Tests run from target/classes, not from quiver.jar: nothing to ship to a cluster.
    Cli.Run run = Cli.run("sql", "--cluster", "localhost:8081", "SELECT 1");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).startsWith("quiver: --cluster ships the running quiver.jar");
  }

  @Test
  void theJarToShipIsNamedWithJar(@TempDir Path dir) {
    Cli.Run alone = Cli.run("sql", "--jar", "quiver-job.jar", "SELECT 1");
    assertThat(alone.status()).isEqualTo(2);
    assertThat(alone.err()).startsWith("quiver: --jar is only used with --cluster");
    Path missing = dir.resolve("missing.jar");
    Cli.Run run = Cli.run("sql", "--cluster", "localhost:8081", "--jar", missing.toString(), "x");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).isEqualTo("quiver: --jar " + missing + ": no such file\n");
  }

  @Test
  void tpchQueryLists() {
    assertThat(TpchRunCommand.parseQueries("all")).hasSize(22);
    assertThat(TpchRunCommand.parseQueries("6, 1,3-5,3")).containsExactly(1, 3, 4, 5, 6);
    for (String bad : new String[] {"0", "23", "1,,2", "5-3", "x", "1-"}) {
      assertThatThrownBy(() -> TpchRunCommand.parseQueries(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void hostPort() {
    assertThat(HostPort.parse("flink-jm:8081")).isEqualTo(new HostPort("flink-jm", 8081));
    assertThat(HostPort.parse("[::1]:8081")).isEqualTo(new HostPort("::1", 8081));
    assertThat(HostPort.parse("[::1]:8081")).hasToString("[::1]:8081");
    for (String bad : new String[] {"host", "host:", ":8081", "host:0", "host:70000", "h:x"}) {
      assertThatThrownBy(() -> HostPort.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
