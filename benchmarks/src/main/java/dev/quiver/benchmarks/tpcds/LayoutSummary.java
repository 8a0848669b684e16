package dev.quiver.benchmarks.tpcds;

import dev.quiver.benchmarks.run.BenchmarkOptions;
import dev.quiver.benchmarks.run.BenchmarkRun;
import dev.quiver.benchmarks.run.Engine;
import dev.quiver.benchmarks.run.Summary;
import dev.quiver.benchmarks.run.Totals;
import java.util.List;
import java.util.Optional;

/**
 * The summary of a TPC-DS run over one or both data layouts: a table of each layout's totals per
 * engine and Quiver's ratios to its peers, then each layout's own summary (its headings one level
 * down).
 */
final class LayoutSummary {
  private LayoutSummary() {}

  static String markdown(List<BenchmarkRun> runs) {
    BenchmarkRun first = runs.get(0);
    BenchmarkOptions o = first.options;
    List<Engine.Kind> kinds = first.engineKinds();
    List<Engine.Kind> peers = kinds.contains(Engine.Kind.QUIVER) ? peers(kinds) : List.of();
    StringBuilder md = new StringBuilder();
    md.append("# ")
        .append(first.workload.name())
        .append(" SF ")
        .append(BenchmarkOptions.scaleName(o.scale()))
        .append(", parallelism ")
        .append(o.parallelism())
        .append(", by data layout\n\n");
    md.append("| layout | queries | data |");
    Summary.engineHeaders(md, kinds, peers, " (geo. mean)");
    md.append("\n|---|---:|---|");
    Summary.rightAligned(md, kinds.size() + peers.size());
    md.append('\n');
    for (BenchmarkRun run : runs) {
      row(md, run, run.variant, run.dataDescription(), run.options.queries(), kinds, peers, true);
      List<Integer> common = Totals.answeredByAll(run);
      if (common.size() < run.options.queries().size()) {
        String label = run.variant + ", queries all answered";
        row(md, run, label, "", common, kinds, peers, false);
      }
    }
    md.append("\nSeconds: the counted pass (pass ")
        .append(o.passes())
        .append(
            "), summed over the queries each engine answered (how many it did not, in"
                + " brackets; the second row of a layout sums only the queries every engine"
                + " answered). Quiver / peer: Quiver's total over the peer's on the queries both"
                + " answered, and the geometric mean of the per-query ratios.\n");
    for (BenchmarkRun run : runs) {
      md.append("\n## ").append(run.variant).append("\n\n");
      String summary = Summary.markdown(run);
      md.append(summary.substring(summary.indexOf('\n') + 1).replaceAll("(?m)^#", "##").strip())
          .append('\n');
    }
    return md.toString();
  }

  private static void row(
      StringBuilder md,
      BenchmarkRun run,
      String label,
      String data,
      List<Integer> queries,
      List<Engine.Kind> kinds,
      List<Engine.Kind> peers,
      boolean countUnanswered) {
    Totals totals = Totals.of(run, queries);
    md.append("| ")
        .append(label)
        .append(" | ")
        .append(queries.size())
        .append(" | ")
        .append(data)
        .append(" |");
    for (Engine.Kind kind : kinds) {
      md.append(' ').append(Summary.seconds(totals.seconds(kind)));
      if (countUnanswered && totals.unanswered(kind) > 0) {
        md.append(" (").append(totals.unanswered(kind)).append(" failed)");
      }
      md.append(" |");
    }
    for (Engine.Kind peer : peers) {
      Optional<Double> ratio = totals.ratio(peer);
      Optional<Double> mean = totals.geometricMean(peer);
      md.append(' ')
          .append(ratio.map(Summary::ratio).orElse("–"))
          .append(mean.map(m -> " (" + Summary.ratio(m) + ")").orElse(""))
          .append(" |");
    }
    md.append('\n');
  }

  private static List<Engine.Kind> peers(List<Engine.Kind> kinds) {
    return kinds.stream().filter(k -> k != Engine.Kind.QUIVER).toList();
  }
}
