package dev.quiver.benchmarks.run;

import java.lang.management.ManagementFactory;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The Markdown summary of a run: the settings, the per-query table ({@link QueryTable}), start
 * times and heap peaks per engine, Quiver's fixed cost per query, failures, and the changes Flink
 * SQL needed.
 */
public final class Summary {
  private Summary() {}

  /** The summary: settings, the per-query table with totals and ratios, memory, fixed cost. */
  public static String markdown(BenchmarkRun run) {
    BenchmarkOptions o = run.options;
    List<Engine.Kind> kinds = run.engineKinds();
    StringBuilder md = new StringBuilder();
    md.append("# ").append(run.title()).append("\n\n");
    md.append("- Run: ")
        .append(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")))
        .append(", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" processors, Java ")
        .append(System.getProperty("java.version"))
        .append(", max heap ")
        .append(gib(HeapPeaks.maxHeapBytes()))
        .append(", Flink managed memory ")
        .append(o.managedMemory())
        .append(" per MiniCluster\n");
    md.append("- JVM flags: `")
        .append(String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()))
        .append("`\n");
    md.append("- Data: `").append(o.data()).append("` ").append(run.dataDescription).append('\n');
    md.append("- Passes: ")
        .append(o.passes())
        .append(" per engine, the last one counts; timeout ")
        .append(o.timeout().toSeconds())
        .append(" s per query; total run ")
        .append(String.format(Locale.ROOT, "%.0f s", run.elapsedSeconds))
        .append('\n');
    md.append("- Load average (1 min) before / after: ")
        .append(load(run.loadBefore))
        .append(" / ")
        .append(load(run.loadAfter))
        .append('\n');
    if (!o.flinkSql().isEmpty()) {
      md.append("- Flink SQL options: `").append(o.flinkSql()).append("`\n");
    }
    md.append('\n');
    QueryTable.append(run, kinds, md);
    engineTable(run, kinds, md);
    fixedCost(run, md);
    failures(run, md);
    if (kinds.contains(Engine.Kind.FLINK)) {
      List<QueryEdits.Edit> adaptations = run.workload.flinkEdits().of(run.options.queries());
      String decimals = FlinkSqlTables.widenedDecimals(run.workload);
      md.append("\nFlink SQL ");
      if (decimals != null) {
        md.append("read ")
            .append(decimals)
            .append(" and cast them back in a view (a Flink Parquet reader bug, see")
            .append(" `FlinkSqlTables`), and ");
      }
      md.append("ran ")
          .append(run.workload.textOrigin())
          .append(adaptations.isEmpty() ? " unchanged.\n" : " with these changes:\n");
      for (QueryEdits.Edit a : adaptations) {
        md.append("- q")
            .append(a.query())
            .append(": ")
            .append(code(a.from().strip().replaceAll("\\s+", " ")))
            .append(" → ")
            .append(code(a.to().strip().replaceAll("\\s+", " ")))
            .append(" (")
            .append(a.why())
            .append(")\n");
      }
    }
    return md.toString();
  }

  private static void engineTable(BenchmarkRun run, List<Engine.Kind> kinds, StringBuilder md) {
    md.append("| engine | start s | JVM heap peak | load average after |\n|---|---:|---:|---:|\n");
    for (Engine.Kind kind : kinds) {
      BenchmarkRun.EngineStats stats = run.engines.get(kind);
      if (stats != null) {
        md.append("| ")
            .append(kind.label)
            .append(" | ")
            .append(seconds(stats.startSeconds()))
            .append(" | ")
            .append(gib(stats.heapPeakBytes()))
            .append(" | ")
            .append(load(stats.loadAverage()))
            .append(" |\n");
      }
    }
    md.append(
        "\nStart: Flink SQL's MiniCluster and table environment with its DDL; Quiver's session"
            + " and table registration (its MiniCluster starts with the first query of pass 1);"
            + " DuckDB's connection and views. JVM heap peak: the sum of the heap memory pools'"
            + " peak usage while that engine ran (the pools are reset between engines; an upper"
            + " bound, the pools peak at different moments); the largest, the JVM's heap peak"
            + " over the run: "
            + gib(
                run.engines.values().stream()
                    .mapToLong(BenchmarkRun.EngineStats::heapPeakBytes)
                    .max()
                    .orElse(0))
            + ". Arrow's peak off-heap allocation over the whole run: "
            + gib(HeapPeaks.arrowPeakBytes())
            + ".\n\n");
  }

  private static void fixedCost(BenchmarkRun run, StringBuilder md) {
    if (run.quiverFixedCost.isEmpty()) {
      return;
    }
    Map<String, FixedCost.Phases> phases = run.quiverFixedCost;
    FixedCost.Probe probe = run.workload.fixedCost().orElseThrow();
    md.append("## Quiver's fixed cost per query\n\n");
    md.append("Queries over an empty `")
        .append(probe.like())
        .append("` (one Parquet file, no rows) on the warm session;")
        .append(
            run.options.fixedCostRuns() == 1
                ? " one run"
                : " medians of " + run.options.fixedCostRuns() + " runs")
        .append(" after 3 warm-up runs, milliseconds.\n\n");
    md.append("| phase |");
    phases.forEach(
        (name, p) ->
            md.append(" `")
                .append(probe.queries().get(name))
                .append("` (")
                .append(p.stages())
                .append(p.stages() == 1 ? " stage" : " stages")
                .append(") |"));
    md.append("\n|---|");
    phases.forEach((name, p) -> md.append("---:|"));
    md.append('\n');
    row(md, "planning (`session.stageGraph(sql)`)", phases, FixedCost.Phases::planningMs);
    row(md, "submission (`session.sql(sql)` − planning)", phases, FixedCost.Phases::submissionMs);
    row(md, "scheduling + run + first result", phases, FixedCost.Phases::firstResultMs);
    row(md, "fetch + close (job end)", phases, FixedCost.Phases::fetchCloseMs);
    row(md, "**total** (`sql()` to closed)", phases, FixedCost.Phases::totalMs);
    for (Map.Entry<Engine.Kind, Map<String, Double>> other : run.fixedCostTotals.entrySet()) {
      md.append("| ").append(other.getKey().label).append(", total |");
      for (String name : phases.keySet()) {
        Double ms = other.getValue().get(name);
        md.append(' ').append(ms == null ? "–" : millis(ms)).append(" |");
      }
      md.append('\n');
    }
    md.append('\n');
  }

  private static void row(
      StringBuilder md,
      String label,
      Map<String, FixedCost.Phases> phases,
      ToDoubleFunction<FixedCost.Phases> value) {
    md.append("| ").append(label).append(" |");
    phases
        .values()
        .forEach(p -> md.append(' ').append(millis(value.applyAsDouble(p))).append(" |"));
    md.append('\n');
  }

  private static void failures(BenchmarkRun run, StringBuilder md) {
    List<Measurement> bad =
        run.countedMeasurements().stream().filter(m -> !m.match().correct()).toList();
    if (bad.isEmpty()) {
      return;
    }
    md.append("## Failures and wrong answers\n\n");
    for (Measurement m : bad) {
      md.append("- q")
          .append(m.query())
          .append(' ')
          .append(m.engine().label)
          .append(": ")
          .append(m.match().text)
          .append(m.detail() == null ? "" : " — " + abbreviate(m.detail(), 400))
          .append('\n');
    }
    md.append('\n');
  }

  /**
   * The header cells of the engine columns: {@code <engine> s} for each engine of {@code kinds},
   * then {@code Quiver / <peer><peerSuffix>} for each of {@code peers}.
   */
  public static void engineHeaders(
      StringBuilder md, List<Engine.Kind> kinds, List<Engine.Kind> peers, String peerSuffix) {
    kinds.forEach(k -> md.append(' ').append(k.label).append(" s |"));
    peers.forEach(k -> md.append(" Quiver / ").append(k.label).append(peerSuffix).append(" |"));
  }

  /** {@code columns} right-aligned columns of a Markdown table's separator row. */
  public static void rightAligned(StringBuilder md, int columns) {
    md.append("---:|".repeat(columns));
  }

  public static String seconds(double seconds) {
    return String.format(Locale.ROOT, seconds < 10 ? "%.3f" : "%.1f", seconds);
  }

  public static String ratio(double ratio) {
    return String.format(Locale.ROOT, ratio < 10 ? "%.2f" : "%.1f", ratio);
  }

  static String millis(double ms) {
    return String.format(Locale.ROOT, "%.1f", ms);
  }

  static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
  }

  static String load(double load) {
    return load < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", load);
  }

  /** {@code text} as Markdown inline code, also when it contains backticks. */
  private static String code(String text) {
    return text.contains("`") ? "`` " + text + " ``" : "`" + text + "`";
  }

  private static String abbreviate(String text, int chars) {
    return text.length() <= chars ? text : text.substring(0, chars) + "…";
  }
}
