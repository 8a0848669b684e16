package dev.quiver.benchmarks.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quiver.benchmarks.run.BenchmarkOptions;
import dev.quiver.benchmarks.run.BenchmarkRun;
import dev.quiver.benchmarks.run.Report;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the TPC-H benchmark as its command line would, at a tiny scale (SF 0.01, two queries, all
 * three engines, one pass, one fixed-cost run), and checks that it writes its TSV, Markdown and SVG
 * and that every engine's answers equal DuckDB's. It asserts no time.
 */
@ExtendWith(ArrowLeakCheck.class)
class TpchBenchmarkSmokeTest {

  @Test
  void runsAllThreeEnginesAndEveryAnswerMatches(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    BenchmarkOptions options =
        TpchBenchmark.parse(
            "--sf", "0.01",
            "--parallelism", "2",
            "--data", dir.resolve("data").toString(),
            "--out", out.toString(),
            "--engines", "quiver,flink,duckdb",
            "--queries", "3,6",
            "--passes", "1",
            "--fixed-cost-runs", "1",
            "--managed-memory", "256m",
            "--timeout-seconds", "120");
    BenchmarkRun run = TpchBenchmark.run(options);

    for (String file : List.of(Report.TSV, Report.ALL_PASSES, Report.SUMMARY, Report.CHART)) {
      assertTrue(Files.size(out.resolve(file)) > 0, file + " is missing or empty");
    }
    List<String> tsv = Files.readAllLines(out.resolve(Report.TSV));
    assertEquals("query\tengine\tseconds\trows\tmatch\tdetail", tsv.get(0));
    assertEquals(1 + 2 * 3, tsv.size(), "one row per query and engine:\n" + String.join("\n", tsv));
    for (String line : tsv.subList(1, tsv.size())) {
      String[] fields = line.split("\t", -1);
      String match = fields[1].equals("duckdb") ? "reference" : "yes";
      assertEquals(match, fields[4], "every answer equals DuckDB's: " + line);
      assertTrue(Long.parseLong(fields[3]) > 0, "rows: " + line);
    }
    String summary = Files.readString(out.resolve(Report.SUMMARY));
    assertTrue(summary.contains("| **total** |"), summary);
    assertTrue(summary.contains("Quiver / Flink SQL"), summary);
    assertTrue(summary.contains("Quiver's fixed cost per query"), summary);
    String svg = Files.readString(out.resolve(Report.CHART));
    assertTrue(svg.startsWith("<svg") && svg.strip().endsWith("</svg>"), svg);
    assertEquals(2, run.quiverFixedCost.size(), "fixed cost of both empty-table queries");
    assertTrue(run.errors.isEmpty(), () -> String.join("\n", run.errors));
  }
}
