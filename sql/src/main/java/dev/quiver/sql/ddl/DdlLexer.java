package dev.quiver.sql.ddl;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a DDL statement into {@link Token}s, skipping white space and {@code --} / {@code /* * /}
 * comments. Identifiers are quoted with backquotes (Flink) or double quotes (standard SQL); a quote
 * inside is doubled, as in strings.
 */
final class DdlLexer {
  private final String text;
  private int pos;
  private int line = 1;
  private int lineStart;

  private DdlLexer(String text) {
    this.text = text;
  }

  /** The tokens of {@code text}, ending with one {@link Token.Kind#END}. */
  static List<Token> tokens(String text) {
    return new DdlLexer(text).all();
  }

  private List<Token> all() {
    List<Token> tokens = new ArrayList<>();
    while (true) {
      skipBlanks();
      int startLine = line;
      int startColumn = pos - lineStart + 1;
      int start = pos;
      if (pos == text.length()) {
        tokens.add(new Token(Token.Kind.END, "", startLine, startColumn, start, start));
        return tokens;
      }
      char c = text.charAt(pos);
      if (Character.isLetter(c) || c == '_') {
        while (pos < text.length()
            && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
          pos++;
        }
        tokens.add(
            new Token(
                Token.Kind.WORD, text.substring(start, pos), startLine, startColumn, start, pos));
      } else if (Character.isDigit(c)) {
        while (pos < text.length()
            && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
          pos++;
        }
        tokens.add(
            new Token(
                Token.Kind.NUMBER, text.substring(start, pos), startLine, startColumn, start, pos));
      } else if (c == '\'') {
        String value = quoted('\'');
        tokens.add(new Token(Token.Kind.STRING, value, startLine, startColumn, start, pos));
      } else if (c == '`' || c == '"') {
        String name = quoted(c);
        if (name.isEmpty()) {
          throw error(startLine, startColumn, "an empty quoted identifier");
        }
        tokens.add(new Token(Token.Kind.QUOTED, name, startLine, startColumn, start, pos));
      } else {
        // Any other character is a symbol too: the parser says what it expected instead.
        pos++;
        tokens.add(
            new Token(Token.Kind.SYMBOL, String.valueOf(c), startLine, startColumn, start, pos));
      }
    }
  }

  // The text between the quote at pos and its closing quote; a doubled quote is one quote.
  private String quoted(char quote) {
    int startLine = line;
    int startColumn = pos - lineStart + 1;
    StringBuilder value = new StringBuilder();
    pos++;
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == quote) {
        if (pos < text.length() && text.charAt(pos) == quote) {
          value.append(quote);
          pos++;
          continue;
        }
        return value.toString();
      }
      if (c == '\n') {
        line++;
        lineStart = pos;
      }
      value.append(c);
    }
    throw error(startLine, startColumn, "the quote " + quote + " is never closed");
  }

  private void skipBlanks() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '\n') {
        pos++;
        line++;
        lineStart = pos;
      } else if (Character.isWhitespace(c)) {
        pos++;
      } else if (text.startsWith("--", pos)) {
        while (pos < text.length() && text.charAt(pos) != '\n') {
          pos++;
        }
      } else if (text.startsWith("/*", pos)) {
        int startLine = line;
        int startColumn = pos - lineStart + 1;
        int end = text.indexOf("*/", pos + 2);
        if (end < 0) {
          throw error(startLine, startColumn, "the comment /* is never closed");
        }
        for (; pos < end + 2; pos++) {
          if (text.charAt(pos) == '\n') {
            line++;
            lineStart = pos + 1;
          }
        }
      } else {
        return;
      }
    }
  }

  static QuiverException error(int line, int column, String message) {
    return new QuiverException(
        ErrorCode.SYNTAX_ERROR, "line " + line + ", column " + column + ": " + message);
  }
}
