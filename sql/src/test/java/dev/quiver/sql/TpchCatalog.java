package dev.quiver.sql;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.node.SplitUnit;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The eight TPC-H tables as the TPC-H generator writes them (copied from the examples module's
 * {@code TpchSchemas}, without depending on it): keys BIGINT, money and quantities DECIMAL(15,2),
 * dates DATE, text VARCHAR, four INTEGER columns; every column NOT NULL. Row counts are SF 1.
 */
final class TpchCatalog {
  private static final SqlType K = SqlType.BIGINT;
  private static final SqlType I = SqlType.INTEGER;
  private static final SqlType M = SqlType.decimal(15, 2);
  private static final SqlType D = SqlType.DATE;
  private static final SqlType V = SqlType.VARCHAR;

  private TpchCatalog() {}

  static Catalog sf1() {
    return new Catalog()
        .add(
            table(
                "part",
                200_000,
                "p_partkey",
                K,
                "p_name",
                V,
                "p_mfgr",
                V,
                "p_brand",
                V,
                "p_type",
                V,
                "p_size",
                I,
                "p_container",
                V,
                "p_retailprice",
                M,
                "p_comment",
                V))
        .add(
            table(
                "supplier",
                10_000,
                "s_suppkey",
                K,
                "s_name",
                V,
                "s_address",
                V,
                "s_nationkey",
                K,
                "s_phone",
                V,
                "s_acctbal",
                M,
                "s_comment",
                V))
        .add(
            table(
                "partsupp",
                800_000,
                "ps_partkey",
                K,
                "ps_suppkey",
                K,
                "ps_availqty",
                I,
                "ps_supplycost",
                M,
                "ps_comment",
                V))
        .add(
            table(
                "customer",
                150_000,
                "c_custkey",
                K,
                "c_name",
                V,
                "c_address",
                V,
                "c_nationkey",
                K,
                "c_phone",
                V,
                "c_acctbal",
                M,
                "c_mktsegment",
                V,
                "c_comment",
                V))
        .add(
            table(
                "orders",
                1_500_000,
                "o_orderkey",
                K,
                "o_custkey",
                K,
                "o_orderstatus",
                V,
                "o_totalprice",
                M,
                "o_orderdate",
                D,
                "o_orderpriority",
                V,
                "o_clerk",
                V,
                "o_shippriority",
                I,
                "o_comment",
                V))
        .add(
            table(
                "lineitem",
                6_001_215,
                "l_orderkey",
                K,
                "l_partkey",
                K,
                "l_suppkey",
                K,
                "l_linenumber",
                I,
                "l_quantity",
                M,
                "l_extendedprice",
                M,
                "l_discount",
                M,
                "l_tax",
                M,
                "l_returnflag",
                V,
                "l_linestatus",
                V,
                "l_shipdate",
                D,
                "l_commitdate",
                D,
                "l_receiptdate",
                D,
                "l_shipinstruct",
                V,
                "l_shipmode",
                V,
                "l_comment",
                V))
        .add(table("nation", 25, "n_nationkey", K, "n_name", V, "n_regionkey", K, "n_comment", V))
        .add(table("region", 5, "r_regionkey", K, "r_name", V, "r_comment", V));
  }

  private static CatalogTable table(String name, long rows, Object... namesAndTypes) {
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < namesAndTypes.length; i += 2) {
      columns.add(Column.notNull((String) namesAndTypes[i], (SqlType) namesAndTypes[i + 1]));
    }
    // Stand-in files: up to four per table, sized like Parquet at ~8 bytes per value.
    int files = (int) Math.max(1, Math.min(4, rows / 100_000));
    List<SplitUnit> units = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      long fileRows = rows / files + (f < rows % files ? 1 : 0);
      units.add(
          SplitUnit.file(
              name + "/part-" + f + ".parquet", fileRows * columns.size() * 8, fileRows));
    }
    CatalogTable table =
        new CatalogTable(name, new RowSchema(columns), rows, units, Map.of("format", "parquet"));
    List<List<Integer>> keys =
        switch (name) {
          case "partsupp" -> List.of(List.of(0, 1));
          case "lineitem" -> List.of(List.of(0, 3));
          default -> List.of(List.of(0));
        };
    // Distinct-value bounds as the file catalog derives them from Parquet min/max: the value range
    // of each key, date and small integer column, capped by the row count; the order keys' range
    // is four times the orders (TPC-H's keys are sparse), and there the row groups' dictionaries
    // bound them instead, at about the number of orders (DistinctCounts in the formats module).
    Map<Integer, Long> distinct = new HashMap<>();
    for (int c = 0; c < columns.size(); c++) {
      long range = RANGES.getOrDefault(suffix(columns.get(c).name()), 0L);
      if (range > 0) {
        distinct.put(c, Math.min(rows, range));
      }
    }
    return table.withUniqueKeys(keys).withDistinctCounts(distinct);
  }

  private static final Map<String, Long> RANGES =
      Map.ofEntries(
          Map.entry("orderkey", 1_500_000L),
          Map.entry("custkey", 150_000L),
          Map.entry("partkey", 200_000L),
          Map.entry("suppkey", 10_000L),
          Map.entry("nationkey", 25L),
          Map.entry("regionkey", 5L),
          Map.entry("linenumber", 7L),
          Map.entry("size", 50L),
          Map.entry("date", 2_526L),
          Map.entry("shipdate", 2_526L),
          Map.entry("commitdate", 2_526L),
          Map.entry("receiptdate", 2_526L),
          Map.entry("orderdate", 2_406L));

  private static String suffix(String column) {
    return column.substring(column.indexOf('_') + 1);
  }
}
