package dev.quiver.examples.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Properties;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * A latch that crosses processes, for killing a TaskManager while it provably runs a task: chained
 * after one stage's tasks (a {@link StageOutputHook}), it passes their batches on, except that task
 * {@code task}, when its {@code batch}-th batch arrives (the ones before it passed on), or its
 * input ends if it gets fewer,
 *
 * <ul>
 *   <li>writes {@code DIR/attempt-N} (N: Flink's execution attempt number) naming the process it
 *       runs in: its process id and its TaskManager's resource id;
 *   <li>in attempt 0 only, then waits until {@code DIR/release} exists; in a later attempt, only if
 *       {@code DIR/hold-restarts} exists, until {@code DIR/release-restarts} does (a test that
 *       cancels the job while it recovers).
 * </ul>
 *
 * The test reads {@code attempt-0}, kills that process, and only then writes {@code release}; so
 * the killed TaskManager holds the task, RUNNING and unfinished, at the moment it dies, and the
 * restarted attempt (N &gt; 0) passes at once. {@code DIR} is a folder the test and the
 * TaskManagers share (one machine here).
 *
 * <p>A test class: it is shipped to the cluster in a jar of its own beside {@code quiver-job.jar}
 * ({@code QuiverOnClusterIT#latchJar}), so it must not use other test classes.
 */
final class KillLatch extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  /** The operator's name, and so part of the name of the Flink vertex it is chained into. */
  static final String NAME = "kill latch";

  static final String PID = "pid";
  static final String TASK_MANAGER = "taskmanager";

  private static final String RELEASE = "release";
  private static final String HOLD_RESTARTS = "hold-restarts";
  private static final String RELEASE_RESTARTS = "release-restarts";
  private static final Duration POLL = Duration.ofMillis(20);

  private final String dir;
  private final int task;
  private final int batch;
  private transient boolean reached;
  private transient int batches;

  private KillLatch(Path dir, int task, int batch) {
    this.dir = dir.toString();
    this.task = task;
    this.batch = batch;
  }

  /** A hook that chains a latch for task {@code task} after the tasks of stage {@code stageId}. */
  static StageOutputHook inStage(int stageId, int task, Path dir) {
    return inStage(stageId, task, 1, dir);
  }

  /**
   * A hook that chains a latch after the tasks of stage {@code stageId} that holds task {@code
   * task} at its {@code batch}-th batch (1: its first).
   */
  static StageOutputHook inStage(int stageId, int task, int batch, Path dir) {
    if (batch < 1) {
      throw new IllegalArgumentException("batch counts from 1: " + batch);
    }
    return (stage, output) ->
        stage.id() != stageId
            ? output
            : output
                .forward()
                .transform(NAME, output.getType(), new KillLatch(dir, task, batch))
                .setParallelism(output.getParallelism());
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) throws Exception {
    if (++batches >= batch) {
      reach();
    }
    emit(element.getValue());
  }

  @Override
  public void endInput() throws Exception {
    reach();
  }

  private void reach() throws IOException, InterruptedException {
    if (reached || partition() != task) {
      return;
    }
    reached = true;
    int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    Properties here = new Properties();
    here.setProperty(PID, String.valueOf(ProcessHandle.current().pid()));
    // The TaskManager's ResourceID, as its metrics scope names it (the REST API's taskmanager-id).
    here.setProperty(
        TASK_MANAGER,
        getRuntimeContext().getMetricGroup().getAllVariables().getOrDefault("<tm_id>", "?"));
    Path folder = Path.of(dir);
    StringWriter text = new StringWriter();
    here.store(text, taskName() + ", attempt " + attempt);
    Path written = Files.writeString(folder.resolve(".attempt-" + attempt), text.toString(), UTF_8);
    Files.move(written, folder.resolve("attempt-" + attempt), StandardCopyOption.ATOMIC_MOVE);
    while ((attempt == 0 && !Files.exists(folder.resolve(RELEASE)))
        || (attempt > 0
            && Files.exists(folder.resolve(HOLD_RESTARTS))
            && !Files.exists(folder.resolve(RELEASE_RESTARTS)))) {
      Thread.sleep(POLL.toMillis()); // cancellation interrupts it
    }
  }

  /**
   * What attempt {@code attempt} of the held task wrote, once it has written it; fails after {@code
   * timeout}.
   */
  static Properties await(Path dir, int attempt, Duration timeout) throws InterruptedException {
    Path file = dir.resolve("attempt-" + attempt);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.exists(file)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the held task did not reach the latch in " + timeout);
      }
      Thread.sleep(POLL.toMillis());
    }
    return read(file);
  }

  /** What attempt {@code attempt} of the held task wrote, if it ran. */
  static Properties attempt(Path dir, int attempt) {
    Path file = dir.resolve("attempt-" + attempt);
    return Files.exists(file) ? read(file) : null;
  }

  /** Makes the restarted attempts (N &gt; 0) wait too, until {@link #releaseRestarts}. */
  static void holdRestarts(Path dir) throws IOException {
    Files.createFile(dir.resolve(HOLD_RESTARTS));
  }

  /** Lets the restarted attempts go on. */
  static void releaseRestarts(Path dir) throws IOException {
    Files.createFile(dir.resolve(RELEASE_RESTARTS));
  }

  /** Lets attempt 0 go on (if it still runs). */
  static void release(Path dir) throws IOException {
    Files.createFile(dir.resolve(RELEASE));
  }

  private static Properties read(Path file) {
    try {
      Properties properties = new Properties();
      properties.load(new StringReader(Files.readString(file, UTF_8)));
      return properties;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
