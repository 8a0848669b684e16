package dev.quiver.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quiver.flink.batch.BatchCompression;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.ParquetFooter;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs every benchmark body once, without JMH, so the build catches a benchmark that no longer runs
 * or leaks; it measures nothing.
 */
@ExtendWith(ArrowLeakCheck.class)
class BenchmarksSmokeTest {

  @ParameterizedTest
  @EnumSource(BatchCompression.class)
  void serializerBenchmarks(BatchCompression compression) throws IOException {
    SerializerBenchmark benchmark = new SerializerBenchmark();
    SerializerBenchmark.Batch batch = new SerializerBenchmark.Batch();
    SerializerBenchmark.Wire wire = new SerializerBenchmark.Wire();
    ByteCounters counters = new ByteCounters();
    wire.compression = compression;
    batch.rows = 1_024;
    batch.setUp();
    try {
      wire.setUp(batch);
      try {
        assertEquals(wire.length, benchmark.serialize(batch, wire, counters));
        assertEquals(batch.rows, benchmark.deserialize(batch, wire, counters));
        assertTrue(benchmark.memcpy(batch, counters) >= batch.arrowBytes);
        assertEquals(3 * batch.arrowBytes, counters.arrowBytes);
        try (BatchRecord decoded =
            wire.serializer.deserialize(
                new DataInputDeserializer(wire.bytes, 0, wire.length), wire.allocator)) {
          assertTrue(decoded.batch().equals(batch.root), "decoded batch differs");
        }
      } finally {
        wire.tearDown();
      }
    } finally {
      batch.tearDown();
    }
  }

  @ParameterizedTest
  @CsvSource({"INT64, 2", "INT64_INT32, 8", "UTF8, 64"})
  void hashSplitBenchmark(HashSplitBenchmark.Key key, int channels) {
    HashSplitBenchmark benchmark = new HashSplitBenchmark();
    benchmark.key = key;
    benchmark.channels = channels;
    benchmark.setUp();
    try {
      assertEquals(HashSplitBenchmark.ROWS, benchmark.split());
    } finally {
      benchmark.tearDown();
    }
  }

  @ParameterizedTest
  @EnumSource(SpillStoreBenchmark.Store.class)
  void spillStoreBenchmark(SpillStoreBenchmark.Store store) throws Exception {
    SpillStoreBenchmark benchmark = new SpillStoreBenchmark();
    benchmark.groups = 20_000; // 3 batches, the last one partial
    benchmark.store = store;
    benchmark.setUp();
    try {
      SpillStoreBenchmark.Counters counters = new SpillStoreBenchmark.Counters();
      counters.reset();
      // Fails unless every group comes back with its count (twice for the merge variant).
      assertEquals(20_000, benchmark.spillAndRead(counters));
      assertEquals(20_000, benchmark.spillAndRead(counters), "a second invocation starts afresh");
      assertTrue(counters.diskBytes > 0 && counters.cpuSeconds >= 0);
      assertTrue(counters.writeSeconds > 0 && counters.readSeconds > 0);
      assertTrue(benchmark.arrowBytes > 20_000L * 40);
    } finally {
      benchmark.tearDown();
    }
  }

  /** Small enough to run in a second, large enough for several batches and ~5,000 orders. */
  private static final int QUERY_ROWS = 20_000;

  // Each query benchmark's setup already fails unless Quiver and DuckDB agree on the answer.

  @Test
  void q6Benchmark() throws SQLException {
    Q6Benchmark benchmark = new Q6Benchmark();
    benchmark.rows = QUERY_ROWS;
    benchmark.setUp();
    try {
      InputRows counter = new InputRows();
      assertEquals(benchmark.duckdb(counter), benchmark.quiver(counter));
      assertEquals(2L * QUERY_ROWS, counter.rows);
      assertTrue(counter.cpuRows > 0);
    } finally {
      benchmark.tearDown();
    }
  }

  @Test
  void q1Benchmark() throws SQLException {
    Q1Benchmark benchmark = new Q1Benchmark();
    benchmark.rows = QUERY_ROWS;
    benchmark.setUp();
    try {
      InputRows counter = new InputRows();
      assertEquals(4, benchmark.quiver(counter));
      assertEquals(4, benchmark.duckdb(counter) & ~1);
      assertEquals(2L * QUERY_ROWS, counter.rows);
      assertTrue(counter.cpuRows > 0);
    } finally {
      benchmark.tearDown();
    }
  }

  @Test
  void hashJoinBenchmark() throws SQLException {
    HashJoinBenchmark benchmark = new HashJoinBenchmark();
    benchmark.rows = QUERY_ROWS;
    benchmark.setUp();
    try {
      InputRows counter = new InputRows();
      assertEquals(QUERY_ROWS, benchmark.quiver(counter));
      assertEquals(QUERY_ROWS, benchmark.duckdb(counter));
      assertTrue(counter.rows > 2L * QUERY_ROWS, "build rows are counted too");
    } finally {
      benchmark.tearDown();
    }
  }

  @Test
  void sortBenchmark() throws SQLException {
    SortBenchmark benchmark = new SortBenchmark();
    benchmark.rows = QUERY_ROWS;
    benchmark.setUp();
    try {
      InputRows counter = new InputRows();
      assertEquals(QUERY_ROWS, benchmark.quiver(counter));
      assertEquals(QUERY_ROWS, benchmark.duckdb(counter));
      assertEquals(2L * QUERY_ROWS, counter.rows);
      assertTrue(counter.cpuRows > 0);
    } finally {
      benchmark.tearDown();
    }
  }

  @ParameterizedTest
  @EnumSource(ScanBenchmark.Columns.class)
  void scanBenchmark(ScanBenchmark.Columns columns, @TempDir Path dir)
      throws IOException, SQLException {
    Path table = Files.createDirectories(dir.resolve("lineitem"));
    long rows = 0;
    try (BufferAllocator allocator = Allocators.newChild("test:scan-data")) {
      for (int file = 0; file < 2; file++) {
        try (BatchFileWriter writer =
            BatchFileWriter.open(
                table.resolve("part-0000" + file + ".parquet"),
                FileFormat.PARQUET,
                LineitemBatch.SCHEMA,
                allocator)) {
          for (int batch = 0; batch < 2; batch++) {
            try (VectorSchemaRoot root =
                LineitemBatch.create(allocator, 5_000, 10L * file + batch)) {
              writer.write(root);
            }
          }
          rows += writer.commit();
        }
      }
    }
    Files.createFile(table.resolve("_SUCCESS"));
    assertEquals(20_000, rows);
    ScanBenchmark benchmark = new ScanBenchmark();
    benchmark.dir = dir.toString();
    benchmark.columns = columns;
    benchmark.setUp(); // fails unless both engines read the same rows and sum(l_orderkey)
    try {
      ScanCounters counter = new ScanCounters();
      assertEquals(rows, benchmark.quiver(counter));
      assertEquals(rows, benchmark.duckdb(counter));
      assertEquals(2 * rows, counter.rows);
      assertTrue(counter.fileBytes > 0 && counter.columnBytes > 0);
      assertTrue(counter.columnBytes <= counter.fileBytes);
      // Not the CPU-time rates: process CPU time ticks coarsely, a 20,000-row scan may read as 0.
      assertTrue(counter.arrowBytes > 0 && counter.processCpuRows >= 0);
    } finally {
      benchmark.tearDown();
    }
  }

  @Test
  void footerBenchmark() throws IOException, SQLException {
    FooterBenchmark benchmark = new FooterBenchmark();
    benchmark.rowGroups = 4;
    benchmark.setUp(); // fails unless the footer decodes to 4 row groups
    try {
      ParquetFooter.Metadata footer = benchmark.decode();
      assertEquals(4L * FooterBenchmark.ROWS_PER_GROUP, footer.rows());
      assertEquals(16, footer.rowGroups().get(0).columns().size(), "statistics of every column");
    } finally {
      benchmark.tearDown();
    }
  }

  @Test
  void scanFilterBenchmark() {
    ByteBuffer filter = new ScanFilterBenchmark().encode();
    assertTrue(filter.isDirect() && filter.remaining() > 100);
  }

  /**
   * Every reader candidate of issue #16 on a small table DuckDB writes: two files of several row
   * groups, with nulls, decimals stored as INT32, INT64 and FIXED_LEN_BYTE_ARRAY (negative ones
   * too), dates and dictionary and plain strings. {@code measure} fails unless each candidate reads
   * what arrow-dataset reads (rows, types, nulls, per-column checksums).
   */
  @Test
  void parquetReaderCandidates(@TempDir Path dir) throws Exception {
    Path table = Files.createDirectories(dir.resolve("t"));
    try (DuckDb duckdb = DuckDb.open();
        Statement statement = duckdb.connection.createStatement()) {
      for (int file = 0; file < 2; file++) {
        statement.execute(
            "COPY (SELECT i::BIGINT AS id,"
                + " CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 100)::INTEGER END AS n,"
                + " CASE WHEN i % 11 = 0 THEN NULL ELSE DATE '1992-01-01' + (i % 2000)::INTEGER END AS d,"
                + " CASE WHEN i % 13 = 0 THEN NULL ELSE ((i % 997) - 400) * 1.25 END::DECIMAL(7,2) AS p7,"
                + " ((i - 6000) * 1234.5)::DECIMAL(15,2) AS p15,"
                + " CASE WHEN i % 5 = 0 THEN NULL ELSE (i - 7000) * 98765432109.8765 END::DECIMAL(38,4) AS p38,"
                + " CASE WHEN i % 3 = 0 THEN NULL ELSE 'v' || (i % 40) END AS s,"
                + " md5(i::VARCHAR) AS h"
                + " FROM range("
                + (file * 10_000)
                + ", "
                + (file * 10_000 + 10_000)
                + ") t(i)) TO '"
                + table.resolve("part-" + file + ".parquet")
                + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
      }
    }
    var options =
        ParquetReaderCandidates.Options.parse(
            "--table", "t=" + table + ":p7,s,d", "--rounds", "1", "--warmup", "0");
    List<ParquetReaderCandidates.Series> series =
        new ParquetReaderCandidates()
            .measure(options, new PrintStream(OutputStream.nullOutputStream()));
    // 2 projections × 6 candidates, one run each, every run reading all 20,000 rows
    assertEquals(12, series.size());
    for (ParquetReaderCandidates.Series s : series) {
      assertEquals(20_000, s.runs().get(0).rows(), s.candidate() + " " + s.projection());
    }
    assertTrue(ParquetReaderCandidates.report(series).contains("| pj-2 |"));
  }
}
