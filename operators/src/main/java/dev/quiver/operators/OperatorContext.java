package dev.quiver.operators;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.SpillSpace;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What an operator gets from the task it runs in: the task's allocator (never closed by the
 * operator), the task's memory budget, the target number of rows per output batch, and the task's
 * spill space ({@link SpillSpace#NONE} unless the task has one: then operators whose budget refuses
 * memory fail instead of spilling).
 */
public final class OperatorContext {
  /** Rows per output batch unless configured otherwise: large enough to amortize per-batch work. */
  public static final int DEFAULT_BATCH_ROWS = 8192;

  private final BufferAllocator allocator;
  private final MemoryBudget budget;
  private final int targetBatchRows;
  private final SpillSpace spillSpace;

  public OperatorContext(BufferAllocator allocator, MemoryBudget budget, int targetBatchRows) {
    this(allocator, budget, targetBatchRows, SpillSpace.NONE);
  }

  /** A context whose operators may spill to {@code spillSpace}, which the task owns and closes. */
  public OperatorContext(
      BufferAllocator allocator, MemoryBudget budget, int targetBatchRows, SpillSpace spillSpace) {
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.budget = requireNonNull(budget, "budget is null");
    if (targetBatchRows <= 0) {
      throw new IllegalArgumentException("targetBatchRows must be positive: " + targetBatchRows);
    }
    this.targetBatchRows = targetBatchRows;
    this.spillSpace = requireNonNull(spillSpace, "spillSpace is null");
  }

  /** A context with an unlimited budget and the default batch size (tests, tools). */
  public static OperatorContext of(BufferAllocator allocator) {
    return new OperatorContext(
        allocator, MemoryBudget.unlimited(allocator.getName()), DEFAULT_BATCH_ROWS);
  }

  /** This context with another spill space. */
  public OperatorContext withSpillSpace(SpillSpace space) {
    return new OperatorContext(allocator, budget, targetBatchRows, space);
  }

  /** This context with another target batch size (for example the batches of a spill file). */
  public OperatorContext withTargetBatchRows(int rows) {
    return new OperatorContext(allocator, budget, rows, spillSpace);
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

  /** Where operators spill; {@link SpillSpace#NONE} when they must not. */
  public SpillSpace spillSpace() {
    return spillSpace;
  }
}
