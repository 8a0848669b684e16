package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.formats.ScanKeyRanges.Action;
import dev.quiver.operators.keyrange.KeyRange;
import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key ranges of a task's joins narrow the read of one Parquet file (written by DuckDB: four row
 * groups of {@code G} rows; x, d and dt rise with the row number, y cycles 0..6 in every row
 * group): skip the file, filter it, or read it as planned; a filtered read returns every row in the
 * ranges.
 */
@ExtendWith(ArrowLeakCheck.class)
class ScanKeyRangesTest {
  private static final int G = 2048;
  private static final List<String> COLUMNS = List.of("x", "y", "d", "dt");

  @TempDir static Path dir;
  private static Path file;
  private static FileTable table;
  private static ScanSpec scan;
  private static FileSplit split;

  @BeforeAll
  static void writeFile() throws Exception {
    file = dir.resolve("rg.parquet");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT i::BIGINT AS x, (i % 7)::INTEGER AS y, (i / 100)::DECIMAL(15,2) AS d,"
              + " DATE '2000-01-01' + i::INTEGER AS dt FROM range("
              + 4 * G
              + ") t(i)) TO '"
              + file
              + "' (FORMAT PARQUET, ROW_GROUP_SIZE "
              + G
              + ")");
    }
    table = FileTable.open(file.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());
    scan = table.scan(COLUMNS, Optional.empty());
    split = new FileSplit(file.toString(), FileFormat.PARQUET, Files.size(file), 4 * G);
  }

  @Test
  void noRangesReadAsPlanned() {
    ScanKeyRanges.Decision decision = ScanKeyRanges.decide(split, scan, Map.of());
    assertThat(decision.action()).isEqualTo(Action.READ);
    assertThat(decision.spec()).isSameAs(scan);
  }

  @Test
  void anEmptyRangeOrOneOutsideEveryRowGroupSkipsTheFile() {
    assertThat(ScanKeyRanges.decide(split, scan, Map.of(0, KeyRange.EMPTY)).action())
        .isEqualTo(Action.SKIP);
    assertThat(ScanKeyRanges.decide(split, scan, Map.of(0, new KeyRange(4 * G, 9 * G))).action())
        .isEqualTo(Action.SKIP);
    // also a file without statistics, when a range is empty
    FileSplit csv = new FileSplit("/nowhere/t.csv", FileFormat.CSV, 10, -1);
    assertThat(ScanKeyRanges.decide(csv, scan, Map.of(1, KeyRange.EMPTY)).action())
        .isEqualTo(Action.SKIP);
    assertThat(ScanKeyRanges.decide(csv, scan, Map.of(1, new KeyRange(2, 2))).action())
        .isEqualTo(Action.READ);
  }

  @Test
  void aRangeThatRulesOutRowGroupsFiltersAndKeepsEveryRowInIt(BufferAllocator allocator) {
    ScanKeyRanges.Decision decision =
        ScanKeyRanges.decide(split, scan, Map.of(0, new KeyRange(G + 5, G + 10)));
    assertThat(decision.action()).isEqualTo(Action.FILTER);
    List<List<Object>> rows = TestFiles.read(table, decision.spec(), allocator);
    assertThat(rows).extracting(row -> (Long) row.get(0)).allMatch(x -> x >= G && x < 2 * G);
    assertThat(rows)
        .extracting(row -> row.get(0))
        .contains(G + 5L, G + 6L, G + 7L, G + 8L, G + 9L, G + 10L);
    assertThat(rows.size()).isLessThan(G + 1);
  }

  @Test
  void decimalsAndDatesAreComparedInTheirOwnUnits(BufferAllocator allocator) {
    // d = i / 100 with two places: unscaled [2048, 2100] is [20.48, 21.00], rows 2048..2100
    ScanKeyRanges.Decision byDecimal =
        ScanKeyRanges.decide(split, scan, Map.of(2, new KeyRange(2048, 2100)));
    assertThat(byDecimal.action()).isEqualTo(Action.FILTER);
    assertThat(TestFiles.read(table, byDecimal.spec(), allocator))
        .extracting(row -> ((BigDecimal) row.get(2)).compareTo(new BigDecimal("20.48")) >= 0)
        .contains(true);
    long day = LocalDate.of(2000, 1, 1).toEpochDay() + 3 * G;
    ScanKeyRanges.Decision byDate =
        ScanKeyRanges.decide(split, scan, Map.of(3, new KeyRange(day, day)));
    assertThat(byDate.action()).isEqualTo(Action.FILTER);
    assertThat(TestFiles.read(table, byDate.spec(), allocator))
        .extracting(row -> row.get(0))
        .contains(3L * G)
        .allMatch(x -> (Long) x >= 3L * G);
  }

  @Test
  void aRangeThatRulesOutNoRowGroupReadsAsPlanned() {
    // y spans 0..6 in every row group: even [2, 2] rules none out, and filtering rows costs more
    for (KeyRange range : List.of(new KeyRange(2, 2), new KeyRange(0, 5), new KeyRange(-9, 9))) {
      ScanKeyRanges.Decision decision = ScanKeyRanges.decide(split, scan, Map.of(1, range));
      assertThat(decision.action()).as("%s", range).isEqualTo(Action.READ);
      assertThat(decision.spec()).isSameAs(scan);
    }
    // with a column that rules some out, both ranges filter, and every row in both comes back
    ScanKeyRanges.Decision both =
        ScanKeyRanges.decide(
            split, scan, Map.of(0, new KeyRange(0, 2L * G - 1), 1, new KeyRange(2, 2)));
    assertThat(both.action()).isEqualTo(Action.FILTER);
  }

  @Test
  void thePlannedPredicateStaysAndOnlyWhatTheRangesRuleOutBeyondItCounts(
      BufferAllocator allocator) {
    ScanSpec planned =
        table.scan(
            COLUMNS,
            Optional.of(ScanPredicate.of(new ColumnPredicate("x", ColumnPredicate.Op.GE, 100L))));
    ScanKeyRanges.Decision decision =
        ScanKeyRanges.decide(
            split, planned, Map.of(0, new KeyRange(0, 2L * G - 1), 1, new KeyRange(3, 3)));
    assertThat(decision.action()).isEqualTo(Action.FILTER);
    assertThat(decision.spec().predicate().orElseThrow().conjuncts())
        .contains(new ColumnPredicate("x", ColumnPredicate.Op.GE, 100L))
        .contains(new ColumnPredicate("x", ColumnPredicate.Op.LE, 2L * G - 1))
        .contains(new ColumnPredicate("y", ColumnPredicate.Op.GE, 3L))
        .contains(new ColumnPredicate("y", ColumnPredicate.Op.LE, 3L));
    List<List<Object>> rows = TestFiles.read(table, decision.spec(), allocator);
    assertThat(
            rows.stream()
                .filter(r -> (Long) r.get(0) >= 100 && (Long) r.get(0) < 2L * G)
                .filter(r -> (Integer) r.get(1) == 3)
                .count())
        .isEqualTo(countWhere("x >= 100 AND x < " + 2 * G + " AND y = 3"));

    // a planned predicate that keeps only row group 0, and ranges that rule out nothing more
    ScanSpec first =
        table.scan(
            COLUMNS,
            Optional.of(ScanPredicate.of(new ColumnPredicate("x", ColumnPredicate.Op.LT, 100L))));
    assertThat(ScanKeyRanges.decide(split, first, Map.of(0, new KeyRange(0, 2L * G - 1))).action())
        .isEqualTo(Action.READ);
    assertThat(ScanKeyRanges.decide(split, first, Map.of(0, new KeyRange(G, 2L * G))).action())
        .isEqualTo(Action.SKIP);
  }

  private static long countWhere(String condition) {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        var rs = s.executeQuery("SELECT count(*) FROM '" + file + "' WHERE " + condition)) {
      rs.next();
      return rs.getLong(1);
    } catch (java.sql.SQLException e) {
      throw new AssertionError(condition, e);
    }
  }
}
