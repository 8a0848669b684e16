package dev.quiver.error;

/**
 * What went wrong, for errors a user can cause (and fix). Each code has a stable name users can
 * search for and, where SQL defines one, the SQLSTATE class it belongs to.
 */
public enum ErrorCode {
  /** Division or modulo by zero. */
  DIVISION_BY_ZERO("22012"),
  /** A numeric result that does not fit its type (decimal precision, integer range). */
  NUMERIC_OVERFLOW("22003"),
  /** A value that cannot be converted to the target type of a CAST. */
  INVALID_CAST("22018"),
  /** An invalid argument to a function (e.g. a negative SUBSTRING length, a bad LIKE escape). */
  INVALID_ARGUMENT("22023"),
  /**
   * A subquery used as an expression (a scalar subquery) returned more than one row: add a WHERE
   * condition or an aggregate that leaves one row, or LIMIT 1.
   */
  SCALAR_SUBQUERY_ROWS("21000"),
  /** A task needed more memory than its budget allows. */
  MEMORY_BUDGET_EXCEEDED("53200"),
  /** A type that the operation does not support. */
  UNSUPPORTED_TYPE("0A000"),
  /** A valid SQL or plan feature that Quiver cannot run yet (never a wrong answer instead). */
  UNSUPPORTED_FEATURE("0A000"),
  /** Query text that does not parse. */
  SYNTAX_ERROR("42601"),
  /** A query that parses but is not valid: unknown table or column, mismatched types. */
  INVALID_QUERY("42000"),
  /** A file or directory that does not exist, or a location that matches no data files. */
  FILE_NOT_FOUND("58P01"),
  /** A file that cannot be read as its format: truncated, corrupt, or not that format at all. */
  INVALID_FILE("XX001"),
  /** A row of a text file that cannot be parsed: wrong number of fields, an unparsable value. */
  MALFORMED_ROW("22P04"),
  /** Files of one table, or a file and a declared schema, whose columns do not agree. */
  SCHEMA_MISMATCH("42804"),
  /**
   * A file that changed (rewritten, replaced, truncated) between the planning of a query and its
   * reading: run the query again, which plans it for the file as it is now.
   */
  FILE_CHANGED("55000"),
  /** A file that could not be written (the target exists, the disk is full, ...). */
  FILE_WRITE_FAILED("58030"),
  /**
   * A task failed for a reason that is neither the query's nor the data's (a bug, a lost
   * TaskManager, an operator that threw): the message names the stage and task where known and the
   * original error; running the query again may succeed, and a repeatable one is a bug to report.
   */
  TASK_FAILED("XX000");

  private final String sqlState;

  ErrorCode(String sqlState) {
    this.sqlState = sqlState;
  }

  /** The SQLSTATE of this error. */
  public String sqlState() {
    return sqlState;
  }
}
