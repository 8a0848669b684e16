package dev.quiver.sql.ddl;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.List;

/**
 * The parser's position in a statement's {@link Token}s, with the reads that fail with "line L,
 * column C: expected X, found Y" when the next token is not what the statement needs there.
 */
final class TokenCursor {
  private final String text;
  private final List<Token> tokens;
  private int next;

  TokenCursor(String text) {
    this.text = text;
    this.tokens = DdlLexer.tokens(text);
  }

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

  String string(String context) {
    Token token = peek();
    if (token.kind() != Token.Kind.STRING) {
      throw syntax(token, "expected a 'string' " + context + ", found " + token.describe());
    }
    next++;
    return token.text();
  }

  /**
   * The text of the expression that starts here and ends before the first {@code ,} or {@code )}
   * outside parentheses, or {@code COMMENT}, or the end: a computed column's SQL, as written
   * (comments inside it included), for Quiver's SQL parser to read.
   */
  String expression(String what) {
    Token first = peek();
    Token last = null;
    int depth = 0;
    while (true) {
      Token token = peek();
      if (token.kind() == Token.Kind.END
          || (depth == 0 && (token.isSymbol(',') || token.isSymbol(')') || token.is("COMMENT")))) {
        break;
      }
      if (token.isSymbol('(')) {
        depth++;
      } else if (token.isSymbol(')')) {
        depth--;
      }
      last = token;
      next++;
    }
    if (last == null) {
      throw syntax(first, "expected " + what + ", found " + first.describe());
    }
    return text.substring(first.start(), last.end());
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
