package dev.quiver.benchmarks;

import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileBatchReader;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.ScanSpec;
import dev.quiver.operators.memory.Allocators;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A full scan of a Parquet {@code lineitem} table, all 16 columns or 4, by Quiver's file reader and
 * by DuckDB in the same run, both on one thread.
 *
 * <pre>
 *   Quiver: FileTable.open(DIR/lineitem) ─► one FileBatchReader over every split ─► batches closed
 *   DuckDB: SELECT count(*), sum(l_orderkey), ... FROM read_parquet('DIR/lineitem/*.parquet')
 * </pre>
 *
 * <p>The table is read from {@code dir} ({@code -p dir=...}); its default {@value #DEFAULT_DIR}
 * stands for the system property {@code quiver.tpch.dir}, else {@code /tmp/quiver-tpch-sf1}. The
 * data comes from Quiver's TPC-H generator (see the README); the benchmark does not generate it.
 *
 * <p>DuckDB must decode every selected column, so its query aggregates each one: {@code sum} of
 * integers and decimals, {@code max} of dates, {@code sum(strlen(..))} of strings, plus {@code
 * count(*)}. None of these can be answered from Parquet statistics; the aggregation is a small cost
 * Quiver's side does not pay (it only counts rows and Arrow bytes of each batch and closes it).
 * Setup fails unless both agree on the row count and {@code sum(l_orderkey)}.
 *
 * <p>Score: scans per second; see {@link ScanCounters} for the rows and bytes rates.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class ScanBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(ScanBenchmark.class);
  static final String DEFAULT_DIR = "default";

  /** The projected columns. */
  public enum Columns {
    ALL(List.of()),
    FOUR(List.of("l_orderkey", "l_quantity", "l_extendedprice", "l_shipdate"));

    final List<String> names;

    Columns(List<String> names) {
      this.names = names;
    }
  }

  /** The TPC-H directory holding {@code lineitem/}. */
  @Param({DEFAULT_DIR})
  public String dir;

  @Param({"ALL", "FOUR"})
  public Columns columns;

  private BufferAllocator allocator;
  private List<FileSplit> splits;
  private ScanSpec spec;
  private long fileBytes;
  private long columnBytes;
  private DuckDb duckdb;
  private PreparedStatement query;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    Path table = Path.of(location(dir), "lineitem");
    if (!Files.isDirectory(table)) {
      throw new IllegalStateException(
          table
              + " does not exist; generate it with Quiver's TpchGenerator (benchmarks/README.md)");
    }
    FileTable files =
        FileTable.open(
            table.toString(),
            Optional.of(FileFormat.PARQUET),
            CsvOptions.DEFAULT,
            Optional.empty());
    List<String> names =
        columns.names.isEmpty()
            ? files.schema().getFields().stream().map(Field::getName).toList()
            : columns.names;
    if (!names.get(0).equals("l_orderkey")) {
      throw new IllegalStateException("the first column must be l_orderkey: " + names);
    }
    spec = files.scan(names, Optional.empty());
    splits = files.splits(Optional.empty());
    fileBytes = splits.stream().mapToLong(FileSplit::bytes).sum();
    allocator = Allocators.newChild("benchmark:scan");
    duckdb = DuckDb.open();
    String glob = table.resolve("*.parquet").toString().replace("'", "''");
    columnBytes = columnBytes(glob, names);
    query = duckdb.connection.prepareStatement(sql(glob, spec));
    LOG.info(
        "scan of {} ({} files, {} bytes, {} in the {} columns); DuckDB: {}",
        table,
        splits.size(),
        fileBytes,
        columnBytes,
        names.size(),
        sql(glob, spec));

    long[] quiver = checksum();
    long quiverRows = quiver(new ScanCounters());
    long duckdbRows;
    long duckdbOrderKeys;
    try (ResultSet result = query.executeQuery()) {
      result.next();
      duckdbRows = result.getLong(1);
      duckdbOrderKeys = result.getLong(2);
    }
    LOG.info(
        "rows: Quiver {}, DuckDB {}; sum(l_orderkey): Quiver {}, DuckDB {}",
        quiver[0],
        duckdbRows,
        quiver[1],
        duckdbOrderKeys);
    if (quiver[0] != duckdbRows || quiverRows != duckdbRows || quiver[1] != duckdbOrderKeys) {
      throw new IllegalStateException(
          "scan: Quiver read "
              + quiver[0]
              + " rows (sum(l_orderkey) "
              + quiver[1]
              + "), DuckDB "
              + duckdbRows
              + " ("
              + duckdbOrderKeys
              + ")");
    }
  }

  @SuppressWarnings("try") // resources named only to be closed, in order, also on failure
  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    try (BufferAllocator a = allocator;
        DuckDb d = duckdb) {
      if (query != null) {
        query.close();
      }
    }
  }

  /** Reads every batch of every split on this thread, counting rows and Arrow bytes. */
  @Benchmark
  public long quiver(ScanCounters counter) {
    counter.start();
    long rows = 0;
    long arrowBytes = 0;
    try (FileBatchReader reader = new FileBatchReader(splits, spec, allocator)) {
      for (VectorSchemaRoot batch; (batch = reader.next()) != null; ) {
        try {
          rows += batch.getRowCount();
          for (FieldVector vector : batch.getFieldVectors()) {
            arrowBytes += vector.getBufferSize();
          }
        } finally {
          batch.close();
        }
      }
    }
    counter.count(rows, fileBytes, columnBytes, arrowBytes);
    return rows;
  }

  @Benchmark
  public long duckdb(ScanCounters counter) throws SQLException {
    counter.start();
    try (ResultSet result = query.executeQuery()) {
      result.next();
      long rows = result.getLong(1);
      counter.count(rows, fileBytes, columnBytes, 0);
      return rows;
    }
  }

  // The row count and sum(l_orderkey) Quiver reads (setup only; the benchmark touches no values).
  private long[] checksum() {
    int orderKey = spec.columns().indexOf("l_orderkey");
    long rows = 0;
    long sum = 0;
    try (FileBatchReader reader = new FileBatchReader(splits, spec, allocator)) {
      for (VectorSchemaRoot batch; (batch = reader.next()) != null; ) {
        try {
          BigIntVector keys = (BigIntVector) batch.getVector(orderKey);
          for (int i = 0; i < batch.getRowCount(); i++) {
            sum += keys.get(i);
          }
          rows += batch.getRowCount();
        } finally {
          batch.close();
        }
      }
    }
    return new long[] {rows, sum};
  }

  private long columnBytes(String glob, List<String> names) throws SQLException {
    StringJoiner in = new StringJoiner("', '", "('", "')");
    names.forEach(in::add);
    try (Statement statement = duckdb.connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT sum(total_compressed_size) FROM parquet_metadata('"
                    + glob
                    + "') WHERE path_in_schema IN "
                    + in)) {
      result.next();
      return result.getLong(1);
    }
  }

  /** count(*), then one aggregate per column that makes DuckDB decode it; l_orderkey first. */
  static String sql(String glob, ScanSpec spec) {
    StringJoiner select = new StringJoiner(", ", "SELECT count(*), ", "");
    for (Field field : spec.outputSchema().getFields()) {
      String name = field.getName();
      ArrowType type = field.getType();
      if (type instanceof ArrowType.Int || type instanceof ArrowType.Decimal) {
        select.add("sum(" + name + ")");
      } else if (type instanceof ArrowType.Utf8) {
        select.add("sum(strlen(" + name + "))");
      } else {
        select.add("max(" + name + ")");
      }
    }
    return select + " FROM read_parquet('" + glob + "')";
  }

  static String location(String dir) {
    return DEFAULT_DIR.equals(dir)
        ? System.getProperty("quiver.tpch.dir", "/tmp/quiver-tpch-sf1")
        : dir;
  }
}
