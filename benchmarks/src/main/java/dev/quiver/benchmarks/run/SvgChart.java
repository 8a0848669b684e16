package dev.quiver.benchmarks.run;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The per-query times of the counted pass as an SVG bar chart, written by hand: one group of bars
 * per query (one bar per engine), seconds on a logarithmic axis (the engines differ by orders of
 * magnitude), a cross where an engine gave no answer, a red outline where its answer was wrong.
 */
final class SvgChart {
  private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c"};
  private static final int BAR = 12;
  private static final int GAP = 10;
  private static final int LEFT = 70;
  private static final int TOP = 50;
  private static final int PLOT_HEIGHT = 320;
  private static final int BOTTOM = 60;

  private SvgChart() {}

  static String render(BenchmarkRun run) {
    List<Engine.Kind> kinds = run.engineKinds();
    List<Integer> queries = run.options.queries();
    double min = Double.MAX_VALUE;
    double max = 0;
    for (Measurement m : run.countedMeasurements()) {
      if (m.answered()) {
        min = Math.min(min, Math.max(m.seconds(), 1e-3));
        max = Math.max(max, m.seconds());
      }
    }
    if (max == 0) {
      min = 0.01;
      max = 1;
    }
    int low = (int) Math.floor(Math.log10(min));
    int high = Math.max(low + 1, (int) Math.ceil(Math.log10(max)));
    int group = kinds.size() * BAR + GAP;
    int width = LEFT + queries.size() * group + 20;
    int height = TOP + PLOT_HEIGHT + BOTTOM;
    int baseline = TOP + PLOT_HEIGHT;
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n",
            width,
            height,
            width,
            height));
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n"
                + "<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s:"
                + " seconds per query (log scale, pass %d)</text>%n",
            width,
            height,
            LEFT,
            escape(run.title()),
            run.options.passes()));
    // Legend.
    for (int k = 0; k < kinds.size(); k++) {
      int x = LEFT + k * 110;
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"30\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"39\">%s</text>%n",
              x,
              color(kinds.get(k)),
              x + 14,
              escape(kinds.get(k).label)));
    }
    // Grid lines at powers of ten.
    for (int e = low; e <= high; e++) {
      double y = y(Math.pow(10, e), low, high, baseline);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
              LEFT,
              y,
              width - 20,
              y,
              LEFT - 6,
              y + 4,
              tick(e)));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">"
                + "seconds</text>%n",
            TOP + PLOT_HEIGHT / 2,
            TOP + PLOT_HEIGHT / 2));
    for (int q = 0; q < queries.size(); q++) {
      int query = queries.get(q);
      int x0 = LEFT + q * group + GAP / 2;
      for (int k = 0; k < kinds.size(); k++) {
        Optional<Measurement> m = run.counted(query, kinds.get(k));
        int x = x0 + k * BAR;
        if (m.isPresent() && m.get().answered()) {
          double top = y(Math.max(m.get().seconds(), Math.pow(10, low)), low, high, baseline);
          String outline = m.get().match().correct() ? "" : " stroke=\"red\" stroke-width=\"2\"";
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"%s>"
                      + "<title>q%d %s: %.3f s</title></rect>%n",
                  x,
                  top,
                  BAR - 1,
                  baseline - top,
                  color(kinds.get(k)),
                  outline,
                  query,
                  escape(kinds.get(k).label),
                  m.get().seconds()));
        } else {
          String why = m.map(x1 -> x1.match().text).orElse("not run");
          svg.append(
              String.format(
                  Locale.ROOT,
                  "<text x=\"%d\" y=\"%d\" fill=\"red\" text-anchor=\"middle\">×"
                      + "<title>q%d %s: %s</title></text>%n",
                  x + BAR / 2,
                  baseline - 4,
                  query,
                  escape(kinds.get(k).label),
                  escape(why)));
        }
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">q%d</text>%n",
              x0 + kinds.size() * BAR / 2,
              baseline + 16,
              query));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
            LEFT,
            baseline,
            width - 20,
            baseline));
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static double y(double seconds, int low, int high, int baseline) {
    double fraction = (Math.log10(seconds) - low) / (high - low);
    return baseline - fraction * PLOT_HEIGHT;
  }

  private static String tick(int exponent) {
    double value = Math.pow(10, exponent);
    return exponent >= 0
        ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%." + (-exponent) + "f", value);
  }

  private static String color(Engine.Kind kind) {
    return COLORS[kind.ordinal() % COLORS.length];
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
