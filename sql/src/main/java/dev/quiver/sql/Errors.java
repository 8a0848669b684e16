package dev.quiver.sql;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;

/**
 * Builds the user-facing errors of the SQL front end, so every message has the same shape: "not
 * supported: FEATURE" for gaps, or the parser/validator message with its position.
 */
final class Errors {
  private Errors() {}

  /** An SQL feature Quiver cannot plan yet: never a wrong answer, always this. */
  static QuiverException unsupported(String feature) {
    return new QuiverException(ErrorCode.UNSUPPORTED_FEATURE, "not supported: " + feature);
  }

  /** Query text that does not parse; the message names line and column. */
  static QuiverException syntax(String message, Throwable cause) {
    return new QuiverException(ErrorCode.SYNTAX_ERROR, message, cause);
  }

  /** A query that parses but is not valid (unknown name, type error), with its position. */
  static QuiverException invalid(String message, Throwable cause) {
    return new QuiverException(ErrorCode.INVALID_QUERY, message, cause);
  }
}
