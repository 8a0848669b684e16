package dev.quiver.benchmarks.run;

import dev.quiver.cli.tpch.ResultComparison;
import java.util.List;
import java.util.Locale;

/**
 * One engine of the comparison, started over a workload's data set: it runs one query at a time to
 * the end and returns every row, normalized for {@link ResultComparison}. {@link #execute} runs on
 * a worker thread of {@link QueryRunner}; {@link #cancel} comes from another thread when the query
 * has run too long.
 */
// close() stops an engine's cluster or connection, which may wait and be interrupted.
@SuppressWarnings("try")
public interface Engine extends AutoCloseable {

  /** The engines, in the order their columns appear in the report. */
  public enum Kind {
    QUIVER("quiver", "Quiver"),
    FLINK("flink", "Flink SQL"),
    DUCKDB("duckdb", "DuckDB");

    public final String id;
    public final String label;

    Kind(String id, String label) {
      this.id = id;
      this.label = label;
    }

    static Kind of(String id) {
      for (Kind kind : values()) {
        if (kind.id.equals(id.toLowerCase(Locale.ROOT))) {
          return kind;
        }
      }
      throw new IllegalArgumentException("unknown engine " + id + ": quiver, flink or duckdb");
    }
  }

  Kind kind();

  /** Runs {@code sql} and returns all its rows, values normalized. */
  List<List<Object>> execute(String sql) throws Exception;

  /** Cancels the query {@link #execute} is running, if any; best effort, any thread. */
  void cancel();
}
