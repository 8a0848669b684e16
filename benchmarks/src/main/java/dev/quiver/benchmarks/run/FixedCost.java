package dev.quiver.benchmarks.run;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.operators.memory.Allocators;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Quiver's fixed cost per query: queries over an empty table (TPC-H: an empty {@code lineitem}, one
 * Parquet file with the schema and no rows) on the warm session, so that the time is all overhead,
 * split into phases:
 *
 * <pre>
 *   planning      session.stageGraph(sql): parse, optimize, physical and stage planning
 *   submission    session.sql(sql) minus planning: compile the Flink job, submit it
 *   first result  the first hasNext(): scheduling, deploying the tasks, running to the end
 *   fetch + close draining and closing the result (waits for the job's terminal state)
 * </pre>
 *
 * Each query runs a few times to warm up, then {@code runs} times; the report gives medians. The
 * other engines' totals on the same empty file are measured for comparison ({@link #total}).
 */
public final class FixedCost {
  private static final int WARMUP = 3;

  /**
   * What a workload measures the fixed cost with.
   *
   * @param table the empty table's name
   * @param like the table whose schema it has, as the summary names it
   * @param schema its schema
   * @param primaryKey its primary key as Flink SQL declares it
   * @param queries the queries over it by short name (e.g. a scan, an aggregation over a shuffle)
   */
  public record Probe(
      String table,
      String like,
      Schema schema,
      List<String> primaryKey,
      Map<String, String> queries) {
    public Probe {
      requireNonNull(table, "table is null");
      requireNonNull(like, "like is null");
      requireNonNull(schema, "schema is null");
      primaryKey = List.copyOf(primaryKey);
      queries = Collections.unmodifiableMap(new LinkedHashMap<>(queries));
    }
  }

  /** Median milliseconds per phase of one query, and its stage count. */
  public record Phases(
      int stages,
      double planningMs,
      double submissionMs,
      double firstResultMs,
      double fetchCloseMs,
      double totalMs) {}

  private FixedCost() {}

  /** Writes {@code dir/<table>/part-00000.parquet}: the probe's schema, no rows. */
  static Path writeEmptyTable(Path dir, Probe probe) throws IOException {
    Path table = Files.createDirectories(dir.resolve(probe.table()));
    Path file = table.resolve("part-00000.parquet");
    if (!Files.exists(file)) {
      try (BufferAllocator allocator = Allocators.newChild("benchmark:empty-table");
          BatchFileWriter writer =
              BatchFileWriter.open(file, FileFormat.PARQUET, probe.schema(), allocator)) {
        writer.commit();
      }
    }
    return table;
  }

  static Phases measure(QuiverSession session, String sql, int runs) {
    int stages = session.stageGraph(sql).stages().size();
    for (int i = 0; i < WARMUP; i++) {
      runOnce(session, sql);
    }
    double[][] samples = new double[5][runs];
    for (int i = 0; i < runs; i++) {
      double[] run = runOnce(session, sql);
      for (int p = 0; p < run.length; p++) {
        samples[p][i] = run[p];
      }
    }
    return new Phases(
        stages,
        median(samples[0]),
        median(samples[1]),
        median(samples[2]),
        median(samples[3]),
        median(samples[4]));
  }

  /** Planning, submission, first result, fetch + close, total (sql() to closed), in ms. */
  private static double[] runOnce(QuiverSession session, String sql) {
    long t0 = System.nanoTime();
    session.stageGraph(sql);
    long t1 = System.nanoTime();
    long rows = 0;
    long t2;
    long t3;
    long t4;
    SqlResult result = session.sql(sql);
    try {
      t2 = System.nanoTime();
      boolean any = result.hasNext();
      t3 = System.nanoTime();
      while (any) {
        try (VectorSchemaRoot batch = result.next()) {
          rows += batch.getRowCount();
        }
        any = result.hasNext();
      }
    } finally {
      result.close();
    }
    t4 = System.nanoTime();
    if (rows != 0) {
      throw new IllegalStateException("the empty table gave " + rows + " rows: " + sql);
    }
    double planning = ms(t1 - t0);
    return new double[] {
      planning, Math.max(0, ms(t2 - t1) - planning), ms(t3 - t2), ms(t4 - t3), ms(t4 - t1)
    };
  }

  /** Median ms of {@code runs} runs of {@code sql} on {@code engine} after warming up. */
  static double total(Engine engine, String sql, int runs) throws Exception {
    for (int i = 0; i < WARMUP; i++) {
      engine.execute(sql);
    }
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      List<List<Object>> rows = engine.execute(sql);
      samples.add(ms(System.nanoTime() - start));
      if (!rows.isEmpty()) {
        throw new IllegalStateException("the empty table gave " + rows.size() + " rows: " + sql);
      }
    }
    return median(samples.stream().mapToDouble(Double::doubleValue).toArray());
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
