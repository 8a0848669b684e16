package dev.quiver.flink.file;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchOperator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/** Passes batches on, sleeping before each, and in one task fails after some batches. */
final class SlowOrFailing extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  private final int failingTask;
  private final int failAfter;
  private final long sleepMillis;
  private final String awaitPartIn; // nullable
  private transient int seen;

  /**
   * @param failingTask the task that fails, or -1 for none
   * @param failAfter batches the failing task passes on before it fails
   * @param sleepMillis sleep before each batch (in the failing task: before failing)
   */
  SlowOrFailing(int failingTask, int failAfter, long sleepMillis) {
    this(failingTask, failAfter, sleepMillis, null);
  }

  /** Fails only once task 0 has staged {@code part-00000.*} somewhere under {@code directory}. */
  SlowOrFailing(int failingTask, int failAfter, long sleepMillis, Path directory) {
    this.failingTask = failingTask;
    this.failAfter = failAfter;
    this.sleepMillis = sleepMillis;
    this.awaitPartIn = directory == null ? null : directory.toString();
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) throws Exception {
    BatchRecord record = element.getValue();
    boolean failing = partition() == failingTask;
    if (sleepMillis > 0 && (failing || failingTask < 0)) {
      Thread.sleep(sleepMillis);
    }
    if (failing && ++seen > failAfter) {
      record.close();
      awaitPart();
      throw new IllegalStateException("injected failure in task " + partition());
    }
    emit(record);
  }

  private void awaitPart() throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (awaitPartIn != null && System.nanoTime() < deadline) {
      try (Stream<Path> files = Files.walk(Path.of(awaitPartIn))) {
        if (files.anyMatch(p -> p.getFileName().toString().startsWith("part-00000."))) {
          return;
        }
      }
      Thread.sleep(10);
    }
  }
}
