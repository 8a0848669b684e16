package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.formats.ColumnPredicate.Op;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Parquet file (written by DuckDB) with four row groups of {@code G} rows each and disjoint
 * ranges: row group g holds x in [Gg, Gg + G), with strings, decimals, dates and timestamps rising
 * with x. (DuckDB rounds row group sizes to its vector size, 2048.)
 */
@ExtendWith(ArrowLeakCheck.class)
class ParquetSkippingTest {
  private static final int G = 2048;

  @TempDir Path dir;
  private Path file;

  @BeforeEach
  void writeFile() throws SQLException {
    file = dir.resolve("rg.parquet");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT i::BIGINT AS x, (i % 7)::INTEGER AS y, 'v' || lpad(i::VARCHAR, 4, '0') AS s,"
              + " (i / 100)::DECIMAL(15,2) AS d, DATE '2000-01-01' + i::INTEGER AS dt,"
              + " TIMESTAMP '2000-01-01' + to_seconds(i) AS ts, i % 2 = 0 AS b"
              + " FROM range("
              + 4 * G
              + ") t(i)) TO '"
              + file
              + "' (FORMAT PARQUET, ROW_GROUP_SIZE "
              + G
              + ")");
    }
  }

  @Test
  void footerHasRowGroupsWithMinMaxOfEveryType() {
    ParquetFooter.Metadata footer = ParquetFooter.read(file);

    assertThat(footer.rows()).isEqualTo(4 * G);
    assertThat(footer.rowGroups()).hasSize(4);
    ParquetFooter.RowGroup second = footer.rowGroups().get(1);
    assertThat(second.rows()).isEqualTo(G);
    assertThat(second.compressedBytes()).isPositive();
    assertThat(second.offset()).isGreaterThan(footer.rowGroups().get(0).offset());
    assertThat(second.columns().get("x").min()).isEqualTo(BigDecimal.valueOf(G));
    assertThat(second.columns().get("x").max()).isEqualTo(BigDecimal.valueOf(2 * G - 1));
    assertThat(second.columns().get("x").nullCount()).isZero();
    assertThat(second.columns().get("d").min()).isEqualTo(BigDecimal.valueOf(G, 2));
    assertThat(second.columns().get("dt").min())
        .isEqualTo(BigDecimal.valueOf(LocalDate.of(2000, 1, 1).plusDays(G).toEpochDay()));
    assertThat((BigDecimal) second.columns().get("ts").max())
        .isEqualByComparingTo(BigDecimal.valueOf(946_684_800L + 2 * G - 1).scaleByPowerOfTen(6));
    assertThat((byte[]) second.columns().get("s").min()).isEqualTo(bytes("v" + G));
    assertThat((byte[]) second.columns().get("s").max()).isEqualTo(bytes("v" + (2 * G - 1)));
    assertThat(second.columns().get("b").min()).isEqualTo(false);
  }

  @Test
  void predicatesRuleOutRowGroupsByStatistics() {
    List<ParquetFooter.RowGroup> groups = ParquetFooter.read(file).rowGroups();

    assertThat(matching(groups, new ColumnPredicate("x", Op.GE, 5L * G / 2))).containsExactly(2, 3);
    assertThat(matching(groups, new ColumnPredicate("x", Op.LT, G))).containsExactly(0);
    assertThat(matching(groups, new ColumnPredicate("x", Op.LE, G))).containsExactly(0, 1);
    assertThat(matching(groups, new ColumnPredicate("x", Op.EQ, 4L * G - 1))).containsExactly(3);
    assertThat(matching(groups, new ColumnPredicate("x", Op.GT, 4L * G - 1))).isEmpty();
    assertThat(matching(groups, new ColumnPredicate("x", Op.NE, 5L))).containsExactly(0, 1, 2, 3);
    assertThat(matching(groups, new ColumnPredicate("d", Op.GT, new BigDecimal("51.195"))))
        .containsExactly(2, 3);
    assertThat(
            matching(
                groups, new ColumnPredicate("dt", Op.LT, LocalDate.of(2000, 1, 1).plusDays(G + 1))))
        .containsExactly(0, 1);
    assertThat(
            matching(
                groups,
                new ColumnPredicate(
                    "ts", Op.GE, LocalDateTime.of(2000, 1, 1, 0, 0).plusSeconds(2 * G + 5))))
        .containsExactly(2, 3);
    assertThat(matching(groups, new ColumnPredicate("s", Op.EQ, "v" + (2 * G + 297))))
        .containsExactly(2);
    assertThat(matching(groups, new ColumnPredicate("y", Op.EQ, 3))).containsExactly(0, 1, 2, 3);
    assertThat(matching(groups, new ColumnPredicate("nosuch", Op.EQ, 3)))
        .containsExactly(0, 1, 2, 3);
    assertThat(
            matching(
                groups,
                new ColumnPredicate("x", Op.GE, 3L * G / 2),
                new ColumnPredicate("s", Op.LT, "v" + 2 * G)))
        .containsExactly(1);
  }

  @Test
  void planningDropsFilesWithNoMatchingRowGroupAndWeighsTheRest() {
    TableFiles table = TableLocations.resolve(file.toString(), Optional.empty());
    List<ParquetFooter.RowGroup> groups = ParquetFooter.read(file).rowGroups();

    assertThat(
            SplitPlanner.plan(
                table, Optional.of(ScanPredicate.of(new ColumnPredicate("x", Op.GT, 9999L)))))
        .isEmpty();
    List<FileSplit> splits =
        SplitPlanner.plan(
            table, Optional.of(ScanPredicate.of(new ColumnPredicate("x", Op.LT, 10L))));
    assertThat(splits).hasSize(1);
    assertThat(splits.get(0).bytes()).isEqualTo(groups.get(0).compressedBytes());
    assertThat(splits.get(0).rows()).isEqualTo(4 * G);
    assertThat(SplitPlanner.plan(table, Optional.empty()).get(0).bytes()).isEqualTo(table.bytes());
  }

  // The proof that row groups are skipped, not just filtered: row groups 0 and 1 are destroyed,
  // so any read of them fails, yet a scan whose predicate rules them out succeeds.
  @Test
  void skippedRowGroupsAreNeverRead(BufferAllocator allocator) throws IOException {
    List<ParquetFooter.RowGroup> groups = ParquetFooter.read(file).rowGroups();
    long start = groups.get(0).offset();
    long end = groups.get(2).offset();
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      byte[] garbage = new byte[(int) (end - start)];
      Arrays.fill(garbage, (byte) 0x5A);
      raf.seek(start);
      raf.write(garbage);
    }
    FileTable table =
        FileTable.open(file.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());

    ScanPredicate predicate =
        ScanPredicate.of(
            new ColumnPredicate("x", Op.GE, 5L * G / 2),
            new ColumnPredicate("d", Op.LT, new BigDecimal("52")));
    List<List<Object>> rows =
        TestFiles.read(table, table.scan(List.of("x", "s"), Optional.of(predicate)), allocator);

    assertThat(rows).isNotEmpty();
    assertThat(rows).allSatisfy(row -> assertThat((Long) row.get(0)).isBetween(2L * G, 4L * G - 1));
    assertThat(rows)
        .extracting(row -> row.get(0))
        .contains(5L * G / 2, 5199L); // every match is there
    assertThatThrownBy(
            () -> TestFiles.read(table, table.scan(List.of("x", "s"), Optional.empty()), allocator))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FILE))
        .hasMessageContaining(file.toString());
  }

  @Test
  void predicatesOnEveryPushableTypeReturnAllMatchingRows(BufferAllocator allocator) {
    FileTable table =
        FileTable.open(file.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());
    List<ColumnPredicate> predicates =
        List.of(
            new ColumnPredicate("y", Op.EQ, 3),
            new ColumnPredicate("s", Op.GE, "v8180"),
            new ColumnPredicate("dt", Op.LE, LocalDate.of(2000, 1, 5)),
            new ColumnPredicate("d", Op.EQ, 39L),
            new ColumnPredicate("b", Op.EQ, true),
            new ColumnPredicate("ts", Op.LT, LocalDateTime.of(2000, 1, 1, 0, 0, 3)),
            new ColumnPredicate("x", Op.NE, 0L));
    for (ColumnPredicate predicate : predicates) {
      List<List<Object>> all =
          TestFiles.read(table, table.scan(List.of("x"), Optional.empty()), allocator);
      List<List<Object>> some =
          TestFiles.read(
              table, table.scan(List.of("x"), Optional.of(ScanPredicate.of(predicate))), allocator);
      assertThat(all).as(predicate.toString()).containsAll(some);
      assertThat(some).as(predicate.toString()).containsAll(exact(predicate));
    }
  }

  // The rows a predicate selects, computed by DuckDB from the same file.
  private List<List<Object>> exact(ColumnPredicate predicate) {
    String literal =
        predicate.literal() instanceof String
                || predicate.literal() instanceof LocalDate
                || predicate.literal() instanceof LocalDateTime
            ? "'" + predicate.literal().toString().replace('T', ' ') + "'"
            : predicate.literal().toString();
    String sql =
        "SELECT x FROM '"
            + file
            + "' WHERE "
            + predicate.column()
            + " "
            + predicate.op()
            + " "
            + literal;
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        var rs = s.executeQuery(sql)) {
      List<List<Object>> rows = new java.util.ArrayList<>();
      while (rs.next()) {
        rows.add(List.of(rs.getLong(1)));
      }
      assertThat(rows).as(sql).isNotEmpty();
      return rows;
    } catch (SQLException e) {
      throw new AssertionError(sql, e);
    }
  }

  private static List<Integer> matching(
      List<ParquetFooter.RowGroup> groups, ColumnPredicate... conjuncts) {
    ScanPredicate predicate = ScanPredicate.of(conjuncts);
    List<Integer> result = new java.util.ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      if (predicate.mightMatch(groups.get(i))) {
        result.add(i);
      }
    }
    return result;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
