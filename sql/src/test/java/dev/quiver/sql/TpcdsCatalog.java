package dev.quiver.sql;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.type.SqlType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The 24 TPC-DS tables ({@code grouping_sets/tpcds_schema.txt}: a table per line, then
 * column:type), every column nullable as the generator writes them, with the TPC-DS SF 1 row counts
 * and one Parquet file per table of about eight bytes per value.
 */
final class TpcdsCatalog {
  private static final Map<String, Long> SF1_ROWS =
      Map.ofEntries(
          Map.entry("call_center", 6L),
          Map.entry("catalog_page", 11_718L),
          Map.entry("catalog_returns", 144_067L),
          Map.entry("catalog_sales", 1_441_548L),
          Map.entry("customer", 100_000L),
          Map.entry("customer_address", 50_000L),
          Map.entry("customer_demographics", 1_920_800L),
          Map.entry("date_dim", 73_049L),
          Map.entry("household_demographics", 7_200L),
          Map.entry("income_band", 20L),
          Map.entry("inventory", 11_745_000L),
          Map.entry("item", 18_000L),
          Map.entry("promotion", 300L),
          Map.entry("reason", 35L),
          Map.entry("ship_mode", 20L),
          Map.entry("store", 12L),
          Map.entry("store_returns", 287_514L),
          Map.entry("store_sales", 2_880_404L),
          Map.entry("time_dim", 86_400L),
          Map.entry("warehouse", 5L),
          Map.entry("web_page", 60L),
          Map.entry("web_returns", 71_763L),
          Map.entry("web_sales", 719_384L),
          Map.entry("web_site", 30L));

  private static final Pattern COLUMN =
      Pattern.compile("([a-z_0-9]+):([A-Z]+)(?:\\((\\d+),(\\d+)\\))?");

  private TpcdsCatalog() {}

  /** The SF 1 catalog; {@code rows} overrides row counts by table (for plans on other sizes). */
  static Catalog sf1(Map<String, Long> rows) {
    Catalog catalog = new Catalog();
    for (String line : read("/grouping_sets/tpcds_schema.txt").split("\n")) {
      String[] parts = line.trim().split(" ");
      List<Column> columns = new ArrayList<>();
      for (int i = 1; i < parts.length; i++) {
        Matcher m = COLUMN.matcher(parts[i]);
        if (!m.matches()) {
          throw new IllegalArgumentException("not a column:type: " + parts[i]);
        }
        SqlType type =
            switch (m.group(2)) {
              case "BIGINT" -> SqlType.BIGINT;
              case "INTEGER" -> SqlType.INTEGER;
              case "DATE" -> SqlType.DATE;
              case "VARCHAR" -> SqlType.VARCHAR;
              default ->
                  SqlType.decimal(Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
            };
        columns.add(Column.of(m.group(1), type));
      }
      long count = rows.getOrDefault(parts[0], SF1_ROWS.get(parts[0]));
      List<SplitUnit> units =
          List.of(SplitUnit.file(parts[0] + "/part-0.parquet", count * columns.size() * 8, count));
      catalog.add(
          new CatalogTable(
              parts[0], new RowSchema(columns), count, units, Map.of("format", "parquet")));
    }
    return catalog;
  }

  static Catalog sf1() {
    return sf1(Map.of());
  }

  static String read(String resource) {
    try (InputStream in = TpcdsCatalog.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
