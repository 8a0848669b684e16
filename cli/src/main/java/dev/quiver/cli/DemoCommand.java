package dev.quiver.cli;

import dev.quiver.cli.demo.ShuffleAggregateDemo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code quiver demo}: the demonstration job of {@link ShuffleAggregateDemo}. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run the demonstration job (no SQL, no files).",
      "Generates lineitem-like Arrow batches in parallel Flink tasks, hash-shuffles them by",
      "status, totals each status and prints the totals with the job time."
    })
final class DemoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"-p", "--parallelism"},
      paramLabel = "N",
      defaultValue = "2",
      description = "Flink tasks per stage (default ${DEFAULT-VALUE}).")
  int parallelism;

  @Option(
      names = "--batches",
      paramLabel = "N",
      defaultValue = "256",
      description = "Batches of 8,192 rows to generate (default ${DEFAULT-VALUE}).")
  long batches;

  @Override
  public Integer call() throws Exception {
    if (parallelism < 1 || batches < 1) {
      throw new ParameterException(
          spec.commandLine(), "--parallelism and --batches must be at least 1");
    }
    PrintWriter out = spec.commandLine().getOut();
    // The demo prints to a PrintStream; pass its lines on to the command's writer as they come.
    ByteArrayOutputStream lines =
        new ByteArrayOutputStream() {
          @Override
          public synchronized void flush() {
            out.print(toString(StandardCharsets.UTF_8));
            out.flush();
            reset();
          }
        };
    try (PrintStream stream = new PrintStream(lines, true, StandardCharsets.UTF_8)) {
      new ShuffleAggregateDemo(parallelism, batches).run(stream);
    }
    return 0;
  }
}
