package dev.quiver.error;

import static java.util.Objects.requireNonNull;

/**
 * An error a user can cause: bad input data, an expression that fails on some row, a query that
 * needs more memory than it was given. The message says what happened, where (expression, file,
 * row, column) and, where possible, what to change. Internal bugs are not QuiverExceptions.
 */
public class QuiverException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public QuiverException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public QuiverException(ErrorCode code, String message, Throwable cause) {
    super("[" + requireNonNull(code, "code is null") + "] " + message, cause);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }
}
