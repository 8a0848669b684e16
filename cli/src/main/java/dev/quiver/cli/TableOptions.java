package dev.quiver.cli;

import dev.quiver.flink.session.QuiverSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The tables a query can name: {@code --catalog DIR}, {@code --table NAME=PATH}. */
final class TableOptions {
  @Option(
      names = "--catalog",
      paramLabel = "DIR",
      description =
          "Register every entry of DIR as a table: a folder of files or a single file (.parquet,"
              + " .csv, .arrow), named after it. Repeatable.")
  List<Path> catalogs = new ArrayList<>();

  @Option(
      names = {"-t", "--table"},
      paramLabel = "NAME=PATH",
      mapFallbackValue = "",
      description =
          "Register PATH (a file, a folder of files or a glob; format from the extension) as"
              + " table NAME. Repeatable; wins over a --catalog table of the same name.")
  Map<String, String> tables = new LinkedHashMap<>();

  /** Registers the catalogs, then the single tables. */
  void register(QuiverSession session) {
    for (Path dir : catalogs) {
      session.registerDirectory(dir);
    }
    for (Map.Entry<String, String> table : tables.entrySet()) {
      if (table.getValue().isEmpty()) {
        throw new CliException("--table " + table.getKey() + ": expected NAME=PATH");
      }
      session.registerTable(table.getKey(), table.getValue());
    }
  }
}
