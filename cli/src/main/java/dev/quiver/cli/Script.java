package dev.quiver.cli;

import dev.quiver.cli.format.ResultFormat;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.sql.ddl.DdlParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The statements of one {@code quiver sql} input (the QUERY argument or a {@code -f FILE}), run in
 * order on one session: {@code CREATE TABLE} / {@code DROP TABLE} change the session's tables
 * ({@link QuiverSession#execute}), each query writes its result.
 *
 * <pre>
 *   CREATE TABLE clicks (...) WITH ('connector' = 'kafka', ...);   registers clicks
 *   SELECT user_id, url FROM clicks WHERE ...;                       prints rows as they arrive
 * </pre>
 *
 * A query over a stream (an unbounded table) prints each batch as its checkpoint completes and runs
 * until the stream ends or Ctrl-C cancels it; it is printed as CSV unless a line format is chosen,
 * since a table is printed when the result is complete and a stream's never is.
 *
 * <pre>
 *   CREATE TABLE totals (...) WITH ('connector' = 'kafka', ...);    registers totals
 *   INSERT INTO totals SELECT ... FROM clicks GROUP BY ...;          writes totals, exactly once
 * </pre>
 *
 * An {@code INSERT INTO} runs its job until it ends, then prints the rows it wrote; over a stream
 * it runs until Ctrl-C cancels it (what its checkpoints committed stays written), and the
 * statements after it wait for it.
 *
 * <p>With {@link Savepoints}, the script's one query starts from a savepoint ({@code
 * --from-savepoint}), and a signal stops a streaming query with a savepoint ({@code
 * --savepoint-dir}, {@link SavepointOnStop}): its result is written to its end, and no statement
 * after it runs.
 */
final class Script {
  private Script() {}

  /** The statements of {@code text}, split at {@code ;} outside quotes and comments. */
  static List<String> statements(String text) {
    Statements splitter = new Statements();
    List<String> statements = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      statements.addAll(splitter.add(line));
    }
    if (!splitter.pending().isEmpty()) {
      statements.add(splitter.pending());
    }
    return statements;
  }

  /**
   * How the query of a script starts and stops.
   *
   * @param from the savepoint the query starts from ({@code --from-savepoint}), or null
   * @param onStop what stops a streaming query with a savepoint ({@code --savepoint-dir}), or null
   */
  record Savepoints(String from, SavepointOnStop onStop) {
    static final Savepoints NONE = new Savepoints(null, null);
  }

  /** The statements of {@code text} that are not {@code CREATE TABLE} / {@code DROP TABLE}. */
  static List<String> queries(String text) {
    return statements(text).stream().filter(statement -> !DdlParser.isDdl(statement)).toList();
  }

  /**
   * Runs the statements of {@code text}; each query's result goes to {@code output} in {@code
   * format} (null: a table, or CSV for a stream).
   *
   * @return the rows of all queries
   */
  static long run(
      QuiverSession session,
      String text,
      ResultFormat format,
      ResultOutput output,
      Progress progress)
      throws IOException {
    return run(session, text, format, output, progress, Savepoints.NONE);
  }

  /**
   * Runs the statements of {@code text} as {@link #run(QuiverSession, String, ResultFormat,
   * ResultOutput, Progress)} does, its query started from and stopped with a savepoint as {@code
   * savepoints} says; the caller has checked that a script started from a savepoint has one query.
   *
   * @return the rows of all queries
   */
  static long run(
      QuiverSession session,
      String text,
      ResultFormat format,
      ResultOutput output,
      Progress progress,
      Savepoints savepoints)
      throws IOException {
    long rows = 0;
    SavepointOnStop onStop = savepoints.onStop();
    for (String statement : statements(text)) {
      if (onStop != null && onStop.stopped()) {
        break; // the user stopped the script with its query
      }
      if (DdlParser.isDdl(statement)) {
        session.execute(statement);
        continue;
      }
      try (SqlResult result = start(session, statement, savepoints.from())) {
        if (onStop != null) {
          onStop.running(result);
        }
        Optional<String> table = result.insertInto();
        if (table.isPresent() && result.streaming()) {
          progress.note(
              "quiver: INSERT INTO "
                  + table.get()
                  + " runs as job "
                  + result.jobId()
                  + " until Ctrl-C stops it");
        }
        // An INSERT's result is one row at its end, the rows written: never a stream of rows.
        ResultFormat chosen =
            table.isPresent()
                ? (format == null ? ResultFormat.TABLE : format)
                : format(format, result.streaming());
        rows +=
            ResultStreaming.write(
                session, result, chosen.writer(output.writer()), output, progress);
      } finally {
        if (onStop != null) {
          onStop.running(null);
        }
      }
    }
    return rows;
  }

  private static SqlResult start(QuiverSession session, String statement, String savepoint) {
    return savepoint == null
        ? session.execute(statement).orElseThrow()
        : session.sqlFromSavepoint(statement, savepoint);
  }

  private static ResultFormat format(ResultFormat format, boolean streaming) {
    if (!streaming) {
      return format == null ? ResultFormat.TABLE : format;
    }
    if (format == ResultFormat.TABLE) {
      throw new CliException(
          "--format table prints a result once it is complete, and a stream's never is: use"
              + " --format csv or json");
    }
    return format == null ? ResultFormat.CSV : format;
  }
}
