package dev.quiver.flink.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.faults.FaultOperator.Fault;
import dev.quiver.flink.faults.FaultOperator.Kind;
import dev.quiver.flink.faults.FaultOperator.Where;
import dev.quiver.flink.file.FileScanSource;
import dev.quiver.flink.file.FileSink;
import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SessionHooks;
import dev.quiver.formats.CsvOptions;
import dev.quiver.formats.FileFormat;
import dev.quiver.formats.FileTable;
import dev.quiver.formats.OrdersFiles;
import dev.quiver.formats.ScanSpec;
import dev.quiver.operators.memory.Allocators;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.FaultMatrix;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer task of the atomic {@link FileSink} fails after it has written a batch to its part file
 * (its other task has staged its part): with a restart left the output is exactly the input; with
 * restarts exhausted, and when the job is cancelled while a writer is stopped, nothing is left at
 * the target, staged or partial.
 *
 * <pre>
 *   scan (2 tasks) ─► fault ─► FileSink writer ═ part-00000, part-00001 staged ═► commit: rename
 * </pre>
 */
@ExtendWith({ArrowLeakCheck.class, FaultMatrix.class})
class SinkFaultsTest {
  private static final String CHECK =
      "SELECT count(*), sum(id), count(DISTINCT id), sum(quantity) FROM ";

  @TempDir static Path tmp;
  @TempDir static Path dir;
  private static QuiverSession session;
  private static FileTable input;
  private static List<List<Object>> expected;

  @BeforeAll
  static void start() throws Exception {
    Path in;
    try (BufferAllocator allocator = Allocators.newChild("write input")) {
      in = OrdersFiles.writeParquet(dir.resolve("in"), 4, 12_500, allocator);
    }
    input = FileTable.open(in.toString(), Optional.empty(), CsvOptions.DEFAULT, Optional.empty());
    session = FaultSessions.session(tmp, 0, () -> null);
    session.registerTable("input", in.toString());
    expected = session.sql(CHECK + "input").rows();
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @Test
  void aWriterFailingOnceWritesExactlyTheInput() throws Exception {
    FaultMatrix.fault("file sink writer throws once (restarts left)", "after its first batch");
    Path out = Files.createDirectories(dir.resolve("once")).resolve("result");
    StreamExecutionEnvironment env = SessionHooks.environment(session);
    sink(env, new Fault(-1, 0, Where.SECOND_BATCH, Kind.FAIL_ONCE), out);
    env.execute("write once");
    session.registerTable("once", out.toString());
    assertThat(session.sql(CHECK + "once").rows()).isEqualTo(expected);
    assertThat(list(out)).containsExactly("part-00000.parquet", "part-00001.parquet");
    FaultMatrix.answer("the input's rows, once each, in 2 parts");
  }

  @Test
  void aWriterFailingInEveryAttemptLeavesNothing() throws Exception {
    FaultMatrix.fault(
        "file sink writer throws in every attempt (restarts exhausted)", "after its first batch");
    Path parent = Files.createDirectories(dir.resolve("always"));
    StreamExecutionEnvironment env = SessionHooks.environment(session);
    sink(env, new Fault(-1, 0, Where.SECOND_BATCH, Kind.FAIL_ALWAYS), parent.resolve("result"));
    assertThatThrownBy(() -> env.execute("write always"))
        .satisfies(
            e ->
                assertThat(ExceptionUtils.findThrowableWithMessage(e, FaultOperator.MESSAGE))
                    .isPresent());
    assertThat(list(parent)).as("nothing at the target, nothing staged").isEmpty();
    FaultMatrix.error(
        "the job fails with the task's IllegalStateException; nothing at the target or staged");
  }

  @Test
  void cancellingWhileAWriterIsStoppedLeavesNothing() throws Exception {
    FaultMatrix.fault("cancel while a file sink writer is stopped", "after its first batch");
    Path parent = Files.createDirectories(dir.resolve("cancelled"));
    StreamExecutionEnvironment env = SessionHooks.environment(session);
    Fault fault = new Fault(-1, 0, Where.SECOND_BATCH, Kind.BLOCK);
    sink(env, fault, parent.resolve("result"));
    CompletableFuture<JobClient> submitted = new CompletableFuture<>();
    env.registerJobListener(
        new JobListener() {
          @Override
          public void onJobSubmitted(JobClient client, Throwable failure) {
            submitted.complete(client);
          }

          @Override
          public void onJobExecuted(JobExecutionResult result, Throwable failure) {}
        });
    CompletableFuture<JobExecutionResult> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return env.execute("write cancelled");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(fault.reached().await(60, TimeUnit.SECONDS)).as("writer stopped").isTrue();
    assertThat(list(parent)).as("the job has staged files").isNotEmpty();
    submitted.get(60, TimeUnit.SECONDS).cancel().get(60, TimeUnit.SECONDS);
    assertThatThrownBy(() -> run.get(60, TimeUnit.SECONDS)); // execute() cleans up, then throws
    assertThat(list(parent)).as("nothing at the target, nothing staged").isEmpty();
    FaultMatrix.canceled("CANCELED; nothing at the target or staged");
  }

  /** Scans the input in 2 tasks, injects {@code fault} (any stage id: not a stage) and writes. */
  private static void sink(StreamExecutionEnvironment env, Fault fault, Path out) {
    List<String> names = OrdersFiles.SCHEMA.getFields().stream().map(Field::getName).toList();
    ScanSpec spec = input.scan(names, Optional.empty()).withBatchRows(4096);
    DataStream<BatchRecord> scan =
        FileScanSource.stream(env, input, spec, input.assign(2, Optional.empty()));
    FileSink.write(FaultOperator.inject(scan, fault), out, FileFormat.PARQUET);
  }

  private static List<String> list(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
