package dev.quiver.flink.runtime;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.operators.memory.TaskAllocators;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Base of every Flink operator that handles Arrow batches.
 *
 * <p>Memory: while the operator is open, its task's allocator (a child of the per-JVM root) is
 * bound to the task thread, so batches deserialized from network inputs are accounted to this task.
 * Operators chained in one task share that allocator; the last to close closes it, which fails the
 * task if it leaked.
 *
 * <p>Ownership: a received record belongs to the operator, which must {@link BatchRecord#close()}
 * it (or transfer its buffers) before {@code processElement} returns. {@link #emit} closes what it
 * emitted once Flink has passed it on (a chained consumer has taken what it keeps, a network edge
 * has serialized it).
 */
public abstract class BatchOperator extends AbstractStreamOperator<BatchRecord> {
  private static final long serialVersionUID = 1L;

  private transient TaskAllocators.Binding memory;
  private transient StreamRecord<BatchRecord> reuse;

  @Override
  public void open() throws Exception {
    super.open();
    memory = TaskAllocators.acquire(taskName());
    reuse = new StreamRecord<>(null);
  }

  /** The name of this task in allocator reports and errors: operator name and subtask. */
  protected String taskName() {
    return getOperatorName() + "[" + partition() + "/" + parallelism() + "]";
  }

  /** The index of this task among the operator's parallel tasks. */
  protected final int partition() {
    return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
  }

  protected final int parallelism() {
    return getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
  }

  /** The task's allocator; owned by the task, never closed by callers. */
  protected final BufferAllocator allocator() {
    return memory.allocator();
  }

  /** Sends {@code record} downstream and releases it. */
  protected final void emit(BatchRecord record) {
    try {
      output.collect(reuse.replace(record));
    } finally {
      record.close();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      super.close();
    } finally {
      if (memory != null) {
        memory.close();
        memory = null;
      }
    }
  }
}
