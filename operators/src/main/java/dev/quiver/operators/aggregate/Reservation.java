package dev.quiver.operators.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.MemoryBudget;

/**
 * What a hash aggregate's accumulators and scratch arrays hold in the task's budget: reserved
 * before an array grows, returned all at once when the operator lets go of its state.
 */
final class Reservation {
  private final MemoryBudget budget;
  private final String purpose;
  private long reserved;

  Reservation(MemoryBudget budget, String purpose) {
    this.budget = requireNonNull(budget, "budget is null");
    this.purpose = requireNonNull(purpose, "purpose is null");
  }

  /** Reserves {@code bytes} or fails with MEMORY_BUDGET_EXCEEDED naming the purpose. */
  void reserve(long bytes) {
    budget.reserve(bytes, purpose);
    reserved += bytes;
  }

  long reserved() {
    return reserved;
  }

  void releaseAll() {
    budget.release(reserved);
    reserved = 0;
  }

  /** The next capacity for {@code needed} entries: at least double, so growth stays linear. */
  static int grownCapacity(int capacity, int needed) {
    return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, Math.max(16, capacity * 2L)));
  }
}
