package dev.quiver.benchmarks.tpch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The summary's main table: per query the seconds of each engine in the counted pass, the Quiver /
 * Flink SQL and Quiver / DuckDB ratios, DuckDB's row count and whether the answers matched; then
 * the totals (the ratio over the queries both engines answered) and the geometric means of the
 * ratios.
 */
final class QueryTable {
  private QueryTable() {}

  static void append(BenchmarkRun run, List<Engine.Kind> kinds, StringBuilder md) {
    boolean quiver = kinds.contains(Engine.Kind.QUIVER);
    List<Engine.Kind> others = new ArrayList<>();
    if (quiver) {
      for (Engine.Kind kind : kinds) {
        if (kind != Engine.Kind.QUIVER) {
          others.add(kind);
        }
      }
    }
    md.append("| query |");
    kinds.forEach(k -> md.append(' ').append(k.label).append(" s |"));
    others.forEach(k -> md.append(" Quiver / ").append(k.label).append(" |"));
    md.append(" rows | match |\n|---|");
    kinds.forEach(k -> md.append("---:|"));
    others.forEach(k -> md.append("---:|"));
    md.append("---:|---|\n");
    double[] totals = new double[Engine.Kind.values().length];
    int[] failed = new int[Engine.Kind.values().length];
    double[] quiverCommon = new double[Engine.Kind.values().length];
    double[] otherCommon = new double[Engine.Kind.values().length];
    double[] logRatioSum = new double[Engine.Kind.values().length];
    int[] ratioCount = new int[Engine.Kind.values().length];
    for (int query : run.options.queries()) {
      md.append("| q").append(query).append(" |");
      long rows = -1;
      List<String> matches = new ArrayList<>();
      for (Engine.Kind kind : kinds) {
        Optional<Measurement> m = run.counted(query, kind);
        if (m.isPresent() && m.get().answered()) {
          md.append(' ').append(Summary.seconds(m.get().seconds())).append(" |");
          totals[kind.ordinal()] += m.get().seconds();
          if (rows < 0 || kind == Engine.Kind.DUCKDB) {
            rows = m.get().rows();
          }
        } else {
          md.append(' ').append(m.map(x -> x.match().text).orElse("–")).append(" |");
          failed[kind.ordinal()]++;
        }
        if (kind != Engine.Kind.DUCKDB
            && m.isPresent()
            && m.get().match() != Measurement.Match.YES) {
          matches.add(kind.label + ": " + m.get().match().text);
        }
      }
      for (Engine.Kind other : others) {
        Optional<Double> ratio = ratio(run, query, other);
        md.append(' ').append(ratio.map(Summary::ratio).orElse("–")).append(" |");
        if (ratio.isPresent()) {
          quiverCommon[other.ordinal()] += run.counted(query, Engine.Kind.QUIVER).get().seconds();
          otherCommon[other.ordinal()] += run.counted(query, other).get().seconds();
          logRatioSum[other.ordinal()] += Math.log(ratio.get());
          ratioCount[other.ordinal()]++;
        }
      }
      md.append(' ').append(rows < 0 ? "–" : Long.toString(rows)).append(" | ");
      md.append(matches.isEmpty() ? "yes" : String.join(", ", matches)).append(" |\n");
    }
    md.append("| **total** |");
    for (Engine.Kind kind : kinds) {
      md.append(" **").append(Summary.seconds(totals[kind.ordinal()])).append("**");
      if (failed[kind.ordinal()] > 0) {
        md.append(" (").append(failed[kind.ordinal()]).append(" failed)");
      }
      md.append(" |");
    }
    for (Engine.Kind other : others) {
      md.append(' ');
      if (otherCommon[other.ordinal()] > 0) {
        md.append("**")
            .append(Summary.ratio(quiverCommon[other.ordinal()] / otherCommon[other.ordinal()]))
            .append("**");
      } else {
        md.append('–');
      }
      md.append(" |");
    }
    md.append(" | |\n");
    if (!others.isEmpty()) {
      md.append("| geometric mean of ratios |");
      kinds.forEach(k -> md.append(" |"));
      for (Engine.Kind other : others) {
        int n = ratioCount[other.ordinal()];
        md.append(' ')
            .append(n == 0 ? "–" : Summary.ratio(Math.exp(logRatioSum[other.ordinal()] / n)))
            .append(" |");
      }
      md.append(" | |\n");
    }
    md.append(
        "\nSeconds: wall time of the counted pass, from submitting the query to its last row."
            + " Ratios above 1 mean Quiver is slower; the total ratio is over the queries both"
            + " engines answered. Match: every answer is compared with DuckDB's (row count, order"
            + " and values; decimals exact at the smaller scale, doubles 1e-9 relative).\n\n");
  }

  private static Optional<Double> ratio(BenchmarkRun run, int query, Engine.Kind other) {
    Optional<Measurement> q = run.counted(query, Engine.Kind.QUIVER);
    Optional<Measurement> o = run.counted(query, other);
    if (q.isPresent() && o.isPresent() && q.get().answered() && o.get().answered()) {
      return Optional.of(q.get().seconds() / Math.max(o.get().seconds(), 1e-6));
    }
    return Optional.empty();
  }
}
