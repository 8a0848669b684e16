package dev.quiver.operators.memory;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The per-JVM root of all Arrow memory Quiver allocates.
 *
 * <p>Nothing allocates from the root directly: every owner (a task, a test, a client-side result
 * iterator) takes a named child with {@link #newChild} and closes it when it is done. Closing a
 * child that still holds memory fails with the allocator's own accounting report, so a leak is
 * always attributed to its owner.
 *
 * <p>The root's limit is {@code -Dquiver.memory.max=<bytes>} (default: unbounded; Arrow's own
 * direct-memory limit still applies).
 */
public final class Allocators {
  private static final BufferAllocator ROOT =
      new RootAllocator(Long.getLong("quiver.memory.max", Long.MAX_VALUE));

  private Allocators() {}

  /** The per-JVM root. Use it to create children or to inspect accounting, never to allocate. */
  public static BufferAllocator root() {
    return ROOT;
  }

  /** A new unbounded child of the root, owned by the caller. */
  public static BufferAllocator newChild(String name) {
    return newChild(name, Long.MAX_VALUE);
  }

  /** A new child of the root limited to {@code limit} bytes, owned by the caller. */
  public static BufferAllocator newChild(String name, long limit) {
    requireNonNull(name, "name is null");
    return ROOT.newChildAllocator(name, 0, limit);
  }
}
