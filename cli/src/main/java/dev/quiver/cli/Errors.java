package dev.quiver.cli;

import dev.quiver.error.QuiverException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Exit statuses and how failures are reported: one line on stderr, {@code quiver: <message>}, and
 * the stack trace only with {@code --verbose}.
 *
 * <ul>
 *   <li>0: success
 *   <li>1: the command failed (bad SQL, a missing file, a query that failed while running)
 *   <li>2: usage error (unknown option, missing or invalid argument, unsupported flag)
 * </ul>
 */
final class Errors {
  static final int FAILURE = 1;
  static final int USAGE = 2;

  private Errors() {}

  /** Reports an exception thrown by a command: status 1. */
  static IExecutionExceptionHandler executionHandler() {
    return (Exception e, CommandLine command, ParseResult parsed) -> {
      PrintWriter err = command.getErr();
      command.getOut().flush();
      if (CancelOnExit.cancelling()) {
        return FAILURE; // Ctrl-C: the job was cancelled, as CancelOnExit reports
      }
      err.println("quiver: " + message(e));
      if (verbose(parsed)) {
        e.printStackTrace(err);
      }
      err.flush();
      return FAILURE;
    };
  }

  /** Reports a usage error (while parsing, or thrown by a command as such): status 2. */
  static IParameterExceptionHandler usageHandler() {
    return (ParameterException e, String[] args) -> {
      CommandLine command = e.getCommandLine();
      PrintWriter err = command.getErr();
      command.getOut().flush();
      String message = oneLine(e.getMessage()).replaceFirst("^Error: ", "");
      if (e instanceof UnmatchedArgumentException unmatched) {
        List<String> suggestions = unmatched.getSuggestions();
        if (!suggestions.isEmpty()) {
          message += " (did you mean " + String.join(" or ", suggestions) + "?)";
        }
      }
      err.println(
          "quiver: "
              + message
              + " (see '"
              + command.getCommandSpec().qualifiedName()
              + " --help')");
      if (verbose(command.getCommandSpec().root().commandLine().getParseResult())) {
        e.printStackTrace(err);
      }
      err.flush();
      return USAGE;
    };
  }

  /**
   * The one-line message of {@code e}: the message of the first {@link QuiverException} among its
   * causes (it says what to fix), else its own message followed by its root cause's (which says
   * what actually happened: "Connection refused", a missing file).
   */
  static String message(Throwable e) {
    Throwable root = e;
    Throwable t = e;
    for (int depth = 0; t != null && depth < 32; depth++, t = t.getCause()) {
      if (t instanceof QuiverException) {
        return oneLine(t.getMessage());
      }
      root = t;
    }
    String message = describe(e);
    if (root != e) {
      String rootMessage = describe(root);
      if (!message.contains(rootMessage)) {
        message += ": " + rootMessage;
      }
    }
    return oneLine(message);
  }

  private static String describe(Throwable e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory: " + ((NoSuchFileException) e).getFile();
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied: " + ((AccessDeniedException) e).getFile();
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /** Whether {@code -v/--verbose} was given on any command of the line. */
  static boolean verbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }
}
