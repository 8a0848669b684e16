package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.stage.TaskStats;
import dev.quiver.operators.exec.PlanPipelines;
import dev.quiver.plan.node.InputMode;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.StageInput;
import dev.quiver.stage.Stage;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fact table stored in key order (four files of two row groups, some NULL keys) joined with small
 * dimensions broadcast into its stage: the joins' build key ranges make the fact scan skip files
 * and row groups no build key can match ({@code TaskKeyRanges}, {@code ScanKeyRanges}), and every
 * answer is DuckDB's: each join type, NULL keys on both sides, a build side with only NULL keys, an
 * empty one, dates as keys, and joins that keep unmatched probe rows (which must not skip).
 */
@ExtendWith(ArrowLeakCheck.class)
class KeyRangeScanQueryTest {
  private static final int FILES = 4;
  private static final int ROWS_PER_FILE = 3000;
  private static final int FACT_ROWS = FILES * ROWS_PER_FILE;

  private static final List<String> QUERIES =
      List.of(
          "SELECT count(*) AS n, sum(x) AS sx FROM facts JOIN dims ON k = d_k",
          "SELECT d_k, count(x) AS n FROM facts RIGHT JOIN dims ON k = d_k"
              + " GROUP BY d_k ORDER BY d_k NULLS FIRST",
          "SELECT count(*) AS n FROM facts WHERE k IN (SELECT d_k FROM dims)",
          "SELECT count(*) AS n FROM dims WHERE NOT EXISTS (SELECT 1 FROM facts WHERE k = d_k)",
          "SELECT count(*) AS n, sum(x) AS sx FROM facts LEFT JOIN dims ON k = d_k",
          "SELECT count(*) AS n FROM facts WHERE k NOT IN (SELECT d_k FROM dims WHERE d_k IS NOT"
              + " NULL)",
          "SELECT count(*) AS n FROM facts JOIN nulldims ON k = d_k",
          "SELECT count(*) AS n FROM facts JOIN nodims ON k = d_k",
          "SELECT count(*) AS n, min(x) AS lo FROM facts JOIN days ON dt = day",
          "SELECT d_tag, count(*) AS n FROM facts JOIN dims ON k = d_k AND x % 3 <> d_tag"
              + " GROUP BY d_tag ORDER BY d_tag");

  @TempDir static Path dir;
  private static List<List<List<Object>>> duckDb;
  private static QuiverSession session;

  @BeforeAll
  static void write() throws Exception {
    Files.createDirectories(dir.resolve("facts"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      for (int f = 0; f < FILES; f++) {
        s.execute(
            "COPY (SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE i::INTEGER END AS k, (i * 7)::BIGINT"
                + " AS x, DATE '2000-01-01' + (i // 10)::INTEGER AS dt FROM range("
                + f * ROWS_PER_FILE
                + ", "
                + (f + 1) * ROWS_PER_FILE
                + ") t(i)) TO '"
                + dir.resolve("facts").resolve("part-" + f + ".parquet")
                + "' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)");
      }
      // keys 3100..3299 (in the second file only), every 7th NULL
      s.execute(
          "COPY (SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE (3100 + i)::INTEGER END AS d_k,"
              + " (i % 3)::BIGINT AS d_tag FROM range(200) t(i)) TO '"
              + dir.resolve("dims.parquet")
              + "' (FORMAT PARQUET)");
      s.execute(
          "COPY (SELECT NULL::INTEGER AS d_k FROM range(5)) TO '"
              + dir.resolve("nulldims.parquet")
              + "' (FORMAT PARQUET)");
      s.execute(
          "COPY (SELECT 1::INTEGER AS d_k FROM range(5) WHERE false) TO '"
              + dir.resolve("nodims.parquet")
              + "' (FORMAT PARQUET)");
      s.execute(
          "COPY (SELECT DATE '2000-01-01' + (1000 + i)::INTEGER AS day FROM range(3) t(i)) TO '"
              + dir.resolve("days.parquet")
              + "' (FORMAT PARQUET)");
    }
    List<String> tables = List.of("facts", "dims", "nulldims", "nodims", "days");
    try (DuckDbReference reference = new DuckDbReference()) {
      reference.view("facts", "read_parquet('" + dir.resolve("facts") + "/*.parquet')");
      for (String table : tables.subList(1, tables.size())) {
        reference.view(table, "read_parquet('" + dir.resolve(table + ".parquet") + "')");
      }
      duckDb = new ArrayList<>();
      for (String query : QUERIES) {
        duckDb.add(reference.rows(query));
      }
    }
    session = QuiverSession.builder().parallelism(2).build();
    session.registerTable("facts", dir.resolve("facts").toString());
    for (String table : tables.subList(1, tables.size())) {
      session.registerTable(table, dir.resolve(table + ".parquet").toString());
    }
  }

  @AfterAll
  static void close() {
    session.close();
  }

  @Test
  void everyAnswerIsDuckDbs() {
    for (int q = 0; q < QUERIES.size(); q++) {
      String query = QUERIES.get(q);
      assertThat(DuckDbReference.normalize(session.sql(query).rows()))
          .as(query)
          .isEqualTo(duckDb.get(q));
    }
    assertThat(((Number) duckDb.get(0).get(0).get(0)).longValue()).isBetween(100L, 200L);
    assertThat(((Number) duckDb.get(6).get(0).get(0)).longValue()).isZero();
  }

  @Test
  void theFactScanSkipsWhatNoBuildKeyCanMatch() {
    // the dimension's keys lie in one row group of one file: at most 2048 fact rows are read
    assertThat(factRowsRead(QUERIES.get(0))).isPositive().isLessThanOrEqualTo(2048);
    // no build key at all: nothing is read
    assertThat(factRowsRead(QUERIES.get(6))).isZero();
    assertThat(factRowsRead(QUERIES.get(7))).isZero();
    // a LEFT join keeps every fact row: everything is read
    assertThat(factRowsRead(QUERIES.get(4))).isEqualTo(FACT_ROWS);
  }

  /** The fact rows the stage that scans {@code facts} received, over its tasks. */
  private static long factRowsRead(String query) {
    try (SqlResult result = session.sql(query)) {
      result.rows();
      Map<Integer, List<TaskStats.Task>> stats = result.taskStats();
      long rows = 0;
      int stages = 0;
      for (Stage stage : result.graph().stages()) {
        if (scansFacts(stage.plan())) {
          stages++;
          for (TaskStats.Task task : stats.get(stage.id())) {
            rows += task.rowsIn();
          }
          // what else the stage reads: the dimension's rows, once per task
          rows -= otherRows(stage, stats);
        }
      }
      assertThat(stages).as(result.graph().explain()).isEqualTo(1);
      return rows;
    }
  }

  private static boolean scansFacts(PlanNode plan) {
    return PlanPipelines.inputs(plan).stream()
        .anyMatch(leaf -> leaf instanceof Scan scan && scan.source().name().equals("facts"));
  }

  // The rows of the stage's other inputs, which every task reads whole: a small table read in the
  // stage (its row count), or another stage's output broadcast to it (its rows out).
  private static long otherRows(Stage stage, Map<Integer, List<TaskStats.Task>> stats) {
    int tasks = stats.get(stage.id()).size();
    long rows = 0;
    for (PlanNode leaf : PlanPipelines.inputs(stage.plan())) {
      if (leaf instanceof Scan scan) {
        if (!scan.source().name().equals("facts")) {
          rows += scan.source().units().stream().mapToLong(u -> u.rows()).sum() * tasks;
        }
      } else if (leaf instanceof StageInput input && input.mode() == InputMode.BROADCAST) {
        rows += stats.get(input.stage()).stream().mapToLong(t -> t.rowsOut()).sum() * tasks;
      } else {
        throw new AssertionError("the fact stage reads a shuffle: " + stage);
      }
    }
    return rows;
  }
}
