package dev.quiver.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the {@code quiver} command line in this JVM with its stdout and stderr captured. */
final class Cli {
  /** What a run printed and its exit status. */
  record Run(int status, String out, String err) {}

  private Cli() {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        QuiverCommand.commandLine(new PrintWriter(out), new PrintWriter(err)).execute(args);
    return new Run(status, out.toString(), err.toString());
  }
}
