package dev.quiver.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * The query: given as the argument QUERY or read with {@code -f FILE}; exactly one of them. {@code
 * quiver sql --output-dir} takes several {@code -f FILE}s ({@link #files}).
 */
final class QueryInput {
  @Parameters(index = "0", paramLabel = "QUERY", description = "The SQL text (quote it).")
  String text;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description =
          "Read the query from FILE ('-' for standard input). Repeatable with quiver sql"
              + " --output-dir: each file is one query.")
  List<String> files = new ArrayList<>();

  /** The query text; an unreadable file fails, an empty query or several files a usage error. */
  String read(CommandLine command, InputStream stdin) {
    if (files.size() > 1) {
      throw new ParameterException(
          command, "one query at a time: several -f FILEs need quiver sql --output-dir DIR");
    }
    String query;
    if (text != null) {
      query = text;
    } else if (files.get(0).equals("-")) {
      try {
        query = new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new CliException("cannot read the query from standard input", e);
      }
    } else {
      query = readFile(files.get(0));
    }
    if (query.isBlank()) {
      throw new ParameterException(command, "the query is empty");
    }
    return query;
  }

  /** The text of query file {@code file}; a missing or unreadable file fails (status 1). */
  static String readFile(String file) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new CliException("query file " + file + " does not exist");
    } catch (IOException e) {
      throw new CliException("cannot read query file " + file, e);
    }
  }
}
