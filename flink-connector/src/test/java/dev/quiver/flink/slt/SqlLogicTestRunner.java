package dev.quiver.flink.slt;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.QuiverException;
import dev.quiver.flink.session.PlannedQuery;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs {@code .slt} records on Quiver sessions. Sessions are expensive (a MiniCluster each), so one
 * session serves every file: before a record runs, the tables its file declared above it are
 * written (once, as Parquet under {@code dataDir}) and registered in the session unless they
 * already are. The catalog has no DROP, so a table of an earlier file stays visible under its name;
 * every file declares the tables it reads.
 */
final class SqlLogicTestRunner {
  private final Path dataDir;
  private final Map<SltRecord.Location, Path> written = new HashMap<>();
  private final Map<QuiverSession, Map<String, SltRecord.Location>> registered = new HashMap<>();

  SqlLogicTestRunner(Path dataDir) {
    this.dataDir = requireNonNull(dataDir, "dataDir is null");
  }

  /**
   * Runs {@code record} of a file whose records are {@code file} on {@code session}.
   *
   * @throws AssertionError if the result or error is not the expected one
   */
  synchronized void run(List<SltRecord> file, SltRecord record, QuiverSession session)
      throws Exception {
    if (record instanceof SltRecord.Table) {
      throw new IllegalArgumentException("a table is not run on its own: " + record.location());
    }
    registerTables(file, record, session);
    if (record instanceof SltRecord.Query query) {
      runQuery(query, session);
    } else if (record instanceof SltRecord.StatementError statement) {
      runStatementError(statement, session);
    }
  }

  private void runQuery(SltRecord.Query query, QuiverSession session) throws InterruptedException {
    List<String> actual;
    try (SqlResult result = session.run(prepare(query, session))) {
      String types = ResultText.checkTypes(query.types(), result.schema());
      if (!types.isEmpty()) {
        throw failure(query, session, types, null);
      }
      actual = ResultText.lines(result.rows());
    } catch (RuntimeException e) {
      throw failure(query, session, "the query failed: " + e, e);
    }
    List<String> expected = new ArrayList<>(query.expected());
    if (query.rowsort()) {
      actual.sort(null);
      expected.sort(null);
    } else if (actual.size() > 1 && !hasOrderBy(query.sql())) {
      throw failure(query, session, "a query of several rows needs ORDER BY or rowsort", null);
    }
    if (!actual.equals(expected)) {
      throw failure(
          query,
          session,
          "wrong result\n-- expected:\n"
              + String.join("\n", expected)
              + "\n-- actual:\n"
              + String.join("\n", actual),
          null);
    }
  }

  private static void runStatementError(SltRecord.StatementError statement, QuiverSession session)
      throws InterruptedException {
    List<List<Object>> rows;
    try (SqlResult result = session.run(prepare(statement, session))) {
      rows = result.rows();
    } catch (QuiverException e) {
      if (!e.getMessage().contains(statement.message())) {
        throw failure(
            statement,
            session,
            "the error does not contain \"" + statement.message() + "\": " + e.getMessage(),
            e);
      }
      return;
    } catch (RuntimeException e) {
      throw failure(statement, session, "failed, but not with a QuiverException: " + e, e);
    }
    throw failure(
        statement,
        session,
        "expected an error, got:\n" + String.join("\n", ResultText.lines(rows)),
        null);
  }

  private void registerTables(List<SltRecord> file, SltRecord record, QuiverSession session)
      throws Exception {
    Map<String, SltRecord.Table> visible = new LinkedHashMap<>();
    for (SltRecord earlier : file) {
      if (earlier == record) {
        break;
      }
      if (earlier instanceof SltRecord.Table table) {
        visible.put(table.name().toLowerCase(Locale.ROOT), table);
      }
    }
    Map<String, SltRecord.Location> current =
        registered.computeIfAbsent(session, s -> new HashMap<>());
    for (Map.Entry<String, SltRecord.Table> entry : visible.entrySet()) {
      SltRecord.Table table = entry.getValue();
      if (!table.location().equals(current.get(entry.getKey()))) {
        session.registerTable(table.name(), path(table).toString());
        current.put(entry.getKey(), table.location());
      }
    }
  }

  private Path path(SltRecord.Table table) throws Exception {
    Path path = written.get(table.location());
    if (path == null) {
      String name = table.location().file().replace(".slt", "") + "-" + table.location().line();
      path = ParquetTables.write(table, dataDir.resolve(name).resolve(table.name()));
      written.put(table.location(), path);
    }
    return path;
  }

  /**
   * The record's query, planned by {@code session} as {@link QuiverSession#sql} plans it, under the
   * {@link PlanningGuard}; a planning error is thrown as the session throws it.
   */
  private static PlannedQuery prepare(SltRecord record, QuiverSession session)
      throws InterruptedException {
    try {
      return PlanningGuard.prepare(session, sql(record));
    } catch (PlanningGuard.Runaway e) {
      throw failure(record, session, e.getMessage(), e);
    }
  }

  private static boolean hasOrderBy(String sql) {
    return sql.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ").contains("ORDER BY");
  }

  private static String sql(SltRecord record) {
    return record instanceof SltRecord.Query query
        ? query.sql()
        : ((SltRecord.StatementError) record).sql();
  }

  private static AssertionError failure(
      SltRecord record, QuiverSession session, String message, Throwable cause) {
    return new AssertionError(
        record.location()
            + " at parallelism "
            + session.parallelism()
            + ": "
            + message
            + "\n-- sql:\n"
            + sql(record),
        cause);
  }
}
