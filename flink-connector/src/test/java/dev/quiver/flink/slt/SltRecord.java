package dev.quiver.flink.slt;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One record of a {@code .slt} file: a table to create, a query with its expected rows, or a
 * statement that must fail. Every record knows where it was written, so that a failure names the
 * line to look at, and which engines skip it and why (a skip is a known bug, never silent).
 */
sealed interface SltRecord permits SltRecord.Table, SltRecord.Query, SltRecord.StatementError {

  /** The file and line the record starts on. */
  Location location();

  /** The engines that skip this record ({@code quiver}, {@code duckdb}) and why. */
  Map<String, String> skips();

  /** Why {@code engine} skips this record, if it does. */
  default Optional<String> skipReason(String engine) {
    return Optional.ofNullable(skips().get(engine));
  }

  /** Where a record starts: the file name (without directories) and its 1-based line. */
  record Location(String file, int line) {
    public Location {
      requireNonNull(file, "file is null");
    }

    @Override
    public String toString() {
      return file + ":" + line;
    }
  }

  /**
   * {@code table name (column type, ...)} and its rows: the runner writes them as Parquet files and
   * registers them as {@code name} for the records after it in the same file.
   */
  record Table(
      Location location,
      Map<String, String> skips,
      String name,
      List<TableColumn> columns,
      List<List<Object>> rows)
      implements SltRecord {
    public Table {
      requireNonNull(location, "location is null");
      skips = Map.copyOf(requireNonNull(skips, "skips is null"));
      requireNonNull(name, "name is null");
      columns = List.copyOf(requireNonNull(columns, "columns is null"));
      // Only the outer list is copied: a row holds NULLs, which List.copyOf rejects.
      rows = List.copyOf(requireNonNull(rows, "rows is null"));
    }
  }

  /**
   * {@code query <type letters> [rowsort|nosort]}: {@code sql} must return exactly {@code
   * expected}, one rendered line per row (see {@link ResultText}); with {@code rowsort} both sides
   * are sorted as text first.
   */
  record Query(
      Location location,
      Map<String, String> skips,
      String types,
      boolean rowsort,
      String sql,
      List<String> expected)
      implements SltRecord {
    public Query {
      requireNonNull(location, "location is null");
      skips = Map.copyOf(requireNonNull(skips, "skips is null"));
      requireNonNull(types, "types is null");
      requireNonNull(sql, "sql is null");
      expected = List.copyOf(requireNonNull(expected, "expected is null"));
    }
  }

  /**
   * {@code statement error <substring>}: {@code sql} must fail with a {@code QuiverException} whose
   * message contains {@code message}.
   */
  record StatementError(Location location, Map<String, String> skips, String message, String sql)
      implements SltRecord {
    public StatementError {
      requireNonNull(location, "location is null");
      skips = Map.copyOf(requireNonNull(skips, "skips is null"));
      requireNonNull(message, "message is null");
      requireNonNull(sql, "sql is null");
    }
  }
}
