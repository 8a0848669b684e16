package dev.quiver.benchmarks.tpcds;

import dev.quiver.benchmarks.run.DataFiles;
import dev.quiver.benchmarks.run.Workload;
import dev.quiver.cli.tpcds.TpcdsComparison;
import dev.quiver.cli.tpcds.TpcdsGenerator;
import dev.quiver.cli.tpcds.TpcdsQueries;
import dev.quiver.cli.tpcds.TpcdsSchemas;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.formats.FileFormat;
import io.trino.tpcds.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * TPC-DS as a {@link Workload}: the 99 queries of {@link TpcdsQueries} (DuckDB's rendering of the
 * templates; the two-part queries keep their first part), the 24 tables of {@link TpcdsGenerator}
 * with the types of {@link TpcdsSchemas} (every column nullable, no keys declared, in Quiver as in
 * Flink SQL), answers compared as {@code TpcdsQueriesTest} compares them ({@link TpcdsComparison}),
 * and Flink SQL's text edits of {@link FlinkTpcdsEdits}.
 */
final class TpcdsWorkload extends Workload {
  /**
   * Rows per file of the one-file-per-table layout: more than any table has (store_sales has 2.9
   * billion rows at SF 1000), small enough that the generator's arithmetic does not overflow.
   */
  static final long ONE_FILE_PER_TABLE = 1L << 40;

  TpcdsWorkload() {
    super(
        "TPC-DS",
        "tpcds",
        "TpcdsBenchmark",
        TpcdsQueries.COUNT,
        TpcdsQueries::text,
        FlinkTpcdsEdits.EDITS);
  }

  @Override
  public String textOrigin() {
    return "the text Quiver and DuckDB ran (`tpcds/queries`)";
  }

  @Override
  public Map<String, Schema> tables() {
    return schemas(TpcdsSchemas.tables(), Table::getName, TpcdsSchemas::schema);
  }

  @Override
  public void register(QuiverSession session, Path dir) {
    for (String table : tables().keySet()) {
      session.registerTable(table, dir.resolve(table).toString());
    }
  }

  @Override
  public String difference(int query, List<List<Object>> expected, List<List<Object>> actual) {
    return TpcdsComparison.difference(text(query), expected, actual);
  }

  @Override
  public String comparisonRule() {
    return "A query without an ORDER BY outside OVER (...) is compared as a multiset of rows"
        + " (`TpcdsComparison`, as `TpcdsQueriesTest` compares Quiver's answers).";
  }

  @Override
  public boolean generate(Path dir, double scale, long rowsPerFile) {
    boolean skipped =
        new TpcdsGenerator(
                dir,
                scale,
                FileFormat.PARQUET,
                Runtime.getRuntime().availableProcessors(),
                rowsPerFile)
            .generate()
            .skipped();
    if (rowsPerFile >= ONE_FILE_PER_TABLE) {
      DataFiles files = DataFiles.of(dir, tables().keySet());
      files
          .files()
          .forEach(
              (table, count) -> {
                if (count != 1) {
                  throw new IllegalStateException(
                      dir
                          + " holds "
                          + count
                          + " files of "
                          + table
                          + ", not one: it was generated with another --rows-per-file; delete it"
                          + " or name another --data");
                }
              });
    }
    return skipped;
  }

  @Override
  public String describeData(Path dir) {
    DataFiles files = DataFiles.of(dir, tables().keySet());
    return String.format(
        Locale.ROOT,
        "(Parquet, %.1f MB, %d files; store_sales %d files, catalog_sales %d, inventory %d,"
            + " customer_demographics %d)",
        files.megabytes(),
        files.total(),
        files.of("store_sales"),
        files.of("catalog_sales"),
        files.of("inventory"),
        files.of("customer_demographics"));
  }
}
