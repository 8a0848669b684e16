package dev.quiver.sql.ddl;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The columns, watermark and primary key of a {@code CREATE TABLE} as they are parsed, in any order
 * (Flink allows the watermark before a column it names); {@link #schema()} and {@link #eventTime()}
 * check them against each other once all are read. Column names are unique ignoring case, as the
 * catalog's table names.
 */
final class TableElements {
  private final String table;
  private final List<Column> columns = new ArrayList<>();
  private final Map<String, Column> byName = new HashMap<>();
  private final List<Token> keyTokens = new ArrayList<>();
  private final List<String> keyColumns = new ArrayList<>();
  private Token watermarkToken;
  private EventTime eventTime;
  private Token primaryKeyToken;
  private String last = "";

  TableElements(String table) {
    this.table = table;
  }

  void column(Token token, Column column) {
    if (byName.putIfAbsent(column.name().toLowerCase(Locale.ROOT), column) != null) {
      throw TokenCursor.invalid(
          token, "the column " + column.name() + " is declared twice in " + table);
    }
    columns.add(column);
    last = "column " + column.name();
  }

  void watermark(Token token, EventTime time) {
    if (eventTime != null) {
      throw TokenCursor.invalid(token, "a table has one WATERMARK; " + table + " has two");
    }
    watermarkToken = token;
    eventTime = time;
    last = "the WATERMARK";
  }

  void keyColumn(Token token, String column) {
    keyTokens.add(token);
    keyColumns.add(column);
  }

  void primaryKey(Token token) {
    if (primaryKeyToken != null) {
      throw TokenCursor.invalid(token, "a table has one PRIMARY KEY; " + table + " has two");
    }
    primaryKeyToken = token;
    last = "the PRIMARY KEY";
  }

  /** What was read last, for "expected ',' or ')' after column ts". */
  String last() {
    return last;
  }

  RowSchema schema() {
    if (columns.isEmpty()) {
      throw TokenCursor.invalid(
          primaryKeyToken != null ? primaryKeyToken : watermarkToken,
          "the table " + table + " declares no columns");
    }
    for (int i = 0; i < keyColumns.size(); i++) {
      if (!byName.containsKey(keyColumns.get(i).toLowerCase(Locale.ROOT))) {
        throw TokenCursor.invalid(
            keyTokens.get(i),
            "the PRIMARY KEY column " + keyColumns.get(i) + " is not a column of " + table);
      }
    }
    return new RowSchema(columns);
  }

  /**
   * The PRIMARY KEY columns, spelled as their columns were declared (call after {@link #schema},
   * which checks that they are columns); empty without a PRIMARY KEY.
   */
  List<String> primaryKey() {
    List<String> key = new ArrayList<>(keyColumns.size());
    for (String column : keyColumns) {
      key.add(byName.get(column.toLowerCase(Locale.ROOT)).name());
    }
    return key;
  }

  Optional<EventTime> eventTime() {
    if (eventTime == null) {
      return Optional.empty();
    }
    Column column = byName.get(eventTime.column().toLowerCase(Locale.ROOT));
    if (column == null) {
      throw TokenCursor.invalid(
          watermarkToken,
          "the WATERMARK column " + eventTime.column() + " is not a column of " + table);
    }
    SqlType.Kind kind = column.type().kind();
    if (kind != SqlType.Kind.TIMESTAMP && kind != SqlType.Kind.BIGINT) {
      throw TokenCursor.invalid(
          watermarkToken,
          "the WATERMARK column "
              + column.name()
              + " is "
              + column.type()
              + "; it must be a TIMESTAMP (or a BIGINT of milliseconds since the epoch)");
    }
    // The column's declared spelling: the catalog matches event-time columns by exact name.
    return Optional.of(new EventTime(column.name(), eventTime.watermarkDelay()));
  }
}
