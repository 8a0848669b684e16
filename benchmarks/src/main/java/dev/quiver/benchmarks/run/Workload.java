package dev.quiver.benchmarks.run;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.QuiverSession;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a benchmark runs on the three engines: a numbered query set over a data set of Parquet
 * tables ({@code DIR/<table>/*.parquet}), how to make the data, how each engine declares the
 * tables, and how an answer is compared with DuckDB's. Everything else (starting the engines,
 * passes, time limits, the report) is the same for every workload ({@link Benchmark}).
 */
public abstract class Workload {
  private final String name;
  private final String id;
  private final String command;
  private final int queryCount;
  private final IntFunction<String> texts;
  private final QueryEdits flinkEdits;

  /**
   * @param name the benchmark's name in titles: {@code TPC-H}
   * @param id the short name in default paths ({@code /tmp/quiver-tpch-sf1}, {@code target/tpch-…})
   * @param command the main class, for the usage text
   * @param queryCount the queries are numbered 1 to this
   * @param texts the text Quiver and DuckDB run for a query
   * @param flinkEdits the changes Flink SQL needs in those texts
   */
  protected Workload(
      String name,
      String id,
      String command,
      int queryCount,
      IntFunction<String> texts,
      QueryEdits flinkEdits) {
    this.name = requireNonNull(name, "name is null");
    this.id = requireNonNull(id, "id is null");
    this.command = requireNonNull(command, "command is null");
    this.queryCount = queryCount;
    this.texts = requireNonNull(texts, "texts is null");
    this.flinkEdits = requireNonNull(flinkEdits, "flinkEdits is null");
  }

  public final String name() {
    return name;
  }

  public final String id() {
    return id;
  }

  public final String command() {
    return command;
  }

  public final int queryCount() {
    return queryCount;
  }

  /** The text Quiver and DuckDB run for query {@code query}. */
  public final String text(int query) {
    return texts.apply(query);
  }

  /** Where {@link #text} comes from, as the summary says it ("the specification's text"). */
  public abstract String textOrigin();

  /** The changes Flink SQL needs in {@link #text}. */
  public final QueryEdits flinkEdits() {
    return flinkEdits;
  }

  /** The tables, by name, with their Arrow schemas, in the order they are declared. */
  public abstract Map<String, Schema> tables();

  /** The tables of {@code tables} by name, with their schemas, in that order. */
  protected static <T> Map<String, Schema> schemas(
      Iterable<T> tables, Function<T, String> name, Function<T, Schema> schema) {
    Map<String, Schema> schemas = new LinkedHashMap<>();
    for (T table : tables) {
      schemas.put(name.apply(table), schema.apply(table));
    }
    return schemas;
  }

  /** The primary key columns of {@code table} that Flink SQL declares (NOT ENFORCED); none. */
  public List<String> primaryKey(String table) {
    return List.of();
  }

  /** Registers the tables of {@code dir} in a Quiver session. */
  public abstract void register(QuiverSession session, Path dir);

  /** The first difference between DuckDB's answer and another engine's, or null if they agree. */
  public abstract String difference(
      int query, List<List<Object>> expected, List<List<Object>> actual);

  /**
   * What {@link #difference} does beyond comparing row by row in order, in a sentence for the
   * summary; empty if nothing.
   */
  public String comparisonRule() {
    return "";
  }

  /**
   * Makes the data set in {@code dir} unless it is there already; returns whether it was.
   *
   * @param rowsPerFile rows per Parquet file
   */
  public abstract boolean generate(Path dir, double scale, long rowsPerFile);

  /** One line on the data set in {@code dir}, e.g. its size and the files of the large tables. */
  public abstract String describeData(Path dir);

  /** The fixed cost per query on a warm engine, if this workload measures it. */
  public Optional<FixedCost.Probe> fixedCost() {
    return Optional.empty();
  }

  /**
   * Whether the per-query table writes {@code failed: <reason>} where an engine failed and adds the
   * totals over the queries every engine answered; otherwise it keeps the older form ({@code
   * error}, and the reasons only below the table).
   */
  public boolean failureReasonsInTable() {
    return true;
  }
}
