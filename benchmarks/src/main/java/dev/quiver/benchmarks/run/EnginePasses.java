package dev.quiver.benchmarks.run;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs one engine through the benchmark: start it (on the query thread), run the query set {@code
 * --passes} times, judging every answer against DuckDB's, measure the fixed cost per query on the
 * warm engine (if the workload does), stop it, and record its start time and heap peak in the
 * {@link BenchmarkRun}. Flink SQL runs each text with the workload's {@link Workload#flinkEdits}.
 */
final class EnginePasses {
  private final Workload workload;
  private final BenchmarkOptions options;
  private final BenchmarkRun run;
  private final Map<Integer, List<List<Object>>> reference;
  private final QueryRunner runner;

  /**
   * @param reference DuckDB's answers by query; DuckDB's own passes fill it
   */
  EnginePasses(
      BenchmarkOptions options,
      BenchmarkRun run,
      Map<Integer, List<List<Object>>> reference,
      QueryRunner runner) {
    this.workload = run.workload;
    this.options = options;
    this.run = run;
    this.reference = reference;
    this.runner = runner;
  }

  void run(Engine.Kind kind) {
    System.out.println();
    System.out.println(kind.label + ": starting");
    HeapPeaks.reset();
    long start = System.nanoTime();
    Engine engine;
    try {
      engine = runner.call(() -> open(kind));
    } catch (Exception | Error e) {
      System.out.println("  cannot start " + kind.label + ": " + QueryRunner.describe(e));
      run.errors.add(kind.label + " did not start:\n" + stackTrace(e));
      for (int query : options.queries()) {
        run.measurements.add(
            new Measurement(
                query,
                kind,
                options.passes(),
                0,
                -1,
                Measurement.Match.ERROR,
                "engine did not start: " + QueryRunner.describe(e),
                "engine did not start: " + QueryRunner.reason(e)));
      }
      return;
    }
    double startSeconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "  started in %.2f s%n", startSeconds);
    try {
      Set<Integer> timedOut = new HashSet<>();
      for (int pass = 1; pass <= options.passes(); pass++) {
        for (int query : options.queries()) {
          Measurement m;
          if (timedOut.contains(query)) {
            m =
                new Measurement(
                    query,
                    kind,
                    pass,
                    options.timeout().toSeconds(),
                    -1,
                    Measurement.Match.TIMEOUT,
                    "timed out in an earlier pass; not run again",
                    null);
          } else {
            QueryRunner.Outcome outcome = runner.run(engine, text(kind, query), options.timeout());
            if (outcome.timedOut()) {
              timedOut.add(query);
            }
            m = judge(kind, query, pass, outcome);
          }
          run.measurements.add(m);
          System.out.printf(
              Locale.ROOT,
              "  pass %d q%-2d %9.3f s %8s rows  %s%s%n",
              pass,
              query,
              m.seconds(),
              m.rows() < 0 ? "-" : Long.toString(m.rows()),
              m.match().text,
              m.detail() == null ? "" : ": " + abbreviate(m.detail(), 300));
        }
      }
      fixedCost(kind, engine);
    } finally {
      try {
        engine.close();
      } catch (Exception e) {
        System.out.println("  closing " + kind.label + " failed: " + QueryRunner.describe(e));
        run.errors.add(kind.label + " did not close cleanly:\n" + stackTrace(e));
      }
    }
    run.engines.put(
        kind, new BenchmarkRun.EngineStats(startSeconds, HeapPeaks.heapPeakBytes(), loadAverage()));
  }

  private Engine open(Engine.Kind kind) throws Exception {
    return switch (kind) {
      case QUIVER -> new QuiverEngine(options, workload);
      case FLINK -> new FlinkSqlEngine(options, workload);
      case DUCKDB -> new DuckDbEngine(options, workload);
    };
  }

  /** The text {@code kind} runs for {@code query}: the workload's, edited for Flink SQL. */
  private String text(Engine.Kind kind, int query) {
    String text = workload.text(query);
    return kind == Engine.Kind.FLINK ? workload.flinkEdits().apply(query, text) : text;
  }

  private Measurement judge(Engine.Kind kind, int query, int pass, QueryRunner.Outcome outcome) {
    if (!outcome.succeeded()) {
      if (outcome.failure() != null) {
        run.errors.add(
            "q"
                + query
                + " on "
                + kind.label
                + ", pass "
                + pass
                + ":\n"
                + stackTrace(outcome.failure()));
      }
      return new Measurement(
          query,
          kind,
          pass,
          outcome.seconds(),
          -1,
          outcome.timedOut() ? Measurement.Match.TIMEOUT : Measurement.Match.ERROR,
          outcome.error(),
          outcome.failure() == null ? null : QueryRunner.reason(outcome.failure()));
    }
    List<List<Object>> rows = outcome.rows();
    Measurement.Match match;
    String difference = null;
    if (kind == Engine.Kind.DUCKDB) {
      reference.put(query, rows);
      match = Measurement.Match.REFERENCE;
    } else if (!reference.containsKey(query)) {
      match = Measurement.Match.NO_REFERENCE;
    } else {
      difference = workload.difference(query, reference.get(query), rows);
      match = difference == null ? Measurement.Match.YES : Measurement.Match.NO;
    }
    return new Measurement(
        query, kind, pass, outcome.seconds(), rows.size(), match, difference, null);
  }

  /** The fixed cost per query on the warm engine (Quiver by phase, the others in total). */
  private void fixedCost(Engine.Kind kind, Engine engine) {
    if (options.fixedCostRuns() == 0 || workload.fixedCost().isEmpty()) {
      return;
    }
    FixedCost.Probe probe = workload.fixedCost().get();
    try {
      runner.call(
          () -> {
            measureFixedCost(kind, engine, probe);
            return null;
          });
    } catch (Exception | LinkageError e) {
      System.out.println("  fixed cost failed: " + QueryRunner.describe(e));
      run.errors.add("fixed cost on " + kind.label + ":\n" + stackTrace(e));
    }
  }

  /** On the engine's thread (see {@link QueryRunner#call}). */
  private void measureFixedCost(Engine.Kind kind, Engine engine, FixedCost.Probe probe)
      throws Exception {
    Path empty = FixedCost.writeEmptyTable(options.out().resolve("empty-table"), probe);
    System.out.println("  fixed cost: queries over an empty table");
    Map<String, Double> totals = new LinkedHashMap<>();
    for (Map.Entry<String, String> query : probe.queries().entrySet()) {
      switch (kind) {
        case QUIVER -> {
          QuiverEngine quiver = (QuiverEngine) engine;
          quiver.session().registerTable(probe.table(), empty.toString());
          FixedCost.Phases phases =
              FixedCost.measure(quiver.session(), query.getValue(), options.fixedCostRuns());
          run.quiverFixedCost.put(query.getKey(), phases);
          System.out.printf(Locale.ROOT, "    %s: %s%n", query.getKey(), phases);
        }
        case FLINK -> {
          if (totals.isEmpty()) {
            ((FlinkSqlEngine) engine)
                .executeDdl(
                    FlinkSqlTables.ddl(probe.table(), probe.schema(), probe.primaryKey(), empty));
          }
          totals.put(
              query.getKey(), FixedCost.total(engine, query.getValue(), options.fixedCostRuns()));
        }
        case DUCKDB -> {
          if (totals.isEmpty()) {
            ((DuckDbEngine) engine).createView(probe.table(), empty);
          }
          totals.put(
              query.getKey(), FixedCost.total(engine, query.getValue(), options.fixedCostRuns()));
        }
      }
    }
    if (!totals.isEmpty()) {
      run.fixedCostTotals.put(kind, totals);
      System.out.printf(Locale.ROOT, "    total ms (median): %s%n", totals);
    }
  }

  static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  static String stackTrace(Throwable e) {
    StringWriter text = new StringWriter();
    e.printStackTrace(new PrintWriter(text));
    return text.toString();
  }

  static String abbreviate(String text, int chars) {
    return text.length() <= chars ? text : text.substring(0, chars) + "…";
  }
}
