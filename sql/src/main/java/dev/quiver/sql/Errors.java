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
    return new QuiverException(ErrorCode.UNSUPPORTED_TYPE, "not supported: " + feature);
  }

  /** A mistake in the query text (syntax, unknown name, type error). */
  static QuiverException invalid(String message, Throwable cause) {
    return new QuiverException(ErrorCode.INVALID_ARGUMENT, message, cause);
  }
}
