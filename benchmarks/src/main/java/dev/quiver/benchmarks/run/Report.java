package dev.quiver.benchmarks.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes a run's results: {@code results.tsv} (the counted pass: query, engine, seconds, rows,
 * match, detail), {@code all-passes.tsv}, {@code summary.md}, {@code chart.svg} and, when something
 * failed, {@code errors.txt} with the stack traces.
 */
public final class Report {
  public static final String TSV = "results.tsv";
  public static final String ALL_PASSES = "all-passes.tsv";
  public static final String SUMMARY = "summary.md";
  public static final String CHART = "chart.svg";
  public static final String ERRORS = "errors.txt";

  private Report() {}

  static void write(BenchmarkRun run, Path out) throws IOException {
    Files.createDirectories(out);
    Files.writeString(out.resolve(TSV), tsv(run.countedMeasurements(), false));
    Files.writeString(out.resolve(ALL_PASSES), tsv(run.measurements, true));
    Files.writeString(out.resolve(SUMMARY), Summary.markdown(run));
    Files.writeString(out.resolve(CHART), SvgChart.render(run));
    if (!run.errors.isEmpty()) {
      Files.writeString(out.resolve(ERRORS), String.join("\n\n", run.errors) + "\n");
    }
  }

  static String tsv(List<Measurement> measurements, boolean withPass) {
    StringBuilder tsv = new StringBuilder();
    tsv.append("query\tengine\t").append(withPass ? "pass\t" : "");
    tsv.append("seconds\trows\tmatch\tdetail\n");
    for (Measurement m : measurements) {
      tsv.append('q').append(m.query()).append('\t').append(m.engine().id).append('\t');
      if (withPass) {
        tsv.append(m.pass()).append('\t');
      }
      tsv.append(String.format(Locale.ROOT, "%.3f", m.seconds())).append('\t');
      tsv.append(m.rows() < 0 ? "" : Long.toString(m.rows())).append('\t');
      tsv.append(m.match().text).append('\t');
      tsv.append(m.detail() == null ? "" : m.detail().replaceAll("[\t\r\n]+", " ")).append('\n');
    }
    return tsv.toString();
  }
}
