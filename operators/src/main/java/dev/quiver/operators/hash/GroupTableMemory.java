package dev.quiver.operators.hash;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.MemoryBudget;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The memory of one {@link GroupTable}: every byte it keeps (Java arrays and Arrow buffers) is
 * reserved in the budget before it is allocated and released when it is freed, so {@link
 * #reserved()} is exactly what the table retains.
 */
final class GroupTableMemory {
  private final MemoryBudget budget;
  private final BufferAllocator allocator;
  private final String purpose;
  private long reserved;

  GroupTableMemory(MemoryBudget budget, BufferAllocator allocator, String purpose) {
    this.budget = requireNonNull(budget, "budget is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.purpose = requireNonNull(purpose, "purpose is null");
  }

  void reserve(long bytes) {
    budget.reserve(bytes, purpose);
    reserved += bytes;
  }

  void release(long bytes) {
    budget.release(bytes);
    reserved -= bytes;
  }

  long reserved() {
    return reserved;
  }

  /**
   * {@code buffer} with room for {@code needed} bytes, keeping its first {@code used} bytes: a new
   * power-of-two buffer (Arrow's allocation size, so the reservation is exact) at least twice as
   * large, zeroed past {@code used}. The old buffer is freed.
   */
  ArrowBuf grow(ArrowBuf buffer, long needed, long used) {
    long capacity = buffer == null ? 0 : buffer.capacity();
    if (capacity >= needed) {
      return buffer;
    }
    long size = Long.highestOneBit(Math.max(64, Math.max(needed, capacity * 2)) - 1) << 1;
    reserve(size);
    ArrowBuf grown;
    try {
      grown = allocator.buffer(size);
    } catch (RuntimeException | Error e) {
      release(size);
      throw e;
    }
    long kept = buffer == null ? 0 : used;
    if (buffer != null) {
      grown.setBytes(0, buffer, 0, kept);
      free(buffer);
    }
    grown.setZero(kept, grown.capacity() - kept);
    return grown;
  }

  /** Frees a buffer made by {@link #grow} and returns its reservation; null is ignored. */
  ArrowBuf free(ArrowBuf buffer) {
    if (buffer != null) {
      long capacity = buffer.capacity();
      buffer.close();
      release(capacity);
    }
    return null;
  }

  /** Returns whatever is still reserved (after the buffers were freed). */
  void releaseAll() {
    release(reserved);
  }
}
