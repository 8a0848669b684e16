package dev.quiver.sql.ddl;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses the DDL Quiver runs, Flink SQL's {@code CREATE TABLE} and {@code DROP TABLE}:
 *
 * <pre>
 * CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (
 *     col TYPE [NOT NULL | NULL] [COMMENT '...'], ...
 *     [, WATERMARK FOR col AS col [- INTERVAL 'n' UNIT]]
 *     [, [CONSTRAINT c] PRIMARY KEY (col, ...) NOT ENFORCED]
 * ) [COMMENT '...'] WITH ('key' = 'value', ...)
 *
 * DROP [TEMPORARY] TABLE [IF EXISTS] name
 * </pre>
 *
 * <p>Hand-written (a small tokenizer, {@link DdlLexer}, and one method per clause) rather than
 * Calcite's parser: Calcite's core parser has no {@code WATERMARK} or {@code WITH} options (they
 * are Flink's own parser extension), and the Babel parser Quiver uses for queries parses {@code
 * CREATE TABLE} into nodes that keep neither; the statement's shape is fixed and small, so one
 * screen of recursive descent gives exact "line L, column C" errors for every mistake without a
 * grammar build step. Types are the ones {@link SqlType} computes with, spelled as Flink spells
 * them ({@link DdlTypes}).
 *
 * <p>Errors are {@link QuiverException}s with one line naming where: {@link ErrorCode#SYNTAX_ERROR}
 * for text of the wrong shape, {@link ErrorCode#INVALID_QUERY} for a well-formed declaration that
 * means nothing (a duplicate column, a watermark on a column that is not a declared TIMESTAMP or
 * BIGINT), {@link ErrorCode#UNSUPPORTED_FEATURE} for Flink declarations Quiver cannot run yet
 * (computed and metadata columns, qualified names).
 */
public final class DdlParser {
  private static final Pattern DDL_START =
      Pattern.compile(
          "(?:\\s|--[^\\n]*(?:\\n|$)|/\\*.*?\\*/)*(?:CREATE|DROP)\\s+(?:TEMPORARY\\s+)?TABLE\\b",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private final List<Token> tokens;
  private int next;

  private DdlParser(String text) {
    this.tokens = DdlLexer.tokens(text);
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
    boolean create = peek().is("CREATE");
    next++;
    accept("TEMPORARY");
    expect("TABLE");
    DdlStatement statement;
    if (create) {
      boolean ifNotExists = accept("IF");
      if (ifNotExists) {
        expect("NOT");
        expect("EXISTS");
      }
      statement = createTable(ifNotExists);
    } else {
      boolean ifExists = accept("IF");
      if (ifExists) {
        expect("EXISTS");
      }
      statement = new DropTable(tableName(), ifExists);
    }
    acceptSymbol(';');
    if (peek().kind() != Token.Kind.END) {
      throw syntax(peek(), "expected the end of the statement, found " + peek().describe());
    }
    return statement;
  }

  private CreateTable createTable(boolean ifNotExists) {
    String name = tableName();
    if (peek().is("AS") || peek().is("LIKE")) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          where(peek())
              + "CREATE TABLE ... "
              + peek().text().toUpperCase(Locale.ROOT)
              + " is not supported: declare the columns and WITH options of "
              + name);
    }
    expectSymbol('(', "after the table name " + name);
    TableElements elements = new TableElements(name);
    do {
      tableElement(elements);
      if (!peek().isSymbol(',') && !peek().isSymbol(')')) {
        throw syntax(
            peek(),
            "expected ',' or ')' after " + elements.last() + ", found " + peek().describe());
      }
    } while (acceptSymbol(','));
    expectSymbol(')', "");
    if (accept("COMMENT")) {
      string("after COMMENT");
    }
    if (!accept("WITH")) {
      throw syntax(
          peek(),
          "expected WITH ('connector' = ...) after the columns of "
              + name
              + ", found "
              + peek().describe());
    }
    return new CreateTable(name, elements.schema(), elements.eventTime(), options(), ifNotExists);
  }

  // A column, the watermark or the primary key.
  private void tableElement(TableElements elements) {
    Token start = peek();
    if (start.is("WATERMARK")) {
      next++;
      elements.watermark(start, watermark());
    } else if (start.is("PRIMARY") || start.is("CONSTRAINT")) {
      if (accept("CONSTRAINT")) {
        identifier("a constraint name after CONSTRAINT");
      }
      expect("PRIMARY");
      expect("KEY");
      expectSymbol('(', "after PRIMARY KEY");
      do {
        Token column = peek();
        elements.keyColumn(column, identifier("a column name"));
      } while (acceptSymbol(','));
      expectSymbol(')', "after the PRIMARY KEY columns");
      if (!accept("NOT")) {
        throw syntax(
            peek(),
            "expected NOT ENFORCED after PRIMARY KEY (...): Flink and Quiver do not check keys");
      }
      expect("ENFORCED");
      elements.primaryKey(start);
    } else {
      Token nameToken = peek();
      String column = identifier("a column name, WATERMARK or PRIMARY KEY");
      if (peek().is("AS") || peek().is("METADATA")) {
        throw new QuiverException(
            ErrorCode.UNSUPPORTED_FEATURE,
            where(peek())
                + "computed and metadata columns are not supported ("
                + column
                + "): declare the column with its type");
      }
      SqlType type = DdlTypes.parse(this, column);
      boolean nullable = true;
      if (accept("NOT")) {
        expect("NULL");
        nullable = false;
      } else {
        accept("NULL");
      }
      if (accept("COMMENT")) {
        string("after COMMENT");
      }
      elements.column(nameToken, new Column(column, type, nullable));
    }
  }

  // FOR col AS col [- INTERVAL 'n' UNIT]
  private EventTime watermark() {
    expect("FOR");
    Token columnToken = peek();
    String column = identifier("the event-time column after WATERMARK FOR");
    expect("AS");
    Token base = peek();
    String expression = identifier("the watermark expression " + column + " - INTERVAL ...");
    if (!expression.equals(column)) {
      throw invalid(
          base,
          "the watermark of "
              + column
              + " must be "
              + column
              + " - INTERVAL '...' UNIT, not an expression of "
              + expression);
    }
    if (!acceptSymbol('-')) {
      return new EventTime(column, Duration.ZERO);
    }
    expect("INTERVAL");
    Token amountToken = peek();
    String amount = string("after INTERVAL (the delay, e.g. '5')");
    Token unitToken = peek();
    String unit = identifier("an interval unit (SECOND, MINUTE, HOUR, DAY, MILLISECOND)");
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
              throw invalid(
                  unitToken,
                  "unknown interval unit "
                      + unit
                      + "; use SECOND, MINUTE, HOUR, DAY or MILLISECOND");
        };
    BigDecimal millis;
    try {
      millis = new BigDecimal(amount.strip()).multiply(BigDecimal.valueOf(unitMillis));
    } catch (NumberFormatException e) {
      throw invalid(amountToken, "the interval '" + amount + "' is not a number");
    }
    if (millis.signum() < 0 || millis.stripTrailingZeros().scale() > 0) {
      throw invalid(
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
    expectSymbol('(', "after WITH");
    Map<String, String> options = new LinkedHashMap<>();
    if (peek().isSymbol(')')) {
      throw syntax(peek(), "expected 'connector' = '...' in WITH (...), found ')'");
    }
    do {
      Token keyToken = peek();
      String key = string("as an option key in WITH (...)");
      expectSymbol('=', "after the option key '" + key + "'");
      String value = string("as the value of '" + key + "'");
      if (options.put(key, value) != null) {
        throw invalid(keyToken, "the option '" + key + "' is given twice");
      }
      if (!peek().isSymbol(',') && !peek().isSymbol(')')) {
        throw syntax(
            peek(),
            "expected ',' or ')' after the option '" + key + "', found " + peek().describe());
      }
    } while (acceptSymbol(','));
    expectSymbol(')', "");
    return options;
  }

  private String tableName() {
    String name = identifier("a table name");
    if (peek().isSymbol('.')) {
      throw new QuiverException(
          ErrorCode.UNSUPPORTED_FEATURE,
          where(peek())
              + "qualified table names are not supported: Quiver has one catalog, name the"
              + " table without '"
              + name
              + ".'");
    }
    return name;
  }

  // Methods DdlTypes uses too.

  Token peek() {
    return tokens.get(next);
  }

  Token take() {
    Token token = tokens.get(next);
    if (token.kind() != Token.Kind.END) {
      next++;
    }
    return token;
  }

  boolean accept(String keyword) {
    if (peek().is(keyword)) {
      next++;
      return true;
    }
    return false;
  }

  boolean acceptSymbol(char symbol) {
    if (peek().isSymbol(symbol)) {
      next++;
      return true;
    }
    return false;
  }

  void expect(String keyword) {
    if (!accept(keyword)) {
      throw syntax(peek(), "expected " + keyword + ", found " + peek().describe());
    }
  }

  void expectSymbol(char symbol, String context) {
    if (!acceptSymbol(symbol)) {
      throw syntax(
          peek(),
          "expected '"
              + symbol
              + "'"
              + (context.isEmpty() ? "" : " " + context)
              + ", found "
              + peek().describe());
    }
  }

  String identifier(String what) {
    Token token = peek();
    if (!token.isIdentifier()) {
      throw syntax(token, "expected " + what + ", found " + token.describe());
    }
    next++;
    return token.text();
  }

  int number(String what) {
    Token token = peek();
    if (token.kind() != Token.Kind.NUMBER || token.text().contains(".")) {
      throw syntax(token, "expected " + what + ", found " + token.describe());
    }
    next++;
    try {
      return Integer.parseInt(token.text());
    } catch (NumberFormatException e) {
      throw invalid(token, what + " " + token.text() + " is too large");
    }
  }

  private String string(String context) {
    Token token = peek();
    if (token.kind() != Token.Kind.STRING) {
      throw syntax(token, "expected a 'string' " + context + ", found " + token.describe());
    }
    next++;
    return token.text();
  }

  static String where(Token token) {
    return "line " + token.line() + ", column " + token.column() + ": ";
  }

  static QuiverException syntax(Token token, String message) {
    return new QuiverException(ErrorCode.SYNTAX_ERROR, where(token) + message);
  }

  static QuiverException invalid(Token token, String message) {
    return new QuiverException(ErrorCode.INVALID_QUERY, where(token) + message);
  }
}
