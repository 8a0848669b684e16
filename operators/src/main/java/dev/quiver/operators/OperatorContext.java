package dev.quiver.operators;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.MemoryBudget;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What an operator gets from the task it runs in: the task's allocator (never closed by the
 * operator), the task's memory budget, and the target number of rows per output batch.
 */
public final class OperatorContext {
  /** Rows per output batch unless configured otherwise: large enough to amortize per-batch work. */
  public static final int DEFAULT_BATCH_ROWS = 8192;

  private final BufferAllocator allocator;
  private final MemoryBudget budget;
  private final int targetBatchRows;

  public OperatorContext(BufferAllocator allocator, MemoryBudget budget, int targetBatchRows) {
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.budget = requireNonNull(budget, "budget is null");
    if (targetBatchRows <= 0) {
      throw new IllegalArgumentException("targetBatchRows must be positive: " + targetBatchRows);
    }
    this.targetBatchRows = targetBatchRows;
  }

  /** A context with an unlimited budget and the default batch size (tests, tools). */
  public static OperatorContext of(BufferAllocator allocator) {
    return new OperatorContext(
        allocator, MemoryBudget.unlimited(allocator.getName()), DEFAULT_BATCH_ROWS);
  }

  public BufferAllocator allocator() {
    return allocator;
  }

  public MemoryBudget budget() {
    return budget;
  }

  public int targetBatchRows() {
    return targetBatchRows;
  }
}
