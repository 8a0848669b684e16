package dev.quiver.flink.stage;

import static java.util.Objects.requireNonNull;

import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.runtime.memory.MemoryManager;
import org.apache.flink.runtime.memory.MemoryReservationException;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory budget of one stage task: the explicit budget of its {@link StageTaskFactory}, or, by
 * default ({@link StageTaskFactory#MANAGED_MEMORY}), the task's share of its slot's Flink managed
 * memory.
 *
 * <pre>
 *   taskmanager.memory.managed.size (or .fraction) ─► per slot: MemoryManager.getMemorySize()
 *   compiler declares OPERATOR use (weight)       ─► fraction of the slot for this operator
 *   budget = memoryManager.computeMemorySize(fraction), reserved from the MemoryManager
 * </pre>
 *
 * <p>Why reserve: Arrow allocates its buffers itself (off-heap, outside the MemoryManager), so the
 * reservation holds no memory; it is accounting. It makes Flink see the slot's managed memory as
 * taken (metrics, web UI), and a second managed-memory user of the same slot fails at once instead
 * of both overcommitting the process. Flink sizes managed memory as native memory outside the heap,
 * which is what Arrow's buffers are, so a TaskManager whose budgets add up to its managed memory
 * does not exceed its process size. The reservation is released when the task closes; a slot
 * without managed memory (size 0) gives no limit, as before budgets existed.
 */
final class TaskMemory implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TaskMemory.class);

  private final long budget;
  private MemoryManager reservedFrom; // null when nothing is reserved

  private TaskMemory(long budget) {
    this.budget = budget;
  }

  /**
   * The budget of the task {@code owner} built by {@code factory}, hosted by the operator whose
   * configuration is {@code config}, in the task whose environment is {@code environment}.
   */
  static TaskMemory of(
      StageTaskFactory factory, StreamConfig config, Environment environment, String owner) {
    requireNonNull(factory, "factory is null");
    if (factory.memoryBudget() != StageTaskFactory.MANAGED_MEMORY) {
      return new TaskMemory(factory.memoryBudget());
    }
    double fraction =
        config.getManagedMemoryFractionOperatorUseCaseOfSlot(
            ManagedMemoryUseCase.OPERATOR,
            environment.getJobConfiguration(),
            environment.getTaskManagerInfo().getConfiguration(),
            environment.getUserCodeClassLoader().asClassLoader());
    MemoryManager memoryManager = environment.getMemoryManager();
    long bytes = fraction > 0 ? memoryManager.computeMemorySize(fraction) : 0;
    if (bytes <= 0) { // no declared use (a hand-built job), or a slot without managed memory
      LOG.debug(
          "{} has no managed memory (fraction {}): its memory is not limited", owner, fraction);
      return new TaskMemory(Long.MAX_VALUE);
    }
    TaskMemory memory = new TaskMemory(bytes);
    try {
      memoryManager.reserveMemory(memory, bytes); // the owner is this task's TaskMemory
    } catch (MemoryReservationException e) {
      throw new IllegalStateException(
          owner + " cannot reserve its managed memory share of " + bytes + " bytes", e);
    }
    memory.reservedFrom = memoryManager;
    LOG.debug(
        "{}: memory budget {} bytes ({} of the slot's managed memory)", owner, bytes, fraction);
    return memory;
  }

  /** The bytes the task's operators may hold. */
  long budget() {
    return budget;
  }

  /** Releases the managed memory reserved for the task, if any. Idempotent. */
  @Override
  public void close() {
    if (reservedFrom != null) {
      reservedFrom.releaseAllMemory(this);
      reservedFrom = null;
    }
  }
}
