package dev.quiver.sql.ddl;

/**
 * One token of a DDL statement and where it starts (1-based line and column).
 *
 * @param kind what the token is
 * @param text a word's or quoted identifier's name (quotes removed), a string's value (quotes
 *     removed, doubled quotes undone), a number's digits, a symbol's character; empty at the end
 * @param start the offset of the token's first character in the statement
 * @param end the offset after its last character
 */
record Token(Kind kind, String text, int line, int column, int start, int end) {
  enum Kind {
    /** An unquoted word: a keyword or an identifier. */
    WORD,
    /** A {@code `backquoted`} or {@code "double-quoted"} identifier. */
    QUOTED,
    /** A {@code 'string'}. */
    STRING,
    /** Digits with an optional fraction. */
    NUMBER,
    /** One character that is none of the above: {@code ( ) , = - . ;} and any other. */
    SYMBOL,
    /** The end of the statement. */
    END
  }

  /** Whether this is the unquoted word {@code keyword} (any case). */
  boolean is(String keyword) {
    return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
  }

  /** Whether this is the symbol {@code symbol}. */
  boolean isSymbol(char symbol) {
    return kind == Kind.SYMBOL && text.charAt(0) == symbol;
  }

  /** A word or a quoted identifier: something that can name a table or a column. */
  boolean isIdentifier() {
    return kind == Kind.WORD || kind == Kind.QUOTED;
  }

  /** The token as an error message names it: {@code ')'}, {@code 'ts'}, end of statement. */
  String describe() {
    return switch (kind) {
      case END -> "the end of the statement";
      case STRING -> "string '" + text + "'";
      default -> "'" + text + "'";
    };
  }
}
