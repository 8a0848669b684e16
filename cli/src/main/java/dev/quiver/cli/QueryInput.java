package dev.quiver.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** The query: given as the argument QUERY or read with {@code -f FILE}; exactly one of them. */
final class QueryInput {
  @Parameters(index = "0", paramLabel = "QUERY", description = "The SQL text (quote it).")
  String text;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "Read the query from FILE ('-' for standard input).")
  String file;

  /** The query text; an unreadable file fails, an empty query is a usage error. */
  String read(CommandLine command, InputStream stdin) {
    String query;
    if (text != null) {
      query = text;
    } else if (file.equals("-")) {
      try {
        query = new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new CliException("cannot read the query from standard input", e);
      }
    } else {
      try {
        query = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        throw new CliException("query file " + file + " does not exist");
      } catch (IOException e) {
        throw new CliException("cannot read query file " + file, e);
      }
    }
    if (query.isBlank()) {
      throw new ParameterException(command, "the query is empty");
    }
    return query;
  }
}
