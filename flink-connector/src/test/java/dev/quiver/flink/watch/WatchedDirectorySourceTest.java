package dev.quiver.flink.watch;

import static dev.quiver.flink.testing.FlinkTestJobs.streamingEnvironment;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageGraphCompiler;
import dev.quiver.flink.compiler.StreamScans;
import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.flink.runtime.ResultRecords;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.flink.testing.JobWatchdog;
import dev.quiver.flink.testing.RestoreJobs;
import dev.quiver.flink.testing.SlowOperator;
import dev.quiver.flink.testing.WatermarkRecorder;
import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.node.PlanBuilder;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.time.EventTime;
import dev.quiver.stage.StagePlanner;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link WatchedDirectorySource} on a MiniCluster in STREAMING mode: files written after the job
 * starts (staged under a hidden name, then renamed) are read, each once; a file still staged is
 * not; watermarks from the event-time column reach a downstream operator.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(120)
class WatchedDirectorySourceTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 0, 0);
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(
      value = FileFormat.class,
      names = {"PARQUET", "CSV"})
  void filesAppearingWhileTheJobRunsAreReadOnce(FileFormat format, BufferAllocator allocator)
      throws Exception {
    Path watched = Files.createDirectories(dir.resolve("watched"));
    String ext = format.defaultExtension();
    write(watched, "a" + ext, format, 0, 300, allocator); // there before the job starts
    WatchedDirectorySource source =
        WatchedDirectorySource.builder(watched, format, SCHEMA)
            .batchRows(128)
            .scanInterval(Duration.ofMillis(100))
            .eventTime(new EventTime("ts", Duration.ofSeconds(5)))
            .idleTimeout(Duration.ofMillis(300))
            .build();
    String name = "watch-" + format;
    DataStream<BatchRecord> stream =
        WatermarkRecorder.record(source.stream(streamingEnvironment(), 2), name);
    Map<Long, List<Object>> rows = new HashMap<>();
    try (ResultRecords records = BatchResults.collect(stream, allocator, name)) {
      readUntil(records, rows, 300);
      write(watched, "b" + ext, format, 300, 1000, allocator);
      readUntil(records, rows, 1000);
      // A file still under its staging name is not read, whatever the scans see meanwhile ...
      write(watched, "_c" + ext, format, 1000, 1100, allocator);
      write(watched, "d" + ext, format, 1100, 1200, allocator);
      readUntil(records, rows, 1100);
      assertThat(rows.keySet()).noneMatch(id -> id >= 1000 && id < 1100);
      // ... and is read once renamed.
      Files.move(watched.resolve("_c" + ext), watched.resolve("c" + ext));
      readUntil(records, rows, 1200);
      long watermark = millis(1199) - 5_000;
      awaitWatermark(name, watermark);
    }
    assertThat(rows).hasSize(1200);
    for (long id = 0; id < 1200; id++) {
      assertThat(rows.get(id)).isEqualTo(row(id));
    }
    assertThat(WatermarkRecorder.watermarks(name)).isSorted();
  }

  /**
   * Checkpoints every 100 ms while files appear one at a time and are read slowly; the one reader
   * fails once in the middle of a file (at its eighth batch, the second file's third), and the
   * restored reader resumes its file after the rows it had emitted as of the checkpoint. Flink's
   * checkpointed collect sink hands the client what completed checkpoints cover, so rows emitted
   * again would arrive twice (checked: a reader that checkpoints no rows read fails here). Flink
   * keeps the enumerator through this failover (files it handed out since the checkpoint come back
   * through addSplitsBack); its own checkpoint is checked by {@link
   * WatchedDirectoryEnumeratorTest}.
   */
  @Test
  void everyRowOnceAcrossARestoreFromACheckpoint(BufferAllocator allocator) throws Exception {
    Path watched = Files.createDirectories(dir.resolve("restore"));
    WatchedDirectorySource source =
        WatchedDirectorySource.builder(watched, FileFormat.PARQUET, SCHEMA)
            .batchRows(10)
            .scanInterval(Duration.ofMillis(100))
            .build();
    StreamExecutionEnvironment env = RestoreJobs.environment();
    DataStream<BatchRecord> batches = source.stream(env, 1);
    // 40 ms per batch, 200 ms per file: checkpoints every 100 ms land in the middle of files.
    DataStream<BatchRecord> slowed =
        batches.transform("slow", batches.getType(), new SlowOperator(40)).setParallelism(1);
    DataStream<Long> ids = RestoreJobs.idsAfterOneFailure(slowed, 0, 7);
    CloseableIterator<Long> results = ids.collectAsync();
    JobClient job = env.executeAsync("watch restore");
    Set<Long> seen = new HashSet<>();
    int files = 6;
    try (JobWatchdog watchdog = new JobWatchdog(job)) {
      for (int f = 0; f < files; f++) {
        write(
            watched,
            "part-" + f + ".parquet",
            FileFormat.PARQUET,
            f * 50L,
            f * 50L + 50,
            allocator);
        watchdog.arm(DEADLINE);
        while (seen.size() < (f + 1) * 50) {
          int file = f;
          assertThat(
                  watchdog.hasNext(results, () -> "rows of file " + file + " (have " + seen + ")"))
              .as("the job ended early")
              .isTrue();
          Long id = results.next();
          assertThat(seen.add(id)).as("row %s once", id).isTrue();
        }
      }
    } finally {
      results.close();
      RestoreJobs.cancelAndAwaitEnd(job, DEADLINE);
    }
    assertThat(seen).hasSize(files * 50);
  }

  /**
   * The watched files read by a Quiver stage (a projection, compiled by {@link StageGraphCompiler}
   * from a plan over a {@link StreamScans} table) in the same STREAMING job: the stage passes its
   * batches and the source's watermarks on.
   */
  @Test
  void aQuiverStageProjectsTheFilesAndPassesTheirWatermarksOn(BufferAllocator allocator)
      throws Exception {
    Path watched = Files.createDirectories(dir.resolve("stage"));
    WatchedDirectorySource source =
        WatchedDirectorySource.builder(watched, FileFormat.PARQUET, SCHEMA)
            .scanInterval(Duration.ofMillis(100))
            .eventTime(new EventTime("ts", Duration.ofSeconds(5)))
            .idleTimeout(Duration.ofMillis(300))
            .build();
    StreamExecutionEnvironment env = streamingEnvironment();
    StreamScans streams = new StreamScans();
    PlanBuilder scan = PlanBuilder.scan(streams.add("files", source.stream(env, 1)), 1);
    PlanNode plan =
        scan.project(
                List.of(call(ScalarFunction.ADD, scan.col(0), lit(1000L)), scan.col(1)),
                List.of("id", "name"))
            .build();
    DataStream<BatchRecord> filtered =
        new StageGraphCompiler()
            .withScanSources(streams)
            .compile(env, StagePlanner.withDefaultRewrites().plan(plan));
    DataStream<BatchRecord> recorded = WatermarkRecorder.record(filtered, "stage");
    Map<Long, List<Object>> rows = new HashMap<>();
    try (ResultRecords records = BatchResults.collect(recorded, allocator, "stage")) {
      write(watched, "a.parquet", FileFormat.PARQUET, 0, 100, allocator);
      readUntil(records, rows, 100);
      write(watched, "b.parquet", FileFormat.PARQUET, 100, 200, allocator);
      readUntil(records, rows, 200);
      awaitWatermark("stage", millis(199) - 5_000);
    }
    assertThat(rows).hasSize(200);
    for (long id = 0; id < 200; id++) {
      assertThat(rows.get(id + 1000)).isEqualTo(java.util.Arrays.asList(id + 1000, row(id).get(1)));
    }
  }

  /**
   * A filter stage over the watched files: its small outputs, held for a fuller batch, go out at
   * each watermark (the stage flushes before passing it on), long before any end of input; the rows
   * and the watermarks arrive.
   */
  @Test
  void aQuiverFilterStagePassesItsRowsOnAtEachWatermark(BufferAllocator allocator)
      throws Exception {
    Path watched = Files.createDirectories(dir.resolve("filter"));
    WatchedDirectorySource source =
        WatchedDirectorySource.builder(watched, FileFormat.PARQUET, SCHEMA)
            .scanInterval(Duration.ofMillis(100))
            .eventTime(new EventTime("ts", Duration.ofSeconds(5)))
            .idleTimeout(Duration.ofMillis(300))
            .build();
    StreamExecutionEnvironment env = streamingEnvironment();
    StreamScans streams = new StreamScans();
    PlanBuilder scan = PlanBuilder.scan(streams.add("files", source.stream(env, 1)), 1);
    PlanNode plan =
        scan.filter(
                call(
                    ScalarFunction.EQUAL,
                    call(ScalarFunction.MODULO, scan.col(0), lit(2L)),
                    lit(0L)))
            .build();
    DataStream<BatchRecord> filtered =
        new StageGraphCompiler()
            .withScanSources(streams)
            .compile(env, StagePlanner.withDefaultRewrites().plan(plan));
    DataStream<BatchRecord> recorded = WatermarkRecorder.record(filtered, "filter");
    Map<Long, List<Object>> rows = new HashMap<>();
    try (ResultRecords records = BatchResults.collect(recorded, allocator, "filter")) {
      write(watched, "a.parquet", FileFormat.PARQUET, 0, 100, allocator);
      readUntil(records, rows, 50);
      write(watched, "b.parquet", FileFormat.PARQUET, 100, 200, allocator);
      readUntil(records, rows, 100);
      awaitWatermark("filter", millis(199) - 5_000);
    }
    assertThat(rows).hasSize(100);
    for (long id = 0; id < 200; id += 2) {
      assertThat(rows.get(id)).isEqualTo(row(id));
    }
  }

  /** Rows [from, to) written to a staging file beside the target, then renamed to {@code name}. */
  private static void write(
      Path watched, String name, FileFormat format, long from, long to, BufferAllocator allocator)
      throws Exception {
    Path staged = watched.resolve(".staging-" + name);
    int rows = (int) (to - from);
    try (BatchFileWriter writer = BatchFileWriter.open(staged, format, SCHEMA, allocator);
        VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator)) {
      batch.allocateNew();
      BigIntVector id = (BigIntVector) batch.getVector(0);
      VarCharVector text = (VarCharVector) batch.getVector(1);
      TimeStampMicroVector ts = (TimeStampMicroVector) batch.getVector(2);
      for (int i = 0; i < rows; i++) {
        long value = from + i;
        id.setSafe(i, value);
        if (value % 7 != 0) {
          text.setSafe(i, ("row " + value).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        ts.setSafe(i, millis(value) * 1000);
      }
      batch.setRowCount(rows);
      writer.write(batch);
      writer.commit();
    }
    Files.move(staged, watched.resolve(name), StandardCopyOption.ATOMIC_MOVE);
  }

  private static long millis(long id) {
    return T0.toInstant(ZoneOffset.UTC).toEpochMilli() + id * 10;
  }

  private static List<Object> row(long id) {
    return java.util.Arrays.asList(
        id, id % 7 == 0 ? null : "row " + id, T0.plusNanos(id * 10_000_000L));
  }

  // Reads until there are {@code count} rows; the job is cancelled if that outlasts the deadline.
  private static void readUntil(ResultRecords records, Map<Long, List<Object>> rows, int count) {
    try (JobWatchdog watchdog = new JobWatchdog(records.jobClient())) {
      watchdog.arm(DEADLINE);
      while (rows.size() < count) {
        assertThat(watchdog.hasNext(records, () -> rows.size() + " of " + count + " rows"))
            .as("the job ended early")
            .isTrue();
        try (BatchRecord record = records.next()) {
          for (List<Object> row : BatchRows.rows(record.batch())) {
            assertThat(rows.put((Long) row.get(0), row))
                .as("row %s read once", row.get(0))
                .isNull();
          }
        }
      }
    }
  }

  private static void awaitWatermark(String name, long watermark) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!WatermarkRecorder.watermarks(name).contains(watermark)) {
      assertThat(System.nanoTime())
          .as("watermark %s (seen %s)", watermark, WatermarkRecorder.watermarks(name))
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
