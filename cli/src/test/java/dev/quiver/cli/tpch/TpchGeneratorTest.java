package dev.quiver.cli.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileBatchReader;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileTable;
import dev.quiver.testing.ArrowLeakCheck;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** TPC-H at SF 0.01, checked against the spec's sizes and against DuckDB reading the same files. */
@ExtendWith(ArrowLeakCheck.class)
class TpchGeneratorTest {
  private static final double SCALE = 0.01;
  private static final Map<String, Long> ROWS =
      Map.of(
          "lineitem", 60_175L,
          "orders", 15_000L,
          "customer", 1_500L,
          "part", 2_000L,
          "partsupp", 8_000L,
          "supplier", 100L,
          "nation", 25L,
          "region", 5L);

  @TempDir static Path dir;
  private static TpchGenerator.Result parquet;

  @BeforeAll
  static void generate() {
    parquet =
        new TpchGenerator(dir.resolve("parquet"), SCALE, FileFormat.PARQUET, 2, 20_000).generate();
  }

  @Test
  void everyTableHasTheSpecRowCountInSeveralFilesWhenLarge() throws IOException {
    assertThat(parquet.skipped()).isFalse();
    assertThat(parquet.rows()).isEqualTo(ROWS);
    assertThat(parquet.files()).containsEntry("lineitem", 3).containsEntry("nation", 1);
    try (var files = Files.list(dir.resolve("parquet/lineitem"))) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("part-00000.parquet", "part-00001.parquet", "part-00002.parquet");
    }
    for (TpchTable<?> table : TpchTable.getTables()) {
      FileTable files =
          FileTable.open(
              dir.resolve("parquet/" + table.getTableName()).toString(),
              Optional.empty(),
              CsvOptions.DEFAULT,
              Optional.empty());
      assertThat(files.schema()).isEqualTo(TpchSchemas.schema(table));
      assertThat(files.statistics().rows())
          .as(table.getTableName())
          .isEqualTo(ROWS.get(table.getTableName()));
    }
  }

  @Test
  void duckDbReadsTheSameRowsTypesSumsAndDates(BufferAllocator allocator) throws SQLException {
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = duck.createStatement()) {
      for (Map.Entry<String, Long> table : ROWS.entrySet()) {
        assertThat(single(s, "SELECT count(*) FROM '" + files("parquet", table.getKey()) + "'"))
            .as(table.getKey())
            .isEqualTo(table.getValue().toString());
      }
      assertThat(
              single(
                  s,
                  "SELECT typeof(l_orderkey) || typeof(l_linenumber) || typeof(l_extendedprice)"
                      + " || typeof(l_shipdate) || typeof(l_comment) FROM '"
                      + files("parquet", "lineitem")
                      + "' LIMIT 1"))
          .isEqualTo("BIGINTINTEGERDECIMAL(15,2)DATEVARCHAR");
      String duckSum =
          single(s, "SELECT sum(l_extendedprice) FROM '" + files("parquet", "lineitem") + "'");
      String duckMin =
          single(s, "SELECT min(l_shipdate) FROM '" + files("parquet", "lineitem") + "'");

      Object[] quiver =
          sumAndMinShipdate(
              dir.resolve("parquet/lineitem"), CsvOptions.DEFAULT, Optional.empty(), allocator);
      assertThat(quiver[0]).isEqualTo(new BigDecimal(duckSum));
      assertThat(quiver[1]).isEqualTo(LocalDate.parse(duckMin));
      assertThat((LocalDate) quiver[1])
          .isBetween(LocalDate.of(1992, 1, 2), LocalDate.of(1992, 1, 31));
    }
  }

  @Test
  void csvDataSetHoldsTheSameData(BufferAllocator allocator) throws SQLException {
    TpchGenerator.Result csv =
        new TpchGenerator(dir.resolve("csv"), SCALE, FileFormat.CSV, 2, 20_000).generate();
    assertThat(csv.rows()).isEqualTo(ROWS);

    Object[] fromCsv =
        sumAndMinShipdate(
            dir.resolve("csv/lineitem"),
            CsvOptions.DEFAULT,
            Optional.of(TpchSchemas.schema(TpchTable.LINE_ITEM)),
            allocator);
    Object[] fromParquet =
        sumAndMinShipdate(
            dir.resolve("parquet/lineitem"), CsvOptions.DEFAULT, Optional.empty(), allocator);
    assertThat(fromCsv).isEqualTo(fromParquet);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = duck.createStatement()) {
      assertThat(
              single(
                  s,
                  "SELECT count(*) FROM read_csv('" + files("csv", "orders") + "', header = true)"))
          .isEqualTo("15000");
    }
  }

  @Test
  void aCompleteDataSetIsNotGeneratedAgain() throws IOException {
    Path file = dir.resolve("parquet/region/part-00000.parquet");
    FileTime before = Files.getLastModifiedTime(file);

    TpchGenerator.Result again =
        new TpchGenerator(dir.resolve("parquet"), SCALE, FileFormat.PARQUET, 2, 20_000).generate();

    assertThat(again.skipped()).isTrue();
    assertThat(Files.getLastModifiedTime(file)).isEqualTo(before);
    assertThat(Files.readString(dir.resolve("parquet/" + TpchGenerator.SUCCESS)))
        .contains("scale=0.01");
  }

  @Test
  void anIncompleteDataSetIsReplaced() throws IOException {
    Path target = dir.resolve("partial");
    Files.createDirectories(target.resolve("lineitem"));
    Files.writeString(target.resolve("lineitem/part-00007.parquet"), "left over by a crash");

    TpchGenerator.Result result =
        new TpchGenerator(target, 0.001, FileFormat.PARQUET, 2, 1_000_000).generate();

    assertThat(result.skipped()).isFalse();
    assertThat(target.resolve("lineitem/part-00007.parquet")).doesNotExist();
    assertThat(target.resolve(TpchGenerator.SUCCESS)).exists();
  }

  private static Object[] sumAndMinShipdate(
      Path table,
      CsvOptions csv,
      Optional<org.apache.arrow.vector.types.pojo.Schema> schema,
      BufferAllocator allocator) {
    FileTable files = FileTable.open(table.toString(), Optional.empty(), csv, schema);
    BigDecimal sum = BigDecimal.ZERO.setScale(2);
    int minDay = Integer.MAX_VALUE;
    try (FileBatchReader reader =
        files.reader(
            files.scan(List.of("l_extendedprice", "l_shipdate"), Optional.empty()), allocator)) {
      while (true) {
        VectorSchemaRoot batch = reader.next();
        if (batch == null) {
          break;
        }
        try (batch) {
          DecimalVector prices = (DecimalVector) batch.getVector(0);
          DateDayVector dates = (DateDayVector) batch.getVector(1);
          for (int i = 0; i < batch.getRowCount(); i++) {
            sum = sum.add(prices.getObject(i));
            minDay = Math.min(minDay, dates.get(i));
          }
        }
      }
    }
    return new Object[] {sum, LocalDate.ofEpochDay(minDay)};
  }

  private static String files(String format, String table) {
    return dir.resolve(format + "/" + table) + "/*." + format;
  }

  private static String single(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }
}
