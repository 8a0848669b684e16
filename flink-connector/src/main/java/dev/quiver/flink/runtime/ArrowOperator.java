package dev.quiver.flink.runtime;

import dev.quiver.operators.memory.TaskAllocators;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;

/**
 * Base of every Flink operator that touches Arrow memory.
 *
 * <p>While the operator is open, its task's allocator (a child of the per-JVM root) is bound to the
 * task thread, so batches deserialized from network inputs are accounted to this task. Operators
 * chained in one task share that allocator; the last to close closes it. A task that finished
 * normally and still holds Arrow memory fails (a leak is a bug); a task that is failing or
 * cancelled only logs the leak, so the original failure is what the user sees. Subclasses release
 * everything they hold in {@link #close()} before calling {@code super.close()}.
 */
public abstract class ArrowOperator<OUT> extends AbstractStreamOperator<OUT> {
  private static final long serialVersionUID = 1L;

  private transient TaskAllocators.Binding memory;
  private transient boolean finished;

  @Override
  public void open() throws Exception {
    super.open();
    memory = TaskAllocators.acquire(taskName());
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

  @Override
  public void finish() throws Exception {
    super.finish();
    finished = true;
  }

  @Override
  public void close() throws Exception {
    try {
      super.close();
    } finally {
      if (memory != null) {
        TaskAllocators.Binding binding = memory;
        memory = null;
        // a leak after a normal end is a bug
        binding.close(finished);
      }
    }
  }
}
