package dev.quiver.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code quiver gen}: the data generators ({@code tpch}, {@code tpcds}). */
@Command(
    name = "gen",
    mixinStandardHelpOptions = true,
    description = "Generate benchmark data sets.",
    subcommands = {GenTpchCommand.class, GenTpcdsCommand.class})
final class GenCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "name the data set to generate: tpch or tpcds");
  }
}
