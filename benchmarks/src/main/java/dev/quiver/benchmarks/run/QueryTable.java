package dev.quiver.benchmarks.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The summary's main table: per query the seconds of each engine in the counted pass, the Quiver /
 * Flink SQL and Quiver / DuckDB ratios, DuckDB's row count and whether the answers matched; then
 * the totals (the ratio over the queries both engines answered) and the geometric means of the
 * ratios. Where the workload asks for it ({@link Workload#failureReasonsInTable}), a failed query's
 * cell says why ({@code failed: <reason>}) and, when an engine left queries unanswered, a second
 * total row sums only the queries every engine answered.
 */
final class QueryTable {
  private QueryTable() {}

  static void append(BenchmarkRun run, List<Engine.Kind> kinds, StringBuilder md) {
    boolean reasons = run.workload.failureReasonsInTable();
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
    Summary.engineHeaders(md, kinds, others, "");
    md.append(" rows | match |\n|---|");
    Summary.rightAligned(md, kinds.size() + others.size() + 1);
    md.append("---|\n");
    for (int query : run.options.queries()) {
      md.append("| q").append(query).append(" |");
      long rows = -1;
      List<String> matches = new ArrayList<>();
      for (Engine.Kind kind : kinds) {
        Optional<Measurement> m = run.counted(query, kind);
        if (m.isPresent() && m.get().answered()) {
          md.append(' ').append(Summary.seconds(m.get().seconds())).append(" |");
          if (rows < 0 || kind == Engine.Kind.DUCKDB) {
            rows = m.get().rows();
          }
        } else {
          md.append(' ').append(m.map(x -> cell(x, reasons)).orElse("–")).append(" |");
        }
        if (kind != Engine.Kind.DUCKDB
            && m.isPresent()
            && m.get().match() != Measurement.Match.YES) {
          matches.add(kind.label + ": " + m.get().match().text);
        }
      }
      for (Engine.Kind other : others) {
        md.append(' ')
            .append(Totals.ratio(run, query, other).map(Summary::ratio).orElse("–"))
            .append(" |");
      }
      md.append(' ').append(rows < 0 ? "–" : Long.toString(rows)).append(" | ");
      md.append(matches.isEmpty() ? "yes" : String.join(", ", matches)).append(" |\n");
    }
    Totals totals = Totals.of(run, run.options.queries());
    totalRow("**total**", totals, kinds, others, true, md);
    if (!others.isEmpty()) {
      md.append("| geometric mean of ratios |");
      kinds.forEach(k -> md.append(" |"));
      for (Engine.Kind other : others) {
        md.append(' ')
            .append(totals.geometricMean(other).map(Summary::ratio).orElse("–"))
            .append(" |");
      }
      md.append(" | |\n");
    }
    List<Integer> common = Totals.answeredByAll(run);
    boolean someFailed = common.size() < run.options.queries().size();
    if (reasons && someFailed) {
      String label = "total of the " + common.size() + " queries all answered";
      totalRow(label, Totals.of(run, common), kinds, others, false, md);
    }
    md.append(
        "\nSeconds: wall time of the counted pass, from submitting the query to its last row."
            + " Ratios above 1 mean Quiver is slower; the total ratio is over the queries both"
            + " engines answered. Match: every answer is compared with DuckDB's (row count, order"
            + " and values; decimals exact at the smaller scale, doubles 1e-9 relative).");
    if (reasons) {
      md.append(' ').append(run.workload.comparisonRule());
    }
    if (reasons && someFailed) {
      md.append(
          " A query an engine did not answer (failed or timed out) is left out of that engine's"
              + " total, which says how many in brackets:");
      for (Engine.Kind kind : kinds) {
        List<String> missing = new ArrayList<>();
        for (int query : run.options.queries()) {
          if (run.counted(query, kind).map(m -> !m.answered()).orElse(true)) {
            missing.add("q" + query);
          }
        }
        if (!missing.isEmpty()) {
          md.append(' ')
              .append(kind.label)
              .append(" leaves out ")
              .append(String.join(", ", missing))
              .append('.');
        }
      }
      md.append(" The second total row sums the ")
          .append(common.size())
          .append(" queries every engine answered.");
    }
    md.append("\n\n");
  }

  /** {@code failed: <reason>} for a failure, {@code timeout}, or the match's text. */
  private static String cell(Measurement m, boolean reasons) {
    if (!reasons || m.match() != Measurement.Match.ERROR) {
      return m.match().text;
    }
    String why = m.reason() != null ? m.reason() : m.detail() == null ? "" : m.detail();
    return "failed: " + why.replace("|", "\\|").replaceAll("\\s+", " ");
  }

  /** A row of total seconds per engine and Quiver's total ratios to its peers. */
  private static void totalRow(
      String label,
      Totals totals,
      List<Engine.Kind> kinds,
      List<Engine.Kind> others,
      boolean countUnanswered,
      StringBuilder md) {
    md.append("| ").append(label).append(" |");
    for (Engine.Kind kind : kinds) {
      md.append(" **").append(Summary.seconds(totals.seconds(kind))).append("**");
      if (countUnanswered && totals.unanswered(kind) > 0) {
        md.append(" (").append(totals.unanswered(kind)).append(" failed)");
      }
      md.append(" |");
    }
    for (Engine.Kind other : others) {
      md.append(' ')
          .append(totals.ratio(other).map(r -> "**" + Summary.ratio(r) + "**").orElse("–"))
          .append(" |");
    }
    md.append(" | |\n");
  }
}
