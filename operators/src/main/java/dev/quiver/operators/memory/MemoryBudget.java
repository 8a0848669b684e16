package dev.quiver.operators.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;

/**
 * The bytes of Arrow memory a task's operators may hold at once, shared by all operators of the
 * task. Operators reserve what they keep (hash tables, buffered batches) before they keep it and
 * release it when they let go; a reservation beyond the limit fails with a clear {@link
 * ErrorCode#MEMORY_BUDGET_EXCEEDED} error instead of an out-of-memory crash. Later, spilling
 * operators use {@link #tryReserve} to decide when to spill.
 *
 * <p>Not thread-safe: a task's operators run on one thread.
 */
public final class MemoryBudget {
  private final String owner;
  private final long limit;
  private long used;
  private long peak;

  public MemoryBudget(String owner, long limit) {
    this.owner = requireNonNull(owner, "owner is null");
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be >= 0: " + limit);
    }
    this.limit = limit;
  }

  public static MemoryBudget unlimited(String owner) {
    return new MemoryBudget(owner, Long.MAX_VALUE);
  }

  /** Reserves {@code bytes} for {@code what}, or fails naming the owner, the need and the limit. */
  public void reserve(long bytes, String what) {
    if (!tryReserve(bytes)) {
      throw new QuiverException(
          ErrorCode.MEMORY_BUDGET_EXCEEDED,
          owner
              + " needs "
              + bytes
              + " more bytes for "
              + what
              + " but has used "
              + used
              + " of its "
              + limit
              + "-byte memory budget; give the task more memory or use more tasks");
    }
  }

  /** Reserves {@code bytes} if they fit and says whether they did. */
  public boolean tryReserve(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
    }
    if (bytes > limit - used) {
      return false;
    }
    used += bytes;
    peak = Math.max(peak, used);
    return true;
  }

  /** Returns {@code bytes} reserved earlier. */
  public void release(long bytes) {
    if (bytes < 0 || bytes > used) {
      throw new IllegalStateException(
          owner + " releases " + bytes + " bytes but holds only " + used);
    }
    used -= bytes;
  }

  public long used() {
    return used;
  }

  public long peak() {
    return peak;
  }

  public long limit() {
    return limit;
  }

  public String owner() {
    return owner;
  }
}
