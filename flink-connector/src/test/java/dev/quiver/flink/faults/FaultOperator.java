package dev.quiver.flink.faults;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.compiler.StageOutputHook;
import dev.quiver.flink.runtime.BatchOperator;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * An injected fault, chained after one stage's tasks (a {@link StageOutputHook}): task {@code task}
 * of stage {@code stage} fails when it is about to pass on its first data batch, its second
 * (results have already left the task), or its end-of-partition marker (the stage has read all its
 * input and finished its output). The trigger is a position in the data, never a time.
 *
 * <p>A fault fails the first execution attempt only (a restart recovers from it) or every attempt
 * (restarts run out). A blocking fault instead counts down {@code reached} and waits until its
 * thread is interrupted: a test then cancels the query while the stage is exactly there. A pausing
 * fault counts down {@code reached} and waits until the test releases it: a test changes files
 * while the task is exactly there (between its first batch and its next file).
 */
final class FaultOperator extends BatchOperator
    implements OneInputStreamOperator<BatchRecord, BatchRecord> {
  private static final long serialVersionUID = 1L;

  /** The message every injected failure starts with. */
  static final String MESSAGE = "injected failure";

  private static final Map<String, CountDownLatch> REACHED = new ConcurrentHashMap<>();
  private static final Map<String, CountDownLatch> RELEASED = new ConcurrentHashMap<>();

  /** Where in a task's output the fault strikes. */
  enum Where {
    FIRST_BATCH,
    SECOND_BATCH,
    END_OF_INPUT,
    /** In the operator's {@code finish()}, after the stage's task has finished its output. */
    FINISH
  }

  /** What the fault does once reached. */
  enum Kind {
    FAIL_ONCE,
    FAIL_ALWAYS,
    BLOCK,
    PAUSE
  }

  /** One fault: stage, task, position and kind; {@code key} names a blocking fault's latch. */
  record Fault(int stage, int task, Where where, Kind kind, String key) implements Serializable {
    Fault(int stage, int task, Where where, Kind kind) {
      this(stage, task, where, kind, stage + "/" + task + "/" + where + "/" + System.nanoTime());
    }

    /** Counted down when the fault (a blocking one) is reached. */
    CountDownLatch reached() {
      return REACHED.computeIfAbsent(key, k -> new CountDownLatch(1));
    }

    /** Lets a paused fault's task go on. */
    void release() {
      released().countDown();
    }

    private CountDownLatch released() {
      return RELEASED.computeIfAbsent(key, k -> new CountDownLatch(1));
    }
  }

  /**
   * A hook that injects whatever {@code current} holds when a query is compiled (nothing if null),
   * so that one session (one MiniCluster) serves every case of a test class.
   */
  static StageOutputHook hook(java.util.function.Supplier<Fault> current) {
    return (stage, output) -> {
      Fault fault = current.get();
      if (fault == null || fault.stage() != stage.id()) {
        return output;
      }
      fault.reached(); // created here, in the test's JVM, before the job runs
      return output
          .forward()
          .transform("fault", output.getType(), new FaultOperator(fault))
          .setParallelism(output.getParallelism());
    };
  }

  /** {@code input} with {@code fault} injected into its tasks (chained to them). */
  static DataStream<BatchRecord> inject(DataStream<BatchRecord> input, Fault fault) {
    fault.reached();
    return input
        .forward()
        .transform("fault", input.getType(), new FaultOperator(fault))
        .setParallelism(input.getParallelism());
  }

  private final Fault fault;
  private transient long batches;

  private FaultOperator(Fault fault) {
    this.fault = fault;
  }

  @Override
  public void processElement(StreamRecord<BatchRecord> element) throws InterruptedException {
    BatchRecord record = element.getValue();
    boolean strikes =
        switch (fault.where()) {
          case FIRST_BATCH -> record.isData() && ++batches == 1;
          case SECOND_BATCH -> record.isData() && ++batches == 2;
          case END_OF_INPUT -> !record.isData();
          case FINISH -> false;
        };
    if (strikes && partition() == fault.task() && fault.kind() == Kind.PAUSE) {
      if (attempt() == 0) {
        fault.reached().countDown();
        try {
          fault.released().await(); // the test changes the world meanwhile
        } catch (InterruptedException e) {
          record.close(); // cancelled while paused
          throw e;
        }
      }
    } else if (strikes && partition() == fault.task() && attemptFails()) {
      record.close();
      if (fault.kind() == Kind.BLOCK) {
        fault.reached().countDown();
        new CountDownLatch(1).await(); // until cancellation interrupts the task thread
      }
      throw new IllegalStateException(
          MESSAGE + " at " + fault.where() + " of attempt " + attempt());
    }
    emit(record);
  }

  @Override
  public void finish() throws Exception {
    if (fault.where() == Where.FINISH && partition() == fault.task() && attemptFails()) {
      throw new IllegalStateException(
          MESSAGE + " at " + fault.where() + " of attempt " + attempt());
    }
    super.finish();
  }

  private boolean attemptFails() {
    return fault.kind() != Kind.FAIL_ONCE || attempt() == 0;
  }

  private int attempt() {
    return getRuntimeContext().getTaskInfo().getAttemptNumber();
  }
}
