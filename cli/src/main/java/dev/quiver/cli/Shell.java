package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.TableResultWriter;
import dev.quiver.cli.format.TextTable;
import dev.quiver.flink.session.AnalyzeText;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.plan.node.Column;
import dev.quiver.sql.CatalogTable;
import dev.quiver.sql.ddl.DdlParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What {@code quiver shell} does with each statement, on one session: SQL queries print their
 * result as a table (the first {@code maxRows} rows, and the count of all), {@code explain} and
 * {@code explain analyze} print the stage graph, meta-commands list and describe tables, {@code
 * CREATE TABLE} / {@code DROP TABLE} change the session's tables; then the statement's time. A
 * query over a stream prints rows as they arrive until Ctrl-C. A statement that fails prints its
 * one line on stderr and the shell goes on.
 *
 * <p>{@link #cancel()}, from another thread (Ctrl-C), cancels the running query's Flink job; the
 * statement then ends with {@code query cancelled} and the shell goes on.
 */
final class Shell {
  static final String HELP =
      String.join(
          "\n",
          "SQL statements end with ';' and may span lines. Ctrl-C cancels the running query"
              + " (or clears the line); Ctrl-D or \\q quits.",
          "  \\d              list the tables",
          "  \\d TABLE        describe a table: its columns and types",
          "  \\timing [on|off] show each statement's time (on by default)",
          "  \\help, \\?       this help",
          "  \\q              quit",
          "  explain SELECT ...;          the stages the query would run",
          "  CREATE TABLE t (...) WITH ('connector' = 'kafka' | 'filesystem', ...);",
          "                               a stream, as Flink SQL declares it; DROP TABLE t;",
          "  INSERT INTO t SELECT ...;    write the rows into t, exactly once (over a stream:",
          "                               until Ctrl-C)",
          "  explain analyze SELECT ...;  run it: rows, bytes and time per stage and task",
          "");

  private static final Pattern EXPLAIN = Pattern.compile("(?is)explain\\s+(analyze\\s+)?(.*)");

  private final QuiverSession session;
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean interactive;
  private final int maxRows;
  private final AtomicReference<SqlResult> running = new AtomicReference<>();
  private final AtomicBoolean cancelled = new AtomicBoolean();
  private boolean timing = true;
  private int failures;
  private Runnable afterBatch = () -> {}; // tests: holds the reader at a known point
  private Consumer<String> pager; // null: results stream straight to out

  Shell(QuiverSession session, PrintWriter out, PrintWriter err, boolean interactive, int maxRows) {
    this.session = requireNonNull(session, "session is null");
    this.out = requireNonNull(out, "out is null");
    this.err = requireNonNull(err, "err is null");
    this.interactive = interactive;
    this.maxRows = maxRows;
  }

  /**
   * Shows each finished result table through {@code value} (a terminal's pager) instead of
   * streaming it to the output as its batches come: the table is at most {@code maxRows} rows.
   */
  void pager(Consumer<String> value) {
    this.pager = requireNonNull(value, "value is null");
  }

  /** The statements that failed so far. */
  int failures() {
    return failures;
  }

  /**
   * Runs one statement or meta-command.
   *
   * @return false when the shell should stop ({@code \q})
   */
  boolean execute(String statement) {
    String text = statement.strip();
    if (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1).strip();
    }
    if (text.isEmpty()) {
      return true;
    }
    long start = System.nanoTime();
    cancelled.set(false);
    try {
      if (text.startsWith("\\")) {
        return meta(text);
      }
      Matcher explain = EXPLAIN.matcher(text);
      if (DdlParser.isDdl(text)) {
        session.execute(text);
        // The statement's tag, as psql prints it: CREATE TABLE, DROP TABLE.
        out.println(text.regionMatches(true, 0, "CREATE", 0, 6) ? "CREATE TABLE" : "DROP TABLE");
      } else if (explain.matches()) {
        print(
            explain.group(1) != null
                ? analyze(explain.group(2))
                : session.explain(explain.group(2)));
      } else {
        start += query(text); // not the time the result was on the pager's screen
      }
      if (timing) {
        out.printf(Locale.ROOT, "Time: %.3f s%n", (System.nanoTime() - start) / 1e9);
      }
    } catch (RuntimeException | IOException e) {
      failures++;
      out.flush();
      err.println("quiver: " + (cancelled.get() ? "query cancelled" : Errors.message(e)));
    } finally {
      out.flush();
      err.flush();
    }
    return true;
  }

  /** Runs {@code action} after each result batch a query reads (for tests). */
  void afterBatch(Runnable action) {
    afterBatch = requireNonNull(action, "action is null");
  }

  /** Cancels the running query, if any (from any thread); the next one runs as usual. */
  void cancel() {
    cancelled.set(true);
    SqlResult result = running.get();
    if (result != null) {
      result.cancel();
    }
  }

  /** Runs {@code sql} and shows its result; returns the nanoseconds it was on the pager. */
  private long query(String sql) throws IOException {
    StringWriter page = pager == null ? null : new StringWriter();
    try (Progress progress = Progress.start(err, interactive, "query");
        SqlResult result = start(sql)) {
      ResultStreaming.watchStages(session, result, progress);
      PrintWriter target = page == null ? out : new PrintWriter(page);
      TableResultWriter writer = new TableResultWriter(target, maxRows);
      writer.begin(result.schema());
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          writer.write(batch);
          progress.addRows(batch.getRowCount());
        }
        afterBatch.run();
      }
      progress.quiet(writer::end);
      target.flush();
    } finally {
      running.set(null);
    }
    if (page == null) {
      return 0;
    }
    long shown = System.nanoTime();
    pager.accept(page.toString()); // the progress line is gone: the pager has the screen
    return System.nanoTime() - shown;
  }

  private String analyze(String sql) {
    long start = System.nanoTime();
    long rows = 0;
    try (Progress progress = Progress.start(err, interactive, "explain analyze");
        SqlResult result = start(sql)) {
      ResultStreaming.watchStages(session, result, progress);
      while (result.hasNext()) {
        try (VectorSchemaRoot batch = result.next()) {
          rows += batch.getRowCount();
          progress.addRows(batch.getRowCount());
        }
      }
      return AnalyzeText.render(
          result.graph(), result.taskStats(), rows, System.nanoTime() - start);
    } finally {
      running.set(null);
    }
  }

  /** Starts {@code sql}, cancelled at once if Ctrl-C came while it was planned. */
  private SqlResult start(String sql) {
    SqlResult result = session.execute(sql).orElseThrow(); // a query, or an INSERT
    running.set(result);
    if (cancelled.get()) {
      result.cancel();
    }
    return result;
  }

  private boolean meta(String text) throws IOException {
    String[] words = text.split("\\s+");
    switch (words[0]) {
      case "\\q", "\\quit" -> {
        return false;
      }
      case "\\?", "\\h", "\\help" -> out.print(HELP);
      case "\\timing" -> {
        timing = words.length > 1 ? words[1].equalsIgnoreCase("on") : !timing;
        out.println("Timing is " + (timing ? "on." : "off."));
      }
      case "\\d", "\\dt" -> {
        if (words.length > 1) {
          describe(words[1]);
        } else {
          listTables();
        }
      }
      default -> throw new CliException("unknown command " + words[0] + ": try \\help");
    }
    return true;
  }

  private void listTables() throws IOException {
    TextTable table =
        new TextTable(List.of("table", "columns", "rows"), new boolean[] {false, true, true});
    session.catalog().tables().stream()
        .sorted(Comparator.comparing(t -> t.name().toLowerCase(Locale.ROOT)))
        .forEach(
            t ->
                table.add(
                    t.name(),
                    Integer.toString(t.schema().size()),
                    String.format(Locale.ROOT, "%,d", t.rowCount())));
    table.render(out);
    out.println(rows(table.size()));
  }

  private void describe(String name) throws IOException {
    String unquoted = name.replaceAll("^\"|\"$", "");
    Optional<CatalogTable> found = session.catalog().table(unquoted);
    if (found.isEmpty()) {
      throw new CliException("no table named " + unquoted + ": \\d lists them");
    }
    TextTable table =
        new TextTable(List.of("column", "type", "nullable"), new boolean[] {false, false, false});
    for (Column column : found.get().schema().columns()) {
      table.add(column.name(), column.type().toString(), column.nullable() ? "yes" : "no");
    }
    out.println("Table " + found.get().name());
    table.render(out);
  }

  private void print(String text) {
    out.print(text.endsWith("\n") ? text : text + "\n");
  }

  private static String rows(int count) {
    return count == 1 ? "(1 row)" : "(" + count + " rows)";
  }
}
