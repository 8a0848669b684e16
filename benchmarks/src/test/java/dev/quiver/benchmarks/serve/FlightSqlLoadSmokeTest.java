package dev.quiver.benchmarks.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load test at a tiny size (SF 0.01, 3 clients x 2 queries, two at once): every query answers,
 * a query's row count is the same in every run, and nothing is left afterwards (the run itself
 * fails otherwise). It asserts no time.
 */
@ExtendWith(ArrowLeakCheck.class)
class FlightSqlLoadSmokeTest {
  @Test
  void clientsRunTheirQueriesAndNothingIsLeft(@TempDir Path dir) throws Exception {
    FlightSqlLoad.Options options =
        FlightSqlLoad.parse(
            "--sf", "0.01",
            "--data", dir.resolve("data").toString(),
            "--clients", "3",
            "--per-client", "2",
            "--queries", "1,6,14",
            "--parallelism", "1",
            "--max-concurrent-queries", "2",
            "--timeout-seconds", "120");
    FlightSqlLoad.Result result = FlightSqlLoad.run(options);
    assertEquals(6, result.runs());
    assertEquals(3, result.rows().size());
    String report = FlightSqlLoad.report(options, result);
    assertTrue(report.contains("queries/s") && report.contains("p99"), report);
  }
}
