package dev.quiver.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code quiver} command: its subcommands, the global {@code -v/--verbose}, and how errors
 * become exit statuses ({@link Errors}). Without a subcommand it prints its usage.
 *
 * <pre>
 *   quiver sql       run a query over files          (SqlCommand)
 *   quiver explain   show a query's stages           (ExplainCommand)
 *   quiver shell     an interactive SQL shell         (ShellCommand)
 *   quiver serve     a Flight SQL server (JDBC, ADBC) (ServeCommand)
 *   quiver tpch      run TPC-H queries               (TpchRunCommand)
 *   quiver tpcds     run TPC-DS queries              (TpcdsRunCommand)
 *   quiver gen tpch  generate TPC-H data             (GenTpchCommand)
 *   quiver gen tpcds generate TPC-DS data            (GenTpcdsCommand)
 *   quiver demo      the demonstration job           (DemoCommand)
 * </pre>
 */
@Command(
    name = "quiver",
    mixinStandardHelpOptions = true,
    versionProvider = QuiverCommand.Version.class,
    description = "Run SQL on Apache Flink with vectorized Apache Arrow operators.",
    subcommands = {
      SqlCommand.class,
      ExplainCommand.class,
      ShellCommand.class,
      ServeCommand.class,
      TpchRunCommand.class,
      TpcdsRunCommand.class,
      GenCommand.class,
      DemoCommand.class,
      HelpCommand.class
    },
    footerHeading = "%nExit status:%n",
    footer = {
      "  0 success, 1 failure (message on stderr), 2 usage error.",
      "",
      "Run 'quiver COMMAND --help' for a command's options."
    })
public final class QuiverCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"-v", "--verbose"},
      scope = ScopeType.INHERIT,
      description = "Print stack traces of errors and timings on stderr.")
  boolean verbose;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  /** The command line, with Quiver's error handling, writing to {@code out} and {@code err}. */
  public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
    CommandLine commandLine = new CommandLine(new QuiverCommand());
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(Errors.executionHandler());
    commandLine.setParameterExceptionHandler(Errors.usageHandler());
    commandLine.setOut(out);
    commandLine.setErr(err);
    return commandLine;
  }

  /**
   * Runs {@code args} and returns the exit status. Output is UTF-8, written to the file descriptor
   * itself rather than through {@link System#out}, which would hide a write error (a closed pipe, a
   * full disk) from the commands.
   */
  public static int run(String... args) {
    PrintWriter out =
        new PrintWriter(
            new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8));
    PrintWriter err =
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    try {
      return commandLine(out, err).execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The version recorded in the jar's manifest, if any. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = QuiverCommand.class.getPackage().getImplementationVersion();
      return new String[] {"quiver " + (version == null ? "(development build)" : version)};
    }
  }
}
