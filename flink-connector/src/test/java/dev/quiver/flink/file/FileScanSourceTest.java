package dev.quiver.flink.file;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileSplit;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.ScanSpec;
import dev.quiver.formats.ScanTables;
import dev.quiver.formats.TestFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link FileScanSource} on a MiniCluster: planned splits, every row once, projection, errors. */
@ExtendWith(ArrowLeakCheck.class)
class FileScanSourceTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final List<Integer> ROWS = List.of(1000, 2500, 400, 3000, 1200, 2000, 700);

  @TempDir static Path dir;
  private static Path table;

  @BeforeAll
  static void writeTable() throws Exception {
    table = Files.createDirectories(dir.resolve("table"));
    try (BufferAllocator allocator = Allocators.newChild("write table")) {
      ScanTables.write(table, FileFormat.PARQUET, ROWS, allocator);
    }
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2, 4})
  void everyRowOnceFromItsPlannedTask(int parallelism, BufferAllocator allocator) throws Exception {
    FileTable files = open(table);
    List<String> columns = List.of("utf8", "id", "dec15_2", "date", "ts_us");
    ScanSpec scan = files.scan(columns, Optional.empty()).withBatchRows(700);
    List<List<FileSplit>> plan = files.assign(parallelism, scan.predicate());
    DataStream<BatchRecord> stream = FileScanSource.stream(batchEnvironment(), files, scan, plan);
    assertThat(stream.getParallelism()).isEqualTo(parallelism);

    Map<Long, List<Object>> rows = new HashMap<>();
    List<Set<String>> filesRead = new ArrayList<>();
    plan.forEach(task -> filesRead.add(new HashSet<>()));
    try (CloseableIterator<BatchRecord> records = BatchResults.collect(stream, allocator, "scan")) {
      while (records.hasNext()) {
        try (BatchRecord record = records.next()) {
          assertThat(record.batch().getSchema()).isEqualTo(scan.outputSchema());
          assertThat(record.rowCount()).isBetween(1, 700);
          for (List<Object> row : BatchRows.rows(record.batch())) {
            long id = (Long) row.get(1);
            String file = ScanTables.fileOf(id, FileFormat.PARQUET);
            filesRead.get(record.partition()).add(file);
            assertThat(rows.put(id, row)).as("row %s read once", id).isNull();
          }
        }
      }
    }
    for (int t = 0; t < parallelism; t++) {
      Set<String> planned = new HashSet<>();
      plan.get(t).forEach(split -> planned.add(Path.of(split.path()).getFileName().toString()));
      assertThat(filesRead.get(t)).as("files read by task %s", t).isEqualTo(planned);
    }
    Map<Long, List<Object>> expected = new HashMap<>();
    TestFiles.read(files, scan, allocator).forEach(row -> expected.put((Long) row.get(1), row));
    assertThat(expected).hasSize(ROWS.stream().mapToInt(Integer::intValue).sum());
    assertThat(rows).isEqualTo(expected);
  }

  @Test
  void corruptFileFailsTheJobWithItsName(BufferAllocator allocator) throws Exception {
    Path corrupt = Files.createDirectories(dir.resolve("corrupt"));
    ScanTables.write(corrupt, FileFormat.PARQUET, List.of(3000, 3000, 3000), allocator);
    Path bad = corrupt.resolve("part-1.parquet");
    byte[] bytes = Files.readAllBytes(bad);
    Arrays.fill(bytes, 4, bytes.length / 2, (byte) 0x7F); // the data; the footer stays intact
    Files.write(bad, bytes);
    FileTable files = open(corrupt);
    ScanSpec scan = files.scan(List.of("id", "utf8", "i64"), Optional.empty());
    DataStream<BatchRecord> stream =
        FileScanSource.stream(batchEnvironment(), files, scan, files.assign(2, Optional.empty()));

    assertJobFails(stream, allocator, ErrorCode.INVALID_FILE, bad.toString());
  }

  @Test
  void aFileDeletedAfterPlanningFailsTheJobWithItsName(BufferAllocator allocator) throws Exception {
    Path gone = Files.createDirectories(dir.resolve("gone"));
    ScanTables.write(gone, FileFormat.PARQUET, List.of(100, 100), allocator);
    FileTable files = open(gone);
    ScanSpec scan = files.scan(List.of("id"), Optional.empty());
    DataStream<BatchRecord> stream =
        FileScanSource.stream(batchEnvironment(), files, scan, files.assign(2, Optional.empty()));
    Path deleted = gone.resolve("part-0.parquet");
    Files.delete(deleted);

    assertJobFails(stream, allocator, ErrorCode.FILE_NOT_FOUND, deleted.toString());
  }

  @Test
  void aMalformedCsvRowFailsTheJobWithFileAndLine(BufferAllocator allocator) throws Exception {
    Path csv = Files.createDirectories(dir.resolve("csv"));
    Files.writeString(csv.resolve("a.csv"), "id,name\n1,x\n2,y\n");
    // Far beyond the first block, which planning inspects: only reading finds it.
    StringBuilder text = new StringBuilder("id,name\n");
    for (int i = 0; i < 200_000; i++) {
      text.append(i).append(",z\n");
    }
    Path bad = Files.writeString(csv.resolve("b.csv"), text.append("four,w\n"));
    Schema declared =
        new Schema(
            List.of(
                Field.nullable("id", new ArrowType.Int(64, true)),
                Field.nullable("name", ArrowType.Utf8.INSTANCE)));
    FileTable files =
        FileTable.open(csv.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.of(declared));
    ScanSpec scan = files.scan(List.of("id", "name"), Optional.empty());
    DataStream<BatchRecord> stream =
        FileScanSource.stream(batchEnvironment(), files, scan, files.assign(2, Optional.empty()));

    assertJobFails(
        stream, allocator, ErrorCode.MALFORMED_ROW, bad + ", line 200002, column 1 (id)");
  }

  private static void assertJobFails(
      DataStream<BatchRecord> stream, BufferAllocator allocator, ErrorCode code, String message) {
    assertThatThrownBy(() -> FlinkTestJobs.collectRows(stream, allocator))
        .satisfies(
            e -> {
              QuiverException cause =
                  ExceptionUtils.findThrowable(e, QuiverException.class).orElseThrow();
              assertThat(cause.code()).isEqualTo(code);
              assertThat(cause).hasMessageContaining(message);
            });
  }

  @Test
  void theStreamTypeMustMatchTheScan() {
    FileTable files = open(table);
    ScanSpec scan = files.scan(List.of("id", "utf8"), Optional.empty());
    ScanSpec other = files.scan(List.of("utf8", "id"), Optional.empty());
    assertThatThrownBy(
            () ->
                FileScanSource.stream(
                    batchEnvironment(),
                    files,
                    scan,
                    files.assign(1, Optional.empty()),
                    BatchTypeInfo.of(other.outputSchema(), "edge")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("typed");
  }

  private static FileTable open(Path location) {
    return FileTable.open(
        location.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());
  }
}
