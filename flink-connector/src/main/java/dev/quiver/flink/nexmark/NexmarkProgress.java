package dev.quiver.flink.nexmark;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Where a measuring caller learns how far each {@link NexmarkBatchSource} reader has got (the
 * Nexmark benchmark's throughput and event-time latency): listeners registered in this JVM under a
 * name, which the source is given ({@link NexmarkBatchSource.Builder#progress}). A local
 * MiniCluster runs its tasks in the caller's JVM, so its readers find the listener; a reader on
 * another machine finds none and reports nothing.
 *
 * <pre>
 *   caller: register("run-7", () -> reader listener) ─┐
 *   reader i (task thread): emitted a batch up to event time T ─► listener_i.emitted(T, nanoTime)
 * </pre>
 */
public final class NexmarkProgress {
  private static final Map<String, Supplier<Reader>> LISTENERS = new ConcurrentHashMap<>();

  private NexmarkProgress() {}

  /** One reader's listener, called in its task thread as it emits each batch (just before). */
  @FunctionalInterface
  public interface Reader {
    /**
     * The reader has emitted its events up to event time {@code dateTimeMillis} by {@code nanos}.
     */
    void emitted(long dateTimeMillis, long nanos);
  }

  /**
   * Registers {@code readers} (a new listener per reader) under {@code name} until the returned
   * handle is closed.
   *
   * @throws IllegalStateException if {@code name} is registered already
   */
  public static Registration register(String name, Supplier<Reader> readers) {
    requireNonNull(name, "name is null");
    requireNonNull(readers, "readers is null");
    if (LISTENERS.putIfAbsent(name, readers) != null) {
      throw new IllegalStateException("a Nexmark progress listener " + name + " is registered");
    }
    return () -> LISTENERS.remove(name, readers);
  }

  /** A new reader listener of {@code name}, or null when none is registered in this JVM. */
  static Reader reader(String name) {
    Supplier<Reader> readers = LISTENERS.get(name);
    return readers == null ? null : readers.get();
  }

  /** Ends a registration. */
  @FunctionalInterface
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }
}
