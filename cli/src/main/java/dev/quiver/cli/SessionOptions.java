package dev.quiver.cli;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionBuilder;
import dev.quiver.sql.RuntimeFilterPolicy;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where queries run: {@code --parallelism N}, {@code --cluster HOST:PORT} and the {@code --jar}
 * shipped to that cluster, and how much memory each task may hold ({@code --memory-budget}).
 */
final class SessionOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  private Integer parallelism;
  private Long memoryBudget;
  private RuntimeFilterPolicy runtimeFilters;

  @Option(
      names = "--cluster",
      paramLabel = "HOST:PORT",
      converter = HostPort.Converter.class,
      description =
          "Run on the Flink cluster whose REST endpoint is HOST:PORT, shipping the running"
              + " quiver.jar with each job (files must be at the same paths there). Default: a"
              + " MiniCluster in this process.")
  HostPort cluster;

  @Option(
      names = "--jar",
      paramLabel = "FILE",
      description =
          "With --cluster: the jar shipped with each job instead of the running quiver.jar, e.g."
              + " examples/target/quiver-job.jar (Quiver without Flink, which the cluster has).")
  Path jar;

  @Option(
      names = {"-p", "--parallelism"},
      paramLabel = "N",
      description = "Tasks per distributed stage (default: processors, at most 8).")
  void parallelism(int value) {
    if (value < 1) {
      throw new ParameterException(
          spec.commandLine(), "--parallelism must be at least 1, not " + value);
    }
    parallelism = value;
  }

  @Option(
      names = "--memory-budget",
      paramLabel = "SIZE",
      description =
          "Arrow memory each task's operators may hold, e.g. 64m or 2g (default: the task's"
              + " share of its slot's Flink managed memory). Sorts, aggregations and hash joins"
              + " beyond it spill to Flink's io.tmp.dirs; only a join key with more build rows"
              + " than the budget fails with MEMORY_BUDGET_EXCEEDED.")
  void memoryBudget(String value) {
    memoryBudget = bytes(value);
  }

  @Option(
      names = "--runtime-filters",
      paramLabel = "WHEN",
      description =
          "Filter the probe rows of a partitioned join by its build keys before they are"
              + " shuffled: off (default), statistics (where the tables' statistics say most"
              + " probe rows find no match) or always.")
  void runtimeFilters(String value) {
    runtimeFilters =
        switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
          case "off" -> RuntimeFilterPolicy.OFF;
          case "statistics" -> RuntimeFilterPolicy.BY_STATISTICS;
          case "always" -> RuntimeFilterPolicy.EVERY_JOIN;
          default ->
              throw new ParameterException(
                  spec.commandLine(),
                  "--runtime-filters must be off, statistics or always, not " + value);
        };
  }

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description =
          "A Flink setting for the session's cluster and jobs, e.g. --conf"
              + " restart-strategy.type=none, or --conf client.heartbeat.timeout=60s (with"
              + " --cluster: how long the cluster keeps a query whose client has vanished)."
              + " Repeatable.")
  Map<String, String> flink = new LinkedHashMap<>();

  private long bytes(String value) {
    String text = value.trim().toLowerCase(java.util.Locale.ROOT);
    long unit = 1;
    char last = text.isEmpty() ? ' ' : text.charAt(text.length() - 1);
    if (last == 'k' || last == 'm' || last == 'g') {
      unit = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
      text = text.substring(0, text.length() - 1);
    }
    try {
      long number = Long.parseLong(text);
      if (number > 0) {
        return Math.multiplyExact(number, unit);
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below
    }
    throw new ParameterException(
        spec.commandLine(), "--memory-budget must be a positive size like 64m, not " + value);
  }

  /** Starts the session (a local MiniCluster takes about two seconds). */
  QuiverSession open() {
    return builder().build();
  }

  /** The tasks per distributed stage the session will run. */
  int parallelism() {
    return parallelism != null ? parallelism : SessionBuilder.defaultParallelism();
  }

  /** Whether queries run on a remote cluster ({@code --cluster}). */
  boolean remote() {
    return cluster != null;
  }

  /** The session's builder with these options, for a command that adds to them. */
  SessionBuilder builder() {
    SessionBuilder builder = QuiverSession.builder();
    if (parallelism != null) {
      builder.parallelism(parallelism);
    }
    if (memoryBudget != null) {
      builder.taskMemoryBudget(memoryBudget);
    }
    if (runtimeFilters != null) {
      builder.runtimeFilters(runtimeFilters);
    }
    if (!flink.isEmpty()) {
      builder.configuration(Configuration.fromMap(flink));
    }
    if (cluster != null) {
      builder.remote(cluster.host(), cluster.port(), jarToShip().toString());
    } else if (jar != null) {
      throw new ParameterException(spec.commandLine(), "--jar is only used with --cluster");
    } else {
      builder.configuration(WebUiOption.localRest());
    }
    return builder;
  }

  private Path jarToShip() {
    if (jar == null) {
      return runningJar();
    }
    if (!Files.isRegularFile(jar)) {
      throw new CliException("--jar " + jar + ": no such file");
    }
    return jar.toAbsolutePath();
  }

  /** The jar this code runs from, which a remote cluster needs to run Quiver's operators. */
  static Path runningJar() {
    Path location;
    try {
      location =
          Path.of(SessionOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | NullPointerException | SecurityException e) {
      throw new CliException("--cluster: cannot find the running quiver.jar to ship", e);
    }
    if (!Files.isRegularFile(location) || !location.toString().endsWith(".jar")) {
      throw new CliException(
          "--cluster ships the running quiver.jar to the cluster, but Quiver runs from "
              + location
              + ": run it as java -jar cli/target/quiver.jar (or ./quiver), or name the jar"
              + " with --jar");
    }
    return location;
  }
}
