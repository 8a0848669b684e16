package dev.quiver.benchmarks.tpch;

import dev.quiver.benchmarks.run.DataFiles;
import dev.quiver.benchmarks.run.FixedCost;
import dev.quiver.benchmarks.run.QueryEdits;
import dev.quiver.benchmarks.run.Workload;
import dev.quiver.cli.tpch.ResultComparison;
import dev.quiver.cli.tpch.TpchCatalog;
import dev.quiver.cli.tpch.TpchGenerator;
import dev.quiver.cli.tpch.TpchQueries;
import dev.quiver.cli.tpch.TpchSchemas;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.formats.FileFormat;
import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * TPC-H as a {@link Workload}: the 22 queries of {@link TpchQueries}, the eight tables of {@link
 * TpchGenerator} with the types of {@link TpchSchemas} and the primary keys of {@link TpchCatalog},
 * answers compared row by row in order ({@link ResultComparison}; every TPC-H query orders its
 * result), and Quiver's fixed cost per query measured over an empty {@code lineitem}.
 */
final class TpchWorkload extends Workload {
  /** Flink SQL's changes to the specification's texts (also in the README). */
  static final QueryEdits FLINK_EDITS =
      new QueryEdits(
          List.of(
              new QueryEdits.Edit(
                  11,
                  " as value",
                  " as `value`",
                  "VALUE is a reserved word in Flink SQL: the alias is quoted"),
              new QueryEdits.Edit(
                  11,
                  "order by\n    value desc",
                  "order by\n    `value` desc",
                  "the same alias where ORDER BY names it")));

  private static final String EMPTY_TABLE = "empty_lineitem";

  /** The fixed-cost queries: one stage, and an aggregation over a shuffle. */
  private static final FixedCost.Probe FIXED_COST;

  static {
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put("scan", "select * from " + EMPTY_TABLE);
    queries.put(
        "aggregate",
        "select l_returnflag, sum(l_quantity) as q from "
            + EMPTY_TABLE
            + " group by l_returnflag order by l_returnflag");
    FIXED_COST =
        new FixedCost.Probe(
            EMPTY_TABLE,
            TpchTable.LINE_ITEM.getTableName(),
            TpchSchemas.schema(TpchTable.LINE_ITEM),
            primaryKey(TpchTable.LINE_ITEM),
            queries);
  }

  TpchWorkload() {
    super("TPC-H", "tpch", "TpchBenchmark", TpchQueries.COUNT, TpchQueries::text, FLINK_EDITS);
  }

  @Override
  public String textOrigin() {
    return "the specification's text";
  }

  @Override
  public Map<String, Schema> tables() {
    return schemas(TpchTable.getTables(), TpchTable::getTableName, TpchSchemas::schema);
  }

  @Override
  public List<String> primaryKey(String table) {
    return primaryKey(TpchTable.getTable(table));
  }

  /** The primary key columns per the TPC-H specification, as Quiver's catalog has them. */
  private static List<String> primaryKey(TpchTable<?> table) {
    List<Integer> indexes =
        switch (table.getTableName()) {
          case "partsupp" -> List.of(0, 1); // ps_partkey, ps_suppkey
          case "lineitem" -> List.of(0, 3); // l_orderkey, l_linenumber
          default -> List.of(0);
        };
    return indexes.stream().map(i -> table.getColumns().get(i).getColumnName()).toList();
  }

  @Override
  public void register(QuiverSession session, Path dir) {
    TpchCatalog.register(session, dir);
  }

  @Override
  public String difference(int query, List<List<Object>> expected, List<List<Object>> actual) {
    return ResultComparison.difference(expected, actual);
  }

  @Override
  public boolean generate(Path dir, double scale, long rowsPerFile) {
    return new TpchGenerator(
            dir, scale, FileFormat.PARQUET, Runtime.getRuntime().availableProcessors(), rowsPerFile)
        .generate()
        .skipped();
  }

  @Override
  public String describeData(Path dir) {
    DataFiles files = DataFiles.of(dir, tables().keySet());
    return String.format(
        Locale.ROOT,
        "(Parquet, %.1f MB; lineitem %d files, orders %d)",
        files.megabytes(),
        files.of("lineitem"),
        files.of("orders"));
  }

  @Override
  public Optional<FixedCost.Probe> fixedCost() {
    return Optional.of(FIXED_COST);
  }

  @Override
  public boolean failureReasonsInTable() {
    return false; // the table keeps the form of the earlier TPC-H reports
  }
}
