package dev.quiver.sql.ddl;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.TableColumns;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses the DDL Quiver runs, Flink SQL's {@code CREATE TABLE} and {@code DROP TABLE}:
 *
 * <pre>
 * CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (
 *     col TYPE [NOT NULL | NULL] [COMMENT '...'], ...           a physical column
 *     col AS expression [COMMENT '...']                          a computed column
 *     col TYPE [NOT NULL] METADATA [FROM 'key'] [VIRTUAL] [COMMENT '...']   a metadata column
 *     [, WATERMARK FOR col AS col [- INTERVAL 'n' UNIT]]
 *     [, [CONSTRAINT c] PRIMARY KEY (col, ...) NOT ENFORCED]
 * ) [COMMENT '...'] WITH ('key' = 'value', ...)
 *
 * DROP [TEMPORARY] TABLE [IF EXISTS] name
 * </pre>
 *
 * <p>Hand-written (a small tokenizer, {@link DdlLexer}, a cursor over its tokens, {@link
 * TokenCursor}, and one method per clause) rather than Calcite's parser: Calcite's core parser has
 * no {@code WATERMARK} or {@code WITH} options (they are Flink's own parser extension), and the
 * Babel parser Quiver uses for queries parses {@code CREATE TABLE} into nodes that keep neither;
 * the statement's shape is fixed and small, so one screen of recursive descent gives exact "line L,
 * column C" errors for every mistake without a grammar build step. Types are the ones {@link
 * SqlType} computes with, spelled as Flink spells them ({@link DdlTypes}).
 *
 * <p>Errors are {@link QuiverException}s with one line naming where: {@link ErrorCode#SYNTAX_ERROR}
 * for text of the wrong shape, {@link ErrorCode#INVALID_QUERY} for a well-formed declaration that
 * means nothing (a duplicate column, a watermark on a column that is not a declared TIMESTAMP or
 * BIGINT, a computed column's expression that does not compile), {@link
 * ErrorCode#UNSUPPORTED_FEATURE} for Flink declarations Quiver cannot run yet (qualified names).
 *
 * <p>A computed column's expression is any scalar expression of Quiver's SQL over the table's
 * physical and metadata columns, kept as its text and typed by compiling it ({@link
 * TableColumns#declare}); which metadata keys exist is the connector's to say.
 */
public final class DdlParser {
  private static final Pattern DDL_START =
      Pattern.compile(
          "(?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*(?:CREATE|DROP)\\s+(?:TEMPORARY\\s+)?TABLE\\b",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private final TokenCursor in;

  private DdlParser(String text) {
    this.in = new TokenCursor(text);
  }

  /**
   * The DDL statement {@code text} is, or empty if it does not start with {@code CREATE [TEMPORARY]
   * TABLE} or {@code DROP [TEMPORARY] TABLE} (a query, or a statement Quiver does not run: those
   * are the SQL planner's to answer).
   *
   * @throws QuiverException if it starts like one of them but is not a valid one
   */
  public static Optional<DdlStatement> parse(String text) {
    if (!isDdl(text)) {
      return Optional.empty();
    }
    return Optional.of(new DdlParser(text).statement());
  }

  /**
   * Whether {@code text} starts with {@code CREATE [TEMPORARY] TABLE} or {@code DROP [TEMPORARY]
   * TABLE}, after white space and comments. Decided on the first words alone, so that a statement
   * with a mistake further on still gets this parser's error.
   */
  public static boolean isDdl(String text) {
    return DDL_START.matcher(text).lookingAt();
  }

  private DdlStatement statement() {
    boolean create = in.peek().is("CREATE");
    in.take();
    in.accept("TEMPORARY");
    in.expect("TABLE");
    DdlStatement statement;
    if (create) {
      boolean ifNotExists = in.accept("IF");
      if (ifNotExists) {
        in.expect("NOT");
        in.expect("EXISTS");
      }
      statement = createTable(ifNotExists);
    } else {
      boolean ifExists = in.accept("IF");
      if (ifExists) {
        in.expect("EXISTS");
      }
      statement = new DropTable(tableName(), ifExists);
    }
    in.acceptSymbol(';');
    if (in.peek().kind() != Token.Kind.END) {
      throw TokenCursor.syntax(
          in.peek(), "expected the end of the statement, found " + in.peek().describe());
    }
    return statement;
  }

  private CreateTable createTable(boolean ifNotExists) {
    String name = tableName();
    if (in.peek().is("AS") || in.peek().is("LIKE")) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          TokenCursor.where(in.peek())
              + "CREATE TABLE ... "
              + in.peek().text().toUpperCase(Locale.ROOT)
              + " is not supported: declare the columns and WITH options of "
              + name);
    }
    in.expectSymbol('(', "after the table name " + name);
    TableElements elements = new TableElements(name);
    do {
      tableElement(elements);
      if (!in.peek().isSymbol(',') && !in.peek().isSymbol(')')) {
        throw TokenCursor.syntax(
            in.peek(),
            "expected ',' or ')' after " + elements.last() + ", found " + in.peek().describe());
      }
    } while (in.acceptSymbol(','));
    in.expectSymbol(')', "");
    if (in.accept("COMMENT")) {
      in.string("after COMMENT");
    }
    if (!in.accept("WITH")) {
      throw TokenCursor.syntax(
          in.peek(),
          "expected WITH ('connector' = ...) after the columns of "
              + name
              + ", found "
              + in.peek().describe());
    }
    TableColumns columns = elements.columns();
    return new CreateTable(
        name, columns, elements.eventTime(columns), elements.primaryKey(), options(), ifNotExists);
  }

  // A column, the watermark or the primary key.
  private void tableElement(TableElements elements) {
    Token start = in.peek();
    if (start.is("WATERMARK")) {
      in.take();
      elements.watermark(start, watermark());
    } else if (start.is("PRIMARY") || start.is("CONSTRAINT")) {
      if (in.accept("CONSTRAINT")) {
        in.identifier("a constraint name after CONSTRAINT");
      }
      in.expect("PRIMARY");
      in.expect("KEY");
      in.expectSymbol('(', "after PRIMARY KEY");
      do {
        Token column = in.peek();
        elements.keyColumn(column, in.identifier("a column name"));
      } while (in.acceptSymbol(','));
      in.expectSymbol(')', "after the PRIMARY KEY columns");
      if (!in.accept("NOT")) {
        throw TokenCursor.syntax(
            in.peek(),
            "expected NOT ENFORCED after PRIMARY KEY (...): Flink and Quiver do not check keys");
      }
      in.expect("ENFORCED");
      elements.primaryKey(start);
    } else {
      Token nameToken = in.peek();
      String column = in.identifier("a column name, WATERMARK or PRIMARY KEY");
      if (in.accept("AS")) {
        String expression = in.expression("the expression of computed column " + column);
        comment();
        elements.computed(nameToken, column, expression);
        return;
      }
      SqlType type = DdlTypes.parse(in, column);
      boolean nullable = true;
      if (in.accept("NOT")) {
        in.expect("NULL");
        nullable = false;
      } else {
        in.accept("NULL");
      }
      if (in.accept("METADATA")) {
        String key = column;
        if (in.accept("FROM")) {
          key = in.string("after METADATA FROM (the metadata key, e.g. 'timestamp')");
        }
        boolean virtual = in.accept("VIRTUAL");
        comment();
        // Nullable whatever the type says: a record may lack it (a Kafka record's timestamp).
        elements.metadata(nameToken, new Column(column, type, true), key, virtual);
        return;
      }
      comment();
      elements.column(nameToken, new Column(column, type, nullable));
    }
  }

  private void comment() {
    if (in.accept("COMMENT")) {
      in.string("after COMMENT");
    }
  }

  // FOR col AS col [- INTERVAL 'n' UNIT]
  private EventTime watermark() {
    in.expect("FOR");
    Token columnToken = in.peek();
    String column = in.identifier("the event-time column after WATERMARK FOR");
    in.expect("AS");
    Token base = in.peek();
    String expression = in.identifier("the watermark expression " + column + " - INTERVAL ...");
    if (!expression.equals(column)) {
      throw TokenCursor.invalid(
          base,
          "the watermark of "
              + column
              + " must be "
              + column
              + " - INTERVAL '...' UNIT, not an expression of "
              + expression);
    }
    if (!in.acceptSymbol('-')) {
      return new EventTime(column, Duration.ZERO);
    }
    in.expect("INTERVAL");
    Token amountToken = in.peek();
    String amount = in.string("after INTERVAL (the delay, e.g. '5')");
    Token unitToken = in.peek();
    String unit = in.identifier("an interval unit (SECOND, MINUTE, HOUR, DAY, MILLISECOND)");
    return new EventTime(columnToken.text(), delay(amountToken, amount, unitToken, unit));
  }

  private static Duration delay(Token amountToken, String amount, Token unitToken, String unit) {
    long unitMillis =
        switch (unit.toUpperCase(Locale.ROOT)) {
          case "MILLISECOND", "MILLISECONDS" -> 1L;
          case "SECOND", "SECONDS" -> 1_000L;
          case "MINUTE", "MINUTES" -> 60_000L;
          case "HOUR", "HOURS" -> 3_600_000L;
          case "DAY", "DAYS" -> 86_400_000L;
          default ->
              throw TokenCursor.invalid(
                  unitToken,
                  "unknown interval unit "
                      + unit
                      + "; use SECOND, MINUTE, HOUR, DAY or MILLISECOND");
        };
    BigDecimal millis;
    try {
      millis = new BigDecimal(amount.strip()).multiply(BigDecimal.valueOf(unitMillis));
    } catch (NumberFormatException e) {
      throw TokenCursor.invalid(amountToken, "the interval '" + amount + "' is not a number");
    }
    if (millis.signum() < 0 || millis.stripTrailingZeros().scale() > 0) {
      throw TokenCursor.invalid(
          amountToken,
          "the interval '"
              + amount
              + "' "
              + unit
              + " is not a whole number of milliseconds of zero or more");
    }
    return Duration.ofMillis(millis.longValueExact());
  }

  // ('key' = 'value', ...)
  private Map<String, String> options() {
    in.expectSymbol('(', "after WITH");
    Map<String, String> options = new LinkedHashMap<>();
    if (in.peek().isSymbol(')')) {
      throw TokenCursor.syntax(in.peek(), "expected 'connector' = '...' in WITH (...), found ')'");
    }
    do {
      Token keyToken = in.peek();
      String key = in.string("as an option key in WITH (...)");
      in.expectSymbol('=', "after the option key '" + key + "'");
      String value = in.string("as the value of '" + key + "'");
      if (options.put(key, value) != null) {
        throw TokenCursor.invalid(keyToken, "the option '" + key + "' is given twice");
      }
      if (!in.peek().isSymbol(',') && !in.peek().isSymbol(')')) {
        throw TokenCursor.syntax(
            in.peek(),
            "expected ',' or ')' after the option '" + key + "', found " + in.peek().describe());
      }
    } while (in.acceptSymbol(','));
    in.expectSymbol(')', "");
    return options;
  }

  private String tableName() {
    String name = in.identifier("a table name");
    if (in.peek().isSymbol('.')) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          TokenCursor.where(in.peek())
              + "qualified table names are not supported: Quiver has one catalog, name the"
              + " table without '"
              + name
              + ".'");
    }
    return name;
  }
}
