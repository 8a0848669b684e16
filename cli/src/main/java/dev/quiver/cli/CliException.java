package dev.quiver.cli;

/**
 * A failure the command line itself reports (a file it cannot read, data it cannot use), with a
 * message that says what to fix; it exits with status 1 and prints no stack trace unless {@code
 * --verbose}.
 */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CliException(String message) {
    super(message);
  }

  CliException(String message, Throwable cause) {
    super(message, cause);
  }
}
