package dev.quiver.sql.ddl;

import dev.quiver.plan.type.SqlType;
import java.util.Locale;

/**
 * The column types of a {@code CREATE TABLE}, spelled as Flink SQL spells them, mapped to the types
 * Quiver computes with: {@code BOOLEAN}, {@code TINYINT}, {@code SMALLINT}, {@code INT}/{@code
 * INTEGER}, {@code BIGINT}, {@code FLOAT}/{@code REAL} (4 bytes, as Flink's FLOAT), {@code DOUBLE
 * [PRECISION]}, {@code DECIMAL}/{@code DEC}/{@code NUMERIC [(p[, s])]} (Flink's default {@code
 * DECIMAL(10, 0)}), {@code CHAR}/{@code VARCHAR [(n)]} and {@code STRING} (Quiver's strings have no
 * length), {@code DATE}, {@code TIMESTAMP [(p)] [WITHOUT TIME ZONE]} with {@code p <= 6}: Quiver's
 * timestamps are microseconds, which hold Flink's usual {@code TIMESTAMP(3)} exactly. {@code
 * TIMESTAMP_LTZ [(p)]} and {@code TIMESTAMP [(p)] WITH LOCAL TIME ZONE} (an instant, the type of a
 * Kafka record's timestamp) are the same TIMESTAMP: Quiver's timestamps are UTC, so an instant is
 * its UTC date and time, as Flink shows it in a session whose time zone is UTC.
 */
final class DdlTypes {
  private static final String KNOWN =
      "BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), CHAR(n),"
          + " VARCHAR(n), STRING, DATE, TIMESTAMP(p), TIMESTAMP_LTZ(p)";

  private DdlTypes() {}

  /** Reads the type of {@code column} at the parser's position. */
  static SqlType parse(TokenCursor parser, String column) {
    Token token = parser.peek();
    if (token.kind() != Token.Kind.WORD) {
      throw TokenCursor.syntax(
          token, "expected the type of column " + column + ", found " + token.describe());
    }
    parser.take();
    return switch (token.text().toUpperCase(Locale.ROOT)) {
      case "BOOLEAN" -> SqlType.BOOLEAN;
      case "TINYINT" -> SqlType.TINYINT;
      case "SMALLINT" -> SqlType.SMALLINT;
      case "INT", "INTEGER" -> SqlType.INTEGER;
      case "BIGINT" -> SqlType.BIGINT;
      case "FLOAT", "REAL" -> SqlType.REAL;
      case "DOUBLE" -> {
        parser.accept("PRECISION");
        yield SqlType.DOUBLE;
      }
      case "DECIMAL", "DEC", "NUMERIC" -> decimal(parser, token);
      case "CHAR", "VARCHAR" -> {
        if (parser.acceptSymbol('(')) {
          parser.number("a length");
          parser.expectSymbol(')', "after the length of " + token.text());
        }
        yield SqlType.VARCHAR;
      }
      case "STRING" -> SqlType.VARCHAR;
      case "DATE" -> SqlType.DATE;
      case "TIMESTAMP" -> timestamp(parser, token, column);
      case "TIMESTAMP_LTZ" -> {
        precision(parser, column);
        yield SqlType.TIMESTAMP;
      }
      default ->
          throw TokenCursor.invalid(
              token,
              "unknown or unsupported type "
                  + token.text()
                  + " of column "
                  + column
                  + "; Quiver's types are "
                  + KNOWN);
    };
  }

  private static SqlType decimal(TokenCursor parser, Token token) {
    int precision = 10;
    int scale = 0;
    if (parser.acceptSymbol('(')) {
      precision = parser.number("a precision");
      if (parser.acceptSymbol(',')) {
        scale = parser.number("a scale");
      }
      parser.expectSymbol(')', "after the precision and scale of " + token.text());
    }
    if (precision < 1 || precision > SqlType.MAX_PRECISION || scale > precision) {
      throw TokenCursor.invalid(
          token,
          token.text()
              + "("
              + precision
              + ", "
              + scale
              + ") needs 1 <= precision <= "
              + SqlType.MAX_PRECISION
              + " and scale <= precision");
    }
    return SqlType.decimal(precision, scale);
  }

  private static SqlType timestamp(TokenCursor parser, Token token, String column) {
    precision(parser, column);
    if (parser.accept("WITH")) {
      // WITH LOCAL TIME ZONE: an instant, which Quiver's UTC timestamps hold (as TIMESTAMP_LTZ).
      if (parser.accept("LOCAL")) {
        parser.expect("TIME");
        parser.expect("ZONE");
        return SqlType.TIMESTAMP;
      }
      throw TokenCursor.invalid(
          token,
          "TIMESTAMP WITH TIME ZONE of column "
              + column
              + " is not supported; use TIMESTAMP or TIMESTAMP_LTZ (UTC values)");
    }
    if (parser.accept("WITHOUT")) {
      parser.expect("TIME");
      parser.expect("ZONE");
    }
    return SqlType.TIMESTAMP;
  }

  private static void precision(TokenCursor parser, String column) {
    if (parser.acceptSymbol('(')) {
      Token precisionToken = parser.peek();
      int precision = parser.number("a precision");
      parser.expectSymbol(')', "after the precision of TIMESTAMP");
      if (precision > 6) {
        throw TokenCursor.invalid(
            precisionToken,
            "TIMESTAMP("
                + precision
                + ") of column "
                + column
                + ": Quiver's timestamps are microseconds, use TIMESTAMP(6) or less");
      }
    }
  }
}
