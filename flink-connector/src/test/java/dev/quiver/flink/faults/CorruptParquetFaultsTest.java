package dev.quiver.flink.faults;

import static dev.quiver.flink.faults.FaultSessions.oneClearError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.ErrorCode;
import dev.quiver.flink.faults.FaultOperator.Fault;
import dev.quiver.flink.faults.FaultOperator.Kind;
import dev.quiver.flink.faults.FaultOperator.Where;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.FaultMatrix;
import java.io.ByteArrayInputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Parquet file whose footer is intact but whose data pages are not: 64 bytes overwritten inside
 * one column chunk of the last of 4 files (one task reads them in order, so three good files come
 * first and their rows have reached the client). Arrow's native reader detects what breaks a page's
 * structure, and the query fails with one line naming the file, the JVM intact and no Arrow memory
 * leaked. Values stored plainly in a page without a checksum (Quiver's writer, like most, writes
 * none) cannot be told from good ones by any reader: that case is recorded as undetected, and
 * DuckDB reads the same wrong values.
 */
@ExtendWith({ArrowLeakCheck.class, FaultMatrix.class})
class CorruptParquetFaultsTest {
  private static final String QUERY =
      "SELECT count(*), sum(id), min(customer), sum(quantity), min(order_date), max(order_date)"
          + " FROM t";

  @TempDir static Path tmp;
  @TempDir Path dir;
  private static volatile Fault current;
  private static QuiverSession session;

  @BeforeAll
  static void start() {
    session = FaultSessions.session(tmp, 1, 0, () -> current);
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @AfterEach
  void sessionStillWorks() throws Exception {
    current = null;
    Path clean = write(dir.resolve("clean"));
    session.registerTable("clean", clean.toString());
    assertThat(session.sql("SELECT count(*) FROM clean").rows()).containsExactly(List.of(50_000L));
  }

  @Test
  void bytesOverwrittenInTheMiddleOfAColumnChunkNameTheFile() throws Exception {
    FaultMatrix.fault("Parquet data page corrupt", "middle of the order_date column chunk");
    Path file = corruptTable("order_date", false);
    String message =
        oneClearError(
            () -> session.sql(QUERY).rows(),
            "[" + ErrorCode.INVALID_FILE + "] Cannot read PARQUET file " + file + ": ");
    FaultMatrix.error(message);
  }

  @Test
  void aCorruptPageBodyNamesTheFile() throws Exception {
    FaultMatrix.fault("Parquet data page corrupt", "start of the quantity data page's levels");
    Path file = corruptTable("quantity", true);
    String message =
        oneClearError(
            () -> session.sql(QUERY).rows(),
            "[" + ErrorCode.INVALID_FILE + "] Cannot read PARQUET file " + file + ": ");
    FaultMatrix.error(message);
  }

  @Test
  void cancellingBeforeTheCorruptFileIsRead() throws Exception {
    FaultMatrix.fault("cancel while a scan reads toward a corrupt file", "task 0's first batch");
    corruptTable("order_date", false);
    Fault fault = new Fault(0, 0, Where.FIRST_BATCH, Kind.BLOCK);
    current = fault;
    SqlResult result = session.sql("SELECT id FROM t");
    FaultSessions.cancelWhenReached(session, result, fault);
    FaultMatrix.canceled("CANCELED; memory released; the next query answers");
  }

  /**
   * The middle of the id column's dictionary page: 8 plain int64 values. Nothing in the file can
   * tell them from good ones (no page checksum), so no reader fails; recorded, not hidden.
   */
  @Test
  void plainValuesWithoutAPageChecksumAreNotDetected() throws Exception {
    FaultMatrix.fault(
        "Parquet plain values corrupt, no page checksum", "middle of the id column's dictionary");
    Path file = corruptTable("id", false);
    // Every id is read (no filter that statistics could answer); the good answer is 50 * 499,500.
    String query = "SELECT sum(id % 1000) FROM t";
    long good = 50L * 499_500;
    Object wrong = session.sql(query).rows().get(0).get(0);
    assertThat(wrong).isNotEqualTo(good);
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement();
        ResultSet result =
            statement.executeQuery(
                query.replace(
                    "FROM t", "FROM read_parquet('" + file.getParent() + "/*.parquet')"))) {
      assertThat(result.next()).isTrue();
      assertThat(result.getLong(1)).isEqualTo(((Number) wrong).longValue());
    }
    FaultMatrix.undetected(
        "not detected: sum(id % 1000) = "
            + wrong
            + " instead of "
            + good
            + "; DuckDB reads the same");
  }

  /** Table t of 4 good files, the last of them with 64 bytes overwritten in {@code column}. */
  private Path corruptTable(String column, boolean pageStart) throws Exception {
    Path table = write(dir.resolve("t"));
    Path file = table.resolve("part-3.parquet");
    ColumnMetaData chunk = chunk(file, column);
    long start =
        chunk.isSetDictionary_page_offset()
            ? chunk.getDictionary_page_offset()
            : chunk.getData_page_offset();
    long at =
        pageStart ? chunk.getData_page_offset() + 40 : start + chunk.getTotal_compressed_size() / 2;
    byte[] garbage = new byte[64];
    Arrays.fill(garbage, (byte) 0x5A);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(at);
      raf.write(garbage);
    }
    session.registerTable("t", table.toString());
    return file;
  }

  private static ColumnMetaData chunk(Path file, String column) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    int length =
        ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    FileMetaData footer =
        Util.readFileMetaData(new ByteArrayInputStream(bytes, bytes.length - 8 - length, length));
    assertThat(footer.getRow_groups()).hasSize(1);
    return footer.getRow_groups().get(0).getColumns().stream()
        .map(c -> c.getMeta_data())
        .filter(m -> m.getPath_in_schema().equals(List.of(column)))
        .findFirst()
        .orElseThrow();
  }

  private static Path write(Path table) throws Exception {
    try (BufferAllocator allocator = Allocators.newChild("write t")) {
      return OrdersFiles.writeParquet(table, 4, 12_500, allocator);
    }
  }
}
