package dev.quiver.cli.tpcds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileTable;
import dev.quiver.testing.ArrowLeakCheck;
import io.trino.tpcds.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-DS at SF 0.01: dsdgen's row counts at that scale, the schemas, several files where a table is
 * large, DuckDB reading the same rows and types, and the same rows whichever way the sales tables
 * are cut into row ranges.
 */
@ExtendWith(ArrowLeakCheck.class)
class TpcdsGeneratorTest {
  private static final double SCALE = 0.01;
  // io.trino.tpcds 1.4 at SF 0.01 (dsdgen scales the dimensions below SF 1 by its own rules).
  private static final Map<String, Long> SOME_ROWS =
      Map.of(
          "store_sales", 120_527L,
          "store_returns", 11_925L,
          "catalog_sales", 89_807L,
          "catalog_returns", 8_923L,
          "web_sales", 11_876L,
          "web_returns", 1_152L,
          "inventory", 261_261L,
          "customer_demographics", 1_920_800L,
          "date_dim", 73_049L,
          "customer", 1_000L);

  @TempDir static Path dir;
  private static TpcdsGenerator.Result parquet;

  @BeforeAll
  static void generate() {
    parquet =
        new TpcdsGenerator(dir.resolve("parquet"), SCALE, FileFormat.PARQUET, 2, 30_000).generate();
  }

  @Test
  void everyTableIsThereWithItsSchemaAndRowsInSeveralFilesWhenLarge() {
    assertThat(parquet.skipped()).isFalse();
    assertThat(parquet.rows()).hasSize(24).containsAllEntriesOf(SOME_ROWS);
    // 30,000 rows a file: inventory in 9 ranges of one file; store_sales in 4 ranges of 2,500
    // tickets (about 30,100 rows), each a file of 30,000 rows and one of the rest.
    assertThat(parquet.files())
        .containsEntry("inventory", 9)
        .containsEntry("store_sales", 8)
        .containsEntry("reason", 1);
    for (Table table : TpcdsSchemas.tables()) {
      FileTable files =
          FileTable.open(
              dir.resolve("parquet/" + table.getName()).toString(),
              Optional.empty(),
              CsvOptions.DEFAULT,
              Optional.empty());
      assertThat(files.schema()).as(table.getName()).isEqualTo(TpcdsSchemas.schema(table));
      assertThat(files.statistics().rows())
          .as(table.getName())
          .isEqualTo(parquet.rows().get(table.getName()))
          .isPositive();
    }
  }

  @Test
  void duckDbReadsTheSameRowsTypesAndNulls() throws SQLException {
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = duck.createStatement()) {
      for (Map.Entry<String, Long> table : SOME_ROWS.entrySet()) {
        assertThat(single(s, "SELECT count(*) FROM " + parquet(table.getKey())))
            .as(table.getKey())
            .isEqualTo(table.getValue().toString());
      }
      assertThat(
              single(
                  s,
                  "SELECT typeof(ss_item_sk) || ' ' || typeof(ss_quantity) || ' '"
                      + " || typeof(ss_net_paid) FROM "
                      + parquet("store_sales")
                      + " LIMIT 1"))
          .isEqualTo("BIGINT INTEGER DECIMAL(7,2)");
      assertThat(
              single(
                  s,
                  "SELECT any_value(typeof(d_date)) || ' ' || any_value(typeof(d_day_name))"
                      + " || ' ' || min(d_date) || ' ' || max(d_date) FROM "
                      + parquet("date_dim")))
          .isEqualTo("DATE VARCHAR 1900-01-02 2100-01-01");
      // dsdgen leaves about 4% of a sales row's non-key columns NULL; keys are never NULL.
      assertThat(
              single(
                  s,
                  "SELECT count(*) FILTER (ss_net_paid IS NULL) > 0"
                      + " AND count(*) FILTER (ss_item_sk IS NULL OR ss_ticket_number IS NULL) = 0"
                      + " FROM "
                      + parquet("store_sales")))
          .isEqualTo("true");
      // Every return belongs to a sale of the same ticket and item.
      assertThat(
              single(
                  s,
                  "SELECT count(*) FROM "
                      + parquet("store_returns")
                      + " r ANTI JOIN "
                      + parquet("store_sales")
                      + " s ON sr_ticket_number = ss_ticket_number AND sr_item_sk = ss_item_sk"))
          .isEqualTo("0");
    }
  }

  @Test
  void theSalesTablesAreTheSameRowsInOneRange() throws SQLException {
    Path one = dir.resolve("one-range");
    List<Table> sales = List.of(Table.STORE_SALES, Table.CATALOG_SALES, Table.WEB_SALES);
    TpcdsGenerator.Result whole =
        new TpcdsGenerator(one, SCALE, FileFormat.PARQUET, 2, Long.MAX_VALUE, sales).generate();
    assertThat(whole.files()).containsEntry("store_sales", 1).containsEntry("catalog_returns", 1);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = duck.createStatement()) {
      for (String table : whole.rows().keySet()) {
        String a = parquet(table);
        String b = "read_parquet('" + one.resolve(table) + "/*.parquet')";
        assertThat(
                single(
                    s,
                    "SELECT (SELECT count(*) FROM (FROM "
                        + a
                        + " EXCEPT ALL FROM "
                        + b
                        + ")) + (SELECT count(*) FROM (FROM "
                        + b
                        + " EXCEPT ALL FROM "
                        + a
                        + "))"))
            .as(table)
            .isEqualTo("0");
      }
    }
  }

  @Test
  void aCompleteDataSetIsNotGeneratedAgain() throws IOException {
    Path file = dir.resolve("parquet/reason/part-00001-000.parquet");
    FileTime before = Files.getLastModifiedTime(file);

    TpcdsGenerator.Result again =
        new TpcdsGenerator(dir.resolve("parquet"), SCALE, FileFormat.PARQUET, 2, 30_000).generate();

    assertThat(again.skipped()).isTrue();
    assertThat(Files.getLastModifiedTime(file)).isEqualTo(before);
    assertThat(Files.readString(dir.resolve("parquet/" + TpcdsGenerator.SUCCESS)))
        .contains("dataset=tpcds", "scale=0.01", "format=PARQUET");
  }

  private static String parquet(String table) {
    return "read_parquet('" + dir.resolve("parquet/" + table) + "/*.parquet')";
  }

  private static String single(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }
}
