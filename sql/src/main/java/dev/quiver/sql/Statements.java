package dev.quiver.sql;

import dev.quiver.error.QuiverException;
import dev.quiver.sql.ddl.DdlParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;

/**
 * Quiver runs queries only. The Babel parser also parses DDL ({@code CREATE TABLE}, {@code DROP
 * VIEW}), DML ({@code INSERT}, {@code UPDATE}, {@code DELETE}, {@code MERGE}), {@code SET} / {@code
 * ALTER ... SET}, {@code EXPLAIN PLAN FOR} and {@code DESCRIBE}; the validator then fails on them
 * with an assertion ("Was not expecting value 'CREATE_TABLE'") or plans something Quiver cannot
 * run. So every statement that is not a query is rejected right after parsing, by its {@link
 * SqlKind}, naming the statement. Statements the parser does not know ({@code CREATE VIEW}, {@code
 * DROP TABLE}, {@code TRUNCATE}) get the same answer instead of a syntax error: whatever their
 * syntax, Quiver would not run them. {@code CREATE TABLE} and {@code DROP TABLE} are run by a
 * session ({@link DdlParser}, {@code QuiverSession.execute}), not planned, and {@code INSERT} is
 * planned by {@link SqlPlanner#planInsert} and run by a session: their message says so.
 */
final class Statements {
  // The words that start a statement which is not a query (a query starts with SELECT, WITH,
  // VALUES, TABLE or a parenthesis).
  private static final Set<String> VERBS =
      Set.of(
          "CREATE",
          "DROP",
          "ALTER",
          "TRUNCATE",
          "INSERT",
          "UPSERT",
          "UPDATE",
          "DELETE",
          "MERGE",
          "SET",
          "RESET",
          "EXPLAIN",
          "DESCRIBE",
          "SHOW",
          "USE",
          "GRANT",
          "REVOKE",
          "COMMIT",
          "ROLLBACK",
          "BEGIN",
          "START",
          "CALL",
          "COPY",
          "ANALYZE",
          "VACUUM",
          "COMMENT");
  // Verbs whose statement is named with the kind of object it acts on: CREATE VIEW, DROP TABLE.
  private static final Set<String> DDL = Set.of("CREATE", "DROP", "ALTER", "TRUNCATE");
  // Words between a DDL verb and its object that do not name the statement.
  private static final Set<String> MODIFIERS =
      Set.of("OR", "REPLACE", "TEMPORARY", "TEMP", "GLOBAL", "LOCAL", "UNIQUE", "IF", "NOT");

  private Statements() {}

  /**
   * The name of the statement {@code sql} when it starts like a statement that is not a query, for
   * text the parser rejected: {@code DROP VIEW}, {@code CREATE MATERIALIZED VIEW}.
   */
  static Optional<String> nonQuery(String sql) {
    List<String> words = words(withoutLeadingComments(sql), 6);
    if (words.isEmpty() || !VERBS.contains(words.get(0))) {
      return Optional.empty();
    }
    String verb = words.get(0);
    if (!DDL.contains(verb)) {
      return Optional.of(verb);
    }
    int i = 1;
    while (i < words.size() && MODIFIERS.contains(words.get(i))) {
      i++;
    }
    if (i == words.size()) {
      return Optional.of(verb);
    }
    String object = words.get(i);
    if (object.equals("MATERIALIZED") && i + 1 < words.size()) {
      object += " " + words.get(i + 1);
    }
    return Optional.of(verb + " " + object);
  }

  /** Fails with "not supported: STATEMENT" unless {@code parsed} is a query. */
  static void checkQuery(SqlNode parsed, String sql) {
    if (!parsed.getKind().belongsTo(SqlKind.QUERY)) {
      throw unsupported(name(parsed, sql), sql);
    }
  }

  /**
   * "not supported: STATEMENT"; for {@code CREATE TABLE} / {@code DROP TABLE}, which a session runs
   * but a query planner cannot, where to send them instead.
   */
  static QuiverException unsupported(String statement, String sql) {
    return DdlParser.isDdl(sql) || statement.equals("INSERT")
        ? Errors.unsupported(statement + " (use QuiverSession.execute or the CLI)")
        : Errors.unsupported(statement);
  }

  /** What the statement is called, as a user wrote it: {@code CREATE TABLE}, {@code INSERT}. */
  static String name(SqlNode statement, String sql) {
    SqlKind kind = statement.getKind();
    return switch (kind) {
      case SET_OPTION -> setOption((SqlSetOption) statement);
      case EXPLAIN -> "EXPLAIN PLAN FOR (use quiver explain, or QuiverSession.explain)";
      case DESCRIBE_TABLE, DESCRIBE_SCHEMA -> "DESCRIBE";
      case PROCEDURE_CALL -> "CALL";
      // DDL Calcite has no kind for: the statement's first two words, as written.
      case OTHER, OTHER_DDL, OTHER_FUNCTION -> nonQuery(sql).orElse(kind.name());
      default -> kind.name().replace('_', ' ');
    };
  }

  private static String setOption(SqlSetOption option) {
    String verb = option.getValue() == null ? "RESET" : "SET";
    return option.getScope() == null
        ? verb
        : "ALTER " + option.getScope().toUpperCase(Locale.ROOT) + " " + verb;
  }

  /** The first {@code count} words of {@code text} (letters, digits, _), upper case. */
  private static List<String> words(String text, int count) {
    List<String> words = new ArrayList<>();
    for (String word : text.strip().split("[^A-Za-z0-9_]+")) {
      if (words.size() == count) {
        break;
      }
      if (!word.isEmpty()) {
        words.add(word.toUpperCase(Locale.ROOT));
      }
    }
    return words;
  }

  private static String withoutLeadingComments(String sql) {
    String text = sql.stripLeading();
    while (true) {
      if (text.startsWith("--")) {
        int end = text.indexOf('\n');
        text = end < 0 ? "" : text.substring(end + 1).stripLeading();
      } else if (text.startsWith("/*")) {
        int end = text.indexOf("*/");
        text = end < 0 ? "" : text.substring(end + 2).stripLeading();
      } else {
        return text;
      }
    }
  }
}
