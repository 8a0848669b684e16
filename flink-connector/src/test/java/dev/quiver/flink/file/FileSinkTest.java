package dev.quiver.flink.file;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.ScanSpec;
import dev.quiver.formats.ScanTables;
import dev.quiver.formats.TestFiles;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link FileSink} on a MiniCluster: round trips, and nothing left by failed or cancelled jobs. */
@ExtendWith(ArrowLeakCheck.class)
class FileSinkTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  @TempDir static Path dir;
  private static FileTable input;

  @BeforeAll
  static void writeInput() throws IOException {
    Path table = Files.createDirectories(dir.resolve("input"));
    try (BufferAllocator allocator = Allocators.newChild("write input")) {
      ScanTables.write(table, FileFormat.PARQUET, List.of(1500, 2500, 400, 3000, 900), allocator);
    }
    input =
        FileTable.open(table.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());
  }

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void writesOnePartPerTaskThatReadsBack(FileFormat format, BufferAllocator allocator)
      throws Exception {
    Path parent = Files.createDirectories(dir.resolve("out-" + format));
    Path out = parent.resolve("result");
    if (format == FileFormat.PARQUET) {
      Files.createDirectory(out); // an empty target directory is replaced
    }
    StreamExecutionEnvironment env = batchEnvironment();
    FileSink.write(scan(env, 3, 8192), out, format);
    env.execute("write " + format);

    String ext = format.defaultExtension();
    assertThat(list(parent)).containsExactly("result");
    assertThat(list(out))
        .containsExactly("part-00000" + ext, "part-00001" + ext, "part-00002" + ext);
    Optional<Schema> declared =
        format == FileFormat.CSV ? Optional.of(ScanTables.SCHEMA) : Optional.empty();
    FileTable back = FileTable.open(out.toString(), Optional.empty(), CsvOptions.DEFAULT, declared);
    ScanSpec all = back.scan(TestFiles.names(ScanTables.SCHEMA), Optional.empty());
    assertThat(byId(TestFiles.read(back, all, allocator)))
        .isEqualTo(byId(TestFiles.read(input, fullScan(), allocator)));
  }

  @Test
  void aJobThatFailsMidWriteLeavesNothing() throws Exception {
    Path parent = Files.createDirectories(dir.resolve("failed"));
    Path out = parent.resolve("result");
    StreamExecutionEnvironment env = batchEnvironment();
    // Task 0 finishes and stages its part; task 1 fails after writing some batches.
    DataStream<BatchRecord> input = scan(env, 2, 300);
    DataStream<BatchRecord> failing =
        input
            .transform("fail", input.getType(), new SlowOrFailing(1, 2, 0, parent))
            .setParallelism(2);
    FileSink.write(failing, out, FileFormat.PARQUET);

    assertThatThrownBy(() -> env.execute("fail"))
        .satisfies(
            e ->
                assertThat(ExceptionUtils.findThrowableWithMessage(e, "injected failure"))
                    .isPresent());
    assertThat(list(parent)).isEmpty();
  }

  @Test
  void aCancelledJobLeavesNothing() throws Exception {
    Path parent = Files.createDirectories(dir.resolve("cancelled"));
    Path out = parent.resolve("result");
    StreamExecutionEnvironment env = batchEnvironment();
    DataStream<BatchRecord> input = scan(env, 2, 100);
    DataStream<BatchRecord> slow =
        input.transform("slow", input.getType(), new SlowOrFailing(-1, 0, 20)).setParallelism(2);
    FileSink.write(slow, out, FileFormat.CSV);

    JobClient job = env.executeAsync("cancel");
    await(() -> !list(parent).isEmpty()); // the staging directory exists
    job.cancel().get();
    assertThatThrownBy(() -> job.getJobExecutionResult().get());
    await(() -> list(parent).isEmpty());
  }

  @Test
  void anExistingTargetIsRejectedBeforeTheJobRuns() throws IOException {
    Path out = Files.createDirectories(dir.resolve("existing"));
    Files.writeString(out.resolve("keep.txt"), "data");
    StreamExecutionEnvironment env = batchEnvironment();
    assertThatThrownBy(() -> FileSink.write(scan(env, 1, 8192), out, FileFormat.PARQUET))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_WRITE_FAILED))
        .hasMessageContaining(out.toString());
    assertThat(list(out)).containsExactly("keep.txt");
  }

  private static DataStream<BatchRecord> scan(
      StreamExecutionEnvironment env, int tasks, int batchRows) {
    ScanSpec scan = fullScan().withBatchRows(batchRows);
    return FileScanSource.stream(env, input, scan, input.assign(tasks, Optional.empty()));
  }

  private static ScanSpec fullScan() {
    return input.scan(TestFiles.names(ScanTables.SCHEMA), Optional.empty());
  }

  private static Map<Long, List<Object>> byId(List<List<Object>> rows) {
    Map<Long, List<Object>> map = new HashMap<>();
    rows.forEach(row -> assertThat(map.put((Long) row.get(0), row)).isNull());
    return map;
  }

  private static List<String> list(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 30 s").isLessThan(deadline);
      Thread.sleep(10);
    }
  }
}
