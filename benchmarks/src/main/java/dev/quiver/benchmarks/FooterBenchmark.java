package dev.quiver.benchmarks;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.ParquetFooter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
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

/**
 * Decoding one Parquet footer ({@link ParquetFooter#decode}): row groups, sizes and the min/max
 * statistics of every column chunk, what registration, split pruning and split assignment read once
 * per file version. The file is a TPC-H-shaped {@code lineitem} (16 columns: BIGINT, INTEGER,
 * DECIMAL(15,2), VARCHAR, DATE) written by DuckDB with {@code rowGroups} row groups of 8,192 rows
 * (Quiver's SF 1 files hold about 123 row groups each); its footer bytes are read into memory in
 * setup, so neither the disk nor the footer cache is measured.
 *
 * <p>Score: footers decoded per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class FooterBenchmark {
  static final int ROWS_PER_GROUP = 8_192;

  @Param("128")
  public int rowGroups;

  byte[] footer;
  private Path dir;

  @Setup(Level.Trial)
  public void setUp() throws IOException, SQLException {
    dir = Files.createTempDirectory("quiver-footer-benchmark");
    Path file = dir.resolve("lineitem.parquet");
    writeLineitem(file, (long) rowGroups * ROWS_PER_GROUP);
    footer = footerBytes(file);
    int decoded = ParquetFooter.decode(footer).rowGroups().size();
    if (decoded != rowGroups) {
      throw new IllegalStateException(decoded + " row groups written, " + rowGroups + " wanted");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    if (dir != null) {
      try (var files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.delete(f);
        }
      }
      Files.delete(dir);
    }
  }

  @Benchmark
  public ParquetFooter.Metadata decode() {
    return ParquetFooter.decode(footer);
  }

  private static void writeLineitem(Path file, long rows) throws SQLException {
    try (DuckDb duckdb = DuckDb.open();
        Statement statement = duckdb.connection.createStatement()) {
      statement.execute(
          """
          COPY (SELECT
              i // 4 + 1 AS l_orderkey,
              (i * 7919) % 200000 + 1 AS l_partkey,
              (i * 31) % 10000 + 1 AS l_suppkey,
              (i % 4 + 1)::INTEGER AS l_linenumber,
              (i % 50 + 1)::DECIMAL(15,2) AS l_quantity,
              ((i * 37) % 10000000 / 100.0)::DECIMAL(15,2) AS l_extendedprice,
              ((i % 11) / 100.0)::DECIMAL(15,2) AS l_discount,
              ((i % 9) / 100.0)::DECIMAL(15,2) AS l_tax,
              ['R', 'A', 'N'][i % 3 + 1] AS l_returnflag,
              ['O', 'F'][i % 2 + 1] AS l_linestatus,
              DATE '1992-01-02' + ((i * 13) % 2526)::INTEGER AS l_shipdate,
              DATE '1992-01-31' + ((i * 17) % 2466)::INTEGER AS l_commitdate,
              DATE '1992-01-03' + ((i * 13) % 2526 + i % 30)::INTEGER AS l_receiptdate,
              ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'][i % 4 + 1]
                  AS l_shipinstruct,
              ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'][i % 7 + 1] AS l_shipmode,
              'carefully final ' || ((i * 2654435761) % 1000003) AS l_comment
            FROM range(${rows}) t(i))
          TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${group})
          """
              .replace("${rows}", Long.toString(rows))
              .replace("${file}", file.toString().replace("'", "''"))
              .replace("${group}", Integer.toString(ROWS_PER_GROUP)));
    }
  }

  /** The Thrift FileMetaData of a Parquet file: before its last 8 bytes (length, "PAR1"). */
  static byte[] footerBytes(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(requireNonNull(file, "file is null"));
      int length =
          ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      return Arrays.copyOfRange(bytes, bytes.length - 8 - length, bytes.length - 8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
