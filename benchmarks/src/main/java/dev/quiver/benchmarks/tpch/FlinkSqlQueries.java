package dev.quiver.benchmarks.tpch;

import dev.quiver.cli.tpch.TpchQueries;
import java.util.List;

/**
 * The TPC-H query text Flink SQL runs: the specification's ({@link TpchQueries}) with the few
 * mechanical changes Flink's parser needs, each listed in {@link #ADAPTATIONS} and in the README.
 */
final class FlinkSqlQueries {
  /** One textual change to one query. */
  record Adaptation(int query, String from, String to, String why) {}

  static final List<Adaptation> ADAPTATIONS =
      List.of(
          new Adaptation(
              11,
              " as value",
              " as `value`",
              "VALUE is a reserved word in Flink SQL: the alias is quoted"),
          new Adaptation(
              11,
              "order by\n    value desc",
              "order by\n    `value` desc",
              "the same alias where ORDER BY names it"));

  private FlinkSqlQueries() {}

  static String text(int query) {
    String text = TpchQueries.text(query);
    for (Adaptation adaptation : ADAPTATIONS) {
      if (adaptation.query() == query) {
        if (!text.contains(adaptation.from())) {
          throw new IllegalStateException(
              "q" + query + " no longer contains \"" + adaptation.from() + "\"");
        }
        text = text.replace(adaptation.from(), adaptation.to());
      }
    }
    return text;
  }
}
