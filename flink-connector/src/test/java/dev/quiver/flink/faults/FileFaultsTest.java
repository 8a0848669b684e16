package dev.quiver.flink.faults;

import static dev.quiver.flink.faults.FaultSessions.oneClearError;
import static dev.quiver.flink.faults.FaultSessions.sorted;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.error.ErrorCode;
import dev.quiver.flink.faults.FaultOperator.Fault;
import dev.quiver.flink.faults.FaultOperator.Kind;
import dev.quiver.flink.faults.FaultOperator.Where;
import dev.quiver.flink.session.PlannedQuery;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.FaultMatrix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A table's files change between planning and reading: deleted or rewritten after {@code prepare}
 * and before {@code run}, or while the query runs (task 0 of the scan pauses after its first batch,
 * with its second file not yet opened, while the test changes the files). Planning uses each file's
 * row count, footer statistics and size, so a file that changed under a running query is refused
 * with one error line naming it, never read against the wrong plan; a query run after the change is
 * planned again and answers for the files as they are then.
 *
 * <pre>
 *   stage 0 (2 tasks, 2 files each): scan ─► project ─► result      fault: task 0, first batch
 * </pre>
 */
@ExtendWith({ArrowLeakCheck.class, FaultMatrix.class})
class FileFaultsTest {
  private static final String QUERY = "SELECT id, quantity FROM t";

  @TempDir static Path tmp;
  @TempDir Path dir;
  private static volatile Fault current;
  private static QuiverSession session;

  @BeforeAll
  static void start() {
    session = FaultSessions.session(tmp, 0, () -> current);
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
    Path fresh = dir.resolve("fresh");
    write(fresh, FileFormat.PARQUET, 0, 1000);
    session.registerTable("fresh", fresh.toString());
    assertThat(session.sql("SELECT count(*) FROM fresh").rows()).containsExactly(List.of(4000L));
  }

  @ParameterizedTest
  @EnumSource(names = {"PARQUET", "CSV"})
  void aFileDeletedAfterPlanningIsNamed(FileFormat format) throws Exception {
    FaultMatrix.fault(format + " file deleted", "between prepare and run");
    Path table = table(format);
    PlannedQuery planned = session.prepare(QUERY);
    Files.delete(table.resolve("part-1" + extension(format)));
    String message =
        oneClearError(
            () -> session.run(planned).rows(),
            "[" + ErrorCode.FILE_NOT_FOUND + "]",
            table.resolve("part-1" + extension(format)).toString(),
            "register the table again");
    FaultMatrix.error(message);
  }

  @ParameterizedTest
  @EnumSource(names = {"PARQUET", "CSV"})
  void aFileRewrittenAfterPlanningIsReadAsItIsNow(FileFormat format) throws Exception {
    FaultMatrix.fault(format + " file rewritten (other rows)", "between prepare and run");
    Path table = table(format);
    PlannedQuery planned = session.prepare(QUERY);
    rewrite(table, format, 1);
    List<List<String>> rows = text(session.run(planned).rows());
    assertThat(rows).isEqualTo(expected(1)).isEqualTo(text(session.sql(QUERY).rows()));
    FaultMatrix.answer("the rewritten file's rows: " + rows.size() + " rows");
  }

  @ParameterizedTest
  @EnumSource(names = {"PARQUET", "CSV"})
  void aFileDeletedWhileTheQueryRunsIsNamed(FileFormat format) throws Exception {
    FaultMatrix.fault(
        format + " files deleted", "while the scan runs (after task 0's first batch)");
    Path table = table(format);
    String message =
        oneClearError(
            () -> whilePaused(() -> deleteFiles(table, format)),
            "[" + ErrorCode.FILE_NOT_FOUND + "] File " + table.resolve("part-"),
            "does not exist (was it deleted?)");
    FaultMatrix.error(message);
  }

  @ParameterizedTest
  @EnumSource(names = {"PARQUET", "CSV"})
  void aFileRewrittenWhileTheQueryRunsIsRefused(FileFormat format) throws Exception {
    FaultMatrix.fault(
        format + " files rewritten (other rows)",
        "while the scan runs (after task 0's first batch)");
    Path table = table(format);
    String message =
        oneClearError(
            () -> whilePaused(() -> rewrite(table, format, 1)),
            "[" + ErrorCode.FILE_CHANGED + "] File " + table.resolve("part-"),
            "changed after the query was planned",
            "run the query again");
    FaultMatrix.error(message);
    assertThat(text(session.sql(QUERY).rows())).isEqualTo(expected(1));
  }

  @ParameterizedTest
  @EnumSource(names = {"PARQUET", "CSV"})
  void cancellingWhileTheFilesAreGone(FileFormat format) throws Exception {
    FaultMatrix.fault(
        "cancel while a scan's files are deleted",
        format + ", task 0 stopped after its first batch");
    Path table = table(format);
    Fault fault = new Fault(0, 0, Where.FIRST_BATCH, Kind.BLOCK);
    current = fault;
    SqlResult result = session.sql(QUERY);
    assertThat(fault.reached().await(60, TimeUnit.SECONDS)).isTrue();
    deleteFiles(table, format);
    FaultSessions.cancelWhenReached(session, result, fault);
    FaultMatrix.canceled("CANCELED; memory released; the next query answers");
  }

  /** Runs QUERY with task 0 of the scan paused after its first batch while {@code change} runs. */
  private List<List<Object>> whilePaused(Change change) throws Exception {
    Fault fault = new Fault(0, 0, Where.FIRST_BATCH, Kind.PAUSE);
    current = fault;
    try (SqlResult result = session.sql(QUERY)) {
      current = null;
      assertThat(fault.reached().await(60, TimeUnit.SECONDS)).as("scan paused").isTrue();
      try {
        change.run();
      } finally {
        fault.release();
      }
      return result.rows();
    }
  }

  @FunctionalInterface
  private interface Change {
    void run() throws Exception;
  }

  /** Table t: 4 files of 12,500 rows (ids 0 to 49,999) in {@code format}. */
  private Path table(FileFormat format) throws Exception {
    Path table = dir.resolve("t-" + format);
    write(table, format, 0, 12_500);
    session.registerTable("t", table.toString());
    return table;
  }

  /** Replaces every file of the table with 4 files of 10,000 other rows (ids from 1,000,000). */
  private static void rewrite(Path table, FileFormat format, int generation) throws Exception {
    Path staged = table.resolveSibling(table.getFileName() + "-staged");
    write(staged, format, generation * 1_000_000L, 10_000);
    for (int f = 0; f < 4; f++) {
      String name = "part-" + f + extension(format);
      Files.move(
          staged.resolve(name),
          table.resolve(name),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
  }

  private static void deleteFiles(Path table, FileFormat format) throws IOException {
    for (int f = 0; f < 4; f++) {
      Files.delete(table.resolve("part-" + f + extension(format)));
    }
  }

  private static void write(Path table, FileFormat format, long first, int rowsPerFile)
      throws Exception {
    Files.createDirectories(table);
    try (BufferAllocator allocator = Allocators.newChild("write t")) {
      for (int f = 0; f < 4; f++) {
        OrdersFiles.write(
            table.resolve("part-" + f + extension(format)),
            format,
            OrdersFiles.rows(first + (long) f * rowsPerFile, rowsPerFile),
            allocator);
      }
    }
  }

  /** The rows of QUERY over the rewritten table of {@code generation}, as {@link #text}. */
  private static List<List<String>> expected(int generation) {
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : OrdersFiles.rows(generation * 1_000_000L, 40_000)) {
      rows.add(java.util.Arrays.asList(row.get(0), row.get(4)));
    }
    return text(rows);
  }

  /** Rows as text, sorted: CSV reads quantity as BIGINT, Parquet as INTEGER. */
  private static List<List<String>> text(List<List<Object>> rows) {
    return sorted(rows).stream().map(row -> row.stream().map(String::valueOf).toList()).toList();
  }

  private static String extension(FileFormat format) {
    return format == FileFormat.CSV ? ".csv" : ".parquet";
  }
}
