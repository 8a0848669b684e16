package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.formats.ParquetFooter;
import dev.quiver.plan.node.DefaultPlanVisitor;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.stage.Stage;
import dev.quiver.stage.StageGraph;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL predicate pushdown end to end: a filter's comparisons reach the Parquet scan, files whose
 * statistics rule them out get no split unit, row groups are skipped while reading, and the answer
 * is the one of the same query without pushdown.
 *
 * <pre>
 *   t/part-f.parquet, f = 0..3: four row groups of G rows each; x rises through the table
 *   part-0: x in [0, 4G)   part-1: [4G, 8G) = rg0 [4G,5G) rg1 [5G,6G) rg2 [6G,7G) rg3 [7G,8G) ...
 *   WHERE x >= 5G + 100 AND x < 6G + 50   needs part-1 rg1 and rg2 only
 * </pre>
 *
 * The proof that skipped data is never read: after the table is registered and the reference
 * answers are computed, every row group the predicate rules out is overwritten with garbage (the
 * footers stay intact). The pushed-down query still answers correctly; the same query with its
 * comparisons hidden from pushdown ({@code abs(x)}) now fails on the garbage.
 */
@ExtendWith(ArrowLeakCheck.class)
class PredicatePushdownTest {
  private static final int G = 2048; // DuckDB's row group sizes are multiples of 2048
  private static final int FILES = 4;
  private static final String RANGE = "x >= " + (5 * G + 100) + " AND x < " + (6 * G + 50);
  private static final String QUERY =
      "SELECT count(*) AS n, sum(amount) AS total, min(s) AS first, max(d) AS last FROM t WHERE ";

  @TempDir static Path dir;
  private static Path table;
  private static QuiverSession session;
  private static List<List<Object>> unpushed;
  private static List<List<Object>> duckDb;

  @BeforeAll
  static void writeRegisterAndCorrupt() throws Exception {
    table = Files.createDirectories(dir.resolve("t"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      for (int f = 0; f < FILES; f++) {
        s.execute(
            "COPY (SELECT i::BIGINT AS x, (i % 7)::INTEGER AS y,"
                + " 's' || lpad(i::VARCHAR, 6, '0') AS s, (i / 100)::DECIMAL(15,2) AS amount,"
                + " DATE '2000-01-01' + (i / 10)::INTEGER AS d FROM range("
                + f * 4 * G
                + ", "
                + (f + 1) * 4 * G
                + ") r(i)) TO '"
                + table.resolve("part-" + f + ".parquet")
                + "' (FORMAT PARQUET, ROW_GROUP_SIZE "
                + G
                + ")");
      }
    }
    session = QuiverSession.builder().parallelism(2).build();
    session.registerTable("t", table.toString());
    assertThat(session.explain(QUERY + hidden(RANGE))).doesNotContain("filter=");
    unpushed = session.sql(QUERY + hidden(RANGE)).rows();
    try (DuckDbReference reference = new DuckDbReference()) {
      reference.view("t", "read_parquet('" + table + "/*.parquet')");
      duckDb = reference.rows(QUERY + RANGE);
    }
    for (int f = 0; f < FILES; f++) {
      Path file = table.resolve("part-" + f + ".parquet");
      List<ParquetFooter.RowGroup> groups = ParquetFooter.read(file).rowGroups();
      assertThat(groups).hasSize(4);
      for (int g = 0; g < groups.size(); g++) {
        if (f != 1 || g == 0 || g == 3) {
          destroy(file, groups.get(g));
        }
      }
    }
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @Test
  void skippedFilesAndRowGroupsAreNeverReadAndTheAnswerIsUnchanged() {
    List<List<Object>> pushed = session.sql(QUERY + RANGE).rows();

    assertThat(pushed).isEqualTo(unpushed);
    assertThat(DuckDbReference.normalize(pushed)).isEqualTo(duckDb);
    assertThat((Long) pushed.get(0).get(0)).isEqualTo(G - 100 + 50);
    assertThatThrownBy(() -> session.sql(QUERY + hidden(RANGE)).rows())
        .isInstanceOf(QuiverException.class);
  }

  @Test
  void onlyTheFileTheFilterNeedsIsPlannedWeighingItsMatchingRowGroups() throws IOException {
    List<Scan> scans = scans(session.stageGraph(QUERY + RANGE));

    assertThat(scans).hasSize(1);
    Scan scan = scans.get(0);
    assertThat(scan.source().filter()).isPresent();
    assertThat(scan.toString()).contains("filter=(" + RANGE + ")");
    assertThat(scan.source().units()).extracting(SplitUnit::path).hasSize(1);
    SplitUnit unit = scan.source().units().get(0);
    assertThat(Path.of(unit.path()).getFileName().toString()).isEqualTo("part-1.parquet");
    List<ParquetFooter.RowGroup> groups = ParquetFooter.read(Path.of(unit.path())).rowGroups();
    assertThat(unit.bytes())
        .isEqualTo(groups.get(1).compressedBytes() + groups.get(2).compressedBytes())
        .isLessThan(Files.size(Path.of(unit.path())));
  }

  @Test
  void aFilterNoRowCanSatisfyPlansNoUnitsAndAnswersFromNothing() {
    String impossible = "x > " + 100L * G + " AND y = 3";
    assertThat(scans(session.stageGraph(QUERY + impossible)).get(0).source().units()).isEmpty();

    List<List<Object>> rows = session.sql(QUERY + impossible).rows();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get(0)).isEqualTo(0L);
    assertThat(rows.get(0).subList(1, 4)).containsOnlyNulls();
  }

  @Test
  void explainShowsThePushedFilterOnTheScanAndKeepsTheFilter() {
    String explain = session.explain("SELECT x FROM t WHERE x BETWEEN 10 AND 20 AND s LIKE 's%'");
    assertThat(explain)
        .contains("Filter[")
        .contains("Scan[t [x, s], filter=(x >= 10 AND x <= 20), units=1");
  }

  /**
   * The same comparisons, but of {@code abs(x)} (x is never negative): a function of the column,
   * never pushed down. ({@code x + 0} would not do: Calcite simplifies it to {@code x}.)
   */
  private static String hidden(String range) {
    return range.replace("x ", "abs(x) ");
  }

  private static void destroy(Path file, ParquetFooter.RowGroup group) throws IOException {
    byte[] garbage = new byte[(int) group.compressedBytes()];
    Arrays.fill(garbage, (byte) 0x5A);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(group.offset());
      raf.write(garbage);
    }
  }

  private static List<Scan> scans(StageGraph graph) {
    List<Scan> scans = new ArrayList<>();
    Set<PlanNode> seen = new HashSet<>();
    for (Stage stage : graph.stages()) {
      collect(stage.plan(), scans, seen);
    }
    return scans;
  }

  private static void collect(PlanNode node, List<Scan> scans, Set<PlanNode> seen) {
    if (!seen.add(node)) {
      return;
    }
    node.accept(
        new DefaultPlanVisitor<Void>() {
          @Override
          protected Void visitDefault(PlanNode other) {
            return null;
          }

          @Override
          public Void visitScan(Scan scan) {
            scans.add(scan);
            return null;
          }
        });
    node.children().forEach(child -> collect(child, scans, seen));
  }
}
