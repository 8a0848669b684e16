package dev.quiver.benchmarks.run;

/**
 * One run of one query on one engine.
 *
 * @param seconds wall time from submission to the last row
 * @param rows result rows, or -1 if the query failed
 * @param match how the answer compares with DuckDB's
 * @param detail null, or the error or the first difference
 * @param reason null, or why the query failed in one short line (for the per-query table)
 */
public record Measurement(
    int query,
    Engine.Kind engine,
    int pass,
    double seconds,
    long rows,
    Match match,
    String detail,
    String reason) {

  /** How an answer compares with the reference. */
  public enum Match {
    /** Equal to DuckDB's answer. */
    YES("yes"),
    /** Different from DuckDB's answer. */
    NO("NO"),
    /** DuckDB's own answer: the reference. */
    REFERENCE("reference"),
    /** DuckDB gave no answer to compare with. */
    NO_REFERENCE("no reference"),
    /** The query failed. */
    ERROR("error"),
    /** The query ran past the time limit and was cancelled. */
    TIMEOUT("timeout");

    public final String text;

    Match(String text) {
      this.text = text;
    }

    /** Whether the engine answered (correctly or not). */
    public boolean answered() {
      return this == YES || this == NO || this == REFERENCE || this == NO_REFERENCE;
    }

    /** Whether the answer is right: equal to DuckDB's, or DuckDB's own. */
    public boolean correct() {
      return this == YES || this == REFERENCE;
    }
  }

  public boolean answered() {
    return match.answered();
  }
}
