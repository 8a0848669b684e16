package dev.quiver.cli;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionBuilder;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jline.builtins.Less;
import org.jline.builtins.Source;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal.Signal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver shell}: SQL statements one after the other on one session ({@link Shell}), so that
 * only the first pays for the local cluster's start. On a terminal, a JLine line editor: history
 * across runs, statements over several lines until {@code ;}, Ctrl-C cancels the running query (a
 * JLine signal handler, so the JVM keeps running) or clears the line, Ctrl-D quits. Otherwise
 * (standard input a pipe or a file) it runs the statements it reads, and exits with status 1 if any
 * failed; Ctrl-C or SIGTERM then cancel the running query and exit ({@link CancelOnExit}).
 */
@Command(
    name = "shell",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description =
        "An interactive SQL shell on one warm session: statements end with ';', \\help lists"
            + " the commands. Reads standard input when it is not a terminal.",
    footerHeading = "%nExamples:%n",
    footer = {
      "  quiver shell --catalog ~/.cache/quiver/tpch-sf0.1",
      "  echo 'select count(*) from lineitem;' | quiver shell --catalog DIR",
      "  quiver shell --catalog DIR --web-ui=8081     then watch the stages at"
          + " http://localhost:8081/"
    })
final class ShellCommand implements Callable<Integer> {
  static final String PROMPT = "quiver> ";
  static final String CONTINUATION = "   ...> ";

  @Spec CommandSpec spec;

  @Mixin TableOptions tables;

  @Mixin SessionOptions session;

  @Mixin WebUiOption webUi;

  @Option(
      names = "--max-rows",
      paramLabel = "N",
      description =
          "Show at most the first N rows of a result, then the count of all (default: 1000).")
  int maxRows = 1000;

  @Option(
      names = "--history",
      paramLabel = "FILE",
      description =
          "Where the statements typed are kept across runs (default:"
              + " $XDG_STATE_HOME/quiver/history, or ~/.local/state/quiver/history).")
  Path history;

  @SuppressWarnings("try") // the guard is held while the shell runs: it cancels a job on exit
  @Override
  public Integer call() throws Exception {
    if (maxRows < 0) {
      throw new ParameterException(spec.commandLine(), "--max-rows must not be negative");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    boolean terminal = System.console() != null;
    SessionBuilder builder = session.builder();
    webUi.configure(builder);
    try (QuiverSession quiver = builder.build();
        CancelOnExit exit = CancelOnExit.guard(quiver, err)) {
      tables.register(quiver);
      if (webUi.enabled()) {
        err.println("Flink web UI: " + WebUiOption.url(quiver));
        err.flush();
      }
      Shell shell = new Shell(quiver, out, err, terminal && Terminal.interactive(), maxRows);
      if (terminal) {
        interactive(quiver, shell, out);
        return 0;
      }
      readStandardInput(shell);
      if (shell.failures() > 0) {
        throw new CliException(
            shell.failures() + (shell.failures() == 1 ? " statement" : " statements") + " failed");
      }
    }
    return 0;
  }

  /** Statements from standard input, run as each is complete; what is left at its end too. */
  private static void readStandardInput(Shell shell) throws IOException {
    Statements statements = new Statements();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      for (String statement : statements.add(line)) {
        if (!shell.execute(statement)) {
          return;
        }
      }
    }
    shell.execute(statements.pending());
  }

  private void interactive(QuiverSession quiver, Shell shell, PrintWriter out) throws IOException {
    if (!session.remote() && !webUi.enabled()) {
      warmUp(quiver);
    }
    Path historyFile = history != null ? history : defaultHistory();
    try {
      Files.createDirectories(historyFile.toAbsolutePath().getParent());
    } catch (IOException e) {
      spec.commandLine()
          .getErr()
          .println("quiver: no history across runs: cannot create " + historyFile.getParent());
      historyFile = null;
    }
    try (org.jline.terminal.Terminal terminal =
        TerminalBuilder.builder().name("quiver").system(true).build()) {
      LineReaderBuilder builder =
          LineReaderBuilder.builder()
              .terminal(terminal)
              .appName("quiver")
              .parser(new ShellParser())
              .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION)
              .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true); // '!' is SQL's
      if (historyFile != null) {
        builder.variable(LineReader.HISTORY_FILE, historyFile);
      }
      LineReader reader = builder.build();
      terminal.handle(Signal.INT, signal -> shell.cancel());
      shell.pager(text -> page(terminal, text));
      out.println(
          "Quiver shell on "
              + (session.remote() ? "--cluster" : "a local cluster")
              + ", "
              + quiver.catalog().tables().size()
              + " tables. Statements end with ';'; \\help for help, Ctrl-D to quit.");
      out.flush();
      try {
        while (true) {
          String text;
          try {
            text = reader.readLine(PROMPT);
          } catch (UserInterruptException e) {
            continue; // Ctrl-C at the prompt: the line is dropped
          } catch (EndOfFileException e) {
            return; // Ctrl-D
          }
          if (!runAll(shell, text)) {
            return;
          }
        }
      } finally {
        reader.getHistory().save();
      }
    }
  }

  /** Runs every statement of an accepted buffer; false once one says to quit. */
  private static boolean runAll(Shell shell, String text) {
    Statements statements = new Statements();
    for (String line : text.split("\n", -1)) {
      for (String statement : statements.add(line)) {
        if (!shell.execute(statement)) {
          return false;
        }
      }
    }
    return shell.execute(statements.pending());
  }

  /** Starts the local cluster while the first statement is typed (it takes seconds). */
  private static void warmUp(QuiverSession quiver) {
    Thread start =
        new Thread(
            () -> {
              try {
                quiver.restAddress();
              } catch (RuntimeException e) {
                // the first query starts it again and reports why it cannot
              }
            },
            "quiver: start cluster");
    start.setDaemon(true);
    start.start();
  }

  /** {@code $XDG_STATE_HOME/quiver/history}, or {@code ~/.local/state/quiver/history}. */
  static Path defaultHistory() {
    String state = System.getenv("XDG_STATE_HOME");
    Path base =
        state != null && !state.isBlank()
            ? Path.of(state)
            : Path.of(System.getProperty("user.home"), ".local", "state");
    return base.resolve("quiver").resolve("history");
  }

  /** JLine's parser that keeps reading lines until a statement is complete. */
  private static final class ShellParser extends org.jline.reader.impl.DefaultParser {
    @Override
    public org.jline.reader.ParsedLine parse(String line, int cursor, ParseContext context) {
      if (context == ParseContext.ACCEPT_LINE && !Statements.complete(line)) {
        throw new org.jline.reader.EOFError(-1, -1, "the statement goes on until ';'");
      }
      return super.parse(line, cursor, context);
    }
  }

  /**
   * Prints {@code text}, through JLine's {@code less} when it is taller than the terminal (q or
   * Ctrl-C leaves it; long lines are chopped, the arrow keys scroll sideways).
   */
  private static void page(org.jline.terminal.Terminal terminal, String text) {
    long lines = text.chars().filter(c -> c == '\n').count();
    if (lines < terminal.getHeight() - 1) {
      terminal.writer().print(text);
      terminal.writer().flush();
      return;
    }
    Less less = new Less(terminal, Path.of("."));
    less.chopLongLines = true;
    less.quitIfOneScreen = true;
    try {
      less.run(
          new Source.InputStreamSource(
              new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), true, "result"));
    } catch (IOException e) {
      terminal.writer().print(text); // the pager failed: the table as it is
      terminal.writer().flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
