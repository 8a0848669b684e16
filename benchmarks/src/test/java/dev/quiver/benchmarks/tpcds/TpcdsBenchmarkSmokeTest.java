package dev.quiver.benchmarks.tpcds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quiver.benchmarks.run.BenchmarkRun;
import dev.quiver.benchmarks.run.QueryEdits;
import dev.quiver.benchmarks.run.Report;
import dev.quiver.cli.tpcds.TpcdsQueries;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the TPC-DS benchmark as its command line would, at a tiny scale (SF 0.01, one Parquet file
 * per table, two queries that need Flink SQL's edits, all three engines (the default, as is
 * parallelism 2), one pass), and checks that it writes its reports and that every engine's answers
 * equal DuckDB's (40-70 s on 2 busy cores, a third of it generating the data). It asserts no time.
 */
@ExtendWith(ArrowLeakCheck.class)
class TpcdsBenchmarkSmokeTest {

  @Test
  void onOneFilePerTableEveryEngineGivesDuckDbsAnswers(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("report");
    String command =
        "--sf 0.01 --layout single --queries 7,32 --passes 1 --managed-memory 256m"
            + " --timeout-seconds 120 --data "
            + dir.resolve("data")
            + " --out "
            + out;
    TpcdsBenchmark.Options options = TpcdsBenchmark.parse(command.split(" "));
    List<BenchmarkRun> runs = TpcdsBenchmark.run(options);

    assertEquals(1, runs.size());
    Path single = out.resolve("single");
    for (String file : List.of(Report.TSV, Report.ALL_PASSES, Report.SUMMARY, Report.CHART)) {
      assertTrue(Files.size(single.resolve(file)) > 0, file + " is missing or empty");
    }
    assertEquals(
        1,
        Files.list(dir.resolve("data").resolve("single").resolve("store_sales")).count(),
        "one file per table");
    List<String> tsv = Files.readAllLines(single.resolve(Report.TSV));
    assertEquals(1 + 2 * 3, tsv.size(), "one row per query and engine:\n" + String.join("\n", tsv));
    for (String line : tsv.subList(1, tsv.size())) {
      String[] fields = line.split("\t", -1);
      String match = fields[1].equals("duckdb") ? "reference" : "yes";
      assertEquals(match, fields[4], "every answer equals DuckDB's: " + line);
    }
    String summary = Files.readString(out.resolve(Report.SUMMARY));
    assertTrue(summary.startsWith("# TPC-DS SF 0.01, parallelism 2, by data layout"), summary);
    assertTrue(summary.contains("| one Parquet file per table | 2 |"), summary);
    assertTrue(summary.contains("## one Parquet file per table"), summary);
    assertTrue(
        summary.contains("avg(CAST(ss_quantity AS DOUBLE))"), "q7's edit is listed:\n" + summary);
    String svg = Files.readString(single.resolve(Report.CHART));
    assertTrue(svg.startsWith("<svg") && svg.strip().endsWith("</svg>"), svg);
    assertTrue(runs.get(0).errors.isEmpty(), () -> String.join("\n", runs.get(0).errors));
  }

  @Test
  void layoutsAreSingleMultiOrBoth() {
    assertEquals(
        List.of(TpcdsBenchmark.Layout.SINGLE, TpcdsBenchmark.Layout.MULTI),
        TpcdsBenchmark.parse().layouts());
    assertEquals(
        List.of(TpcdsBenchmark.Layout.MULTI), TpcdsBenchmark.parse("--layout", "multi").layouts());
    assertEquals(99, TpcdsBenchmark.parse("--layout", "both").common().queries().size());
    assertThrows(IllegalArgumentException.class, () -> TpcdsBenchmark.parse("--layout", "x"));
    assertThrows(
        IllegalArgumentException.class, () -> TpcdsBenchmark.parse("--fixed-cost-runs", "1"));
  }

  @Test
  void everyFlinkEditStillFindsItsText() {
    QueryEdits edits = FlinkTpcdsEdits.EDITS;
    for (int q = 1; q <= TpcdsQueries.COUNT; q++) {
      int query = q;
      String text = TpcdsQueries.text(query);
      String edited = edits.apply(query, text); // throws if an edit's text is gone
      boolean listed = edits.all().stream().anyMatch(e -> e.query() == query);
      assertEquals(listed, !edited.equals(text), "q" + query);
    }
  }
}
