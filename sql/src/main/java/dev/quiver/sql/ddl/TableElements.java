package dev.quiver.sql.ddl;

import dev.quiver.error.QuiverException;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.TableColumns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The columns, watermark and primary key of a {@code CREATE TABLE} as they are parsed, in any order
 * (Flink allows the watermark before a column it names); {@link #columns()} and {@link #eventTime}
 * check them against each other once all are read (a computed column's expression may name a column
 * declared after it). Column names are unique ignoring case, as the catalog's table names.
 */
final class TableElements {
  private final String table;
  private final List<TableColumns.Declared> columns = new ArrayList<>();
  private final Map<String, TableColumns.Declared> byName = new HashMap<>();
  private final List<Token> keyTokens = new ArrayList<>();
  private final List<String> keyColumns = new ArrayList<>();
  private Token watermarkToken;
  private EventTime eventTime;
  private Token primaryKeyToken;
  private final Map<String, Token> computedTokens = new HashMap<>();
  private String last = "";

  TableElements(String table) {
    this.table = table;
  }

  void column(Token token, Column column) {
    add(token, TableColumns.Declared.physical(column));
  }

  void computed(Token token, String column, String expression) {
    // Typed once every column is read: the expression may name a column declared after it.
    add(token, TableColumns.Declared.computed(Column.of(column, SqlType.BOOLEAN), expression));
    computedTokens.put(column, token);
  }

  void metadata(Token token, Column column, String key, boolean virtual) {
    add(token, TableColumns.Declared.metadata(column, key, virtual));
  }

  private void add(Token token, TableColumns.Declared column) {
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

  /** The columns, computed ones typed by their expressions. */
  TableColumns columns() {
    check();
    List<TableColumns.Declared> typed = new ArrayList<>();
    for (TableColumns.Declared column : columns) {
      if (column.kind() != TableColumns.Kind.COMPUTED) {
        typed.add(column);
        continue;
      }
      try {
        typed.add(
            TableColumns.declare(table, typedPlus(column)).column(column.name()).orElseThrow());
      } catch (QuiverException e) {
        throw new QuiverException(
            e.code(),
            TokenCursor.where(computedTokens.get(column.name()))
                + e.getMessage().replaceFirst("^\\[[A-Z_]+\\] ", ""),
            e);
      }
    }
    return TableColumns.of(table, typed);
  }

  // The non-computed columns and {@code computed}: the row its expression is compiled over.
  private List<TableColumns.Declared> typedPlus(TableColumns.Declared computed) {
    List<TableColumns.Declared> row = new ArrayList<>();
    for (TableColumns.Declared column : columns) {
      if (column.kind() != TableColumns.Kind.COMPUTED || column == computed) {
        row.add(column);
      }
    }
    return row;
  }

  private void check() {
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
  }

  /**
   * The PRIMARY KEY columns, spelled as their columns were declared (call after {@link #columns},
   * which checks that they are columns); empty without a PRIMARY KEY.
   */
  List<String> primaryKey() {
    List<String> key = new ArrayList<>(keyColumns.size());
    for (String column : keyColumns) {
      key.add(byName.get(column.toLowerCase(Locale.ROOT)).name());
    }
    return key;
  }

  Optional<EventTime> eventTime(TableColumns typed) {
    if (eventTime == null) {
      return Optional.empty();
    }
    TableColumns.Declared declared = byName.get(eventTime.column().toLowerCase(Locale.ROOT));
    if (declared == null) {
      throw TokenCursor.invalid(
          watermarkToken,
          "the WATERMARK column " + eventTime.column() + " is not a column of " + table);
    }
    Column column = typed.column(declared.name()).orElseThrow().column();
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
