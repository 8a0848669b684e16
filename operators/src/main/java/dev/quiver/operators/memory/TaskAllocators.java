package dev.quiver.operators.memory;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds one task's allocator to the thread that runs the task.
 *
 * <p>Code that receives bytes rather than batches (a deserializer on a network edge, a reader of a
 * spill file) needs to know which task the memory it allocates belongs to, but the runtime calls it
 * without any context. The task binds its allocator to its thread for as long as it runs, and such
 * code asks for {@link #current()}.
 *
 * <p>Several operators of one task may each {@link #acquire} the binding: the first creates the
 * task's child allocator of the {@linkplain Allocators#root() root}, the others share it, and the
 * last {@link Binding#close()} closes it — which fails if the task leaked memory.
 */
public final class TaskAllocators {
  private static final Logger LOG = LoggerFactory.getLogger(TaskAllocators.class);
  private static final ThreadLocal<Binding> CURRENT = new ThreadLocal<>();

  private TaskAllocators() {}

  /**
   * Joins (or creates) the binding of the current thread. When the thread has no binding yet, a new
   * child allocator named {@code taskName} is created and owned by the binding.
   */
  public static Binding acquire(String taskName) {
    requireNonNull(taskName, "taskName is null");
    Binding binding = CURRENT.get();
    if (binding == null) {
      binding = new Binding(Allocators.newChild(taskName), true);
      CURRENT.set(binding);
    }
    binding.references++;
    return binding;
  }

  /**
   * Binds an allocator the caller owns (for example a test's or a result iterator's) to the current
   * thread until the returned binding is closed. The allocator is not closed with it.
   */
  public static Binding bind(BufferAllocator allocator) {
    requireNonNull(allocator, "allocator is null");
    if (CURRENT.get() != null) {
      throw new IllegalStateException(
          "thread " + Thread.currentThread().getName() + " already has a task allocator bound");
    }
    Binding binding = new Binding(allocator, false);
    binding.references = 1;
    CURRENT.set(binding);
    return binding;
  }

  /** The allocator bound to the current thread. */
  public static BufferAllocator current() {
    Binding binding = CURRENT.get();
    if (binding == null) {
      throw new IllegalStateException(
          "no task allocator is bound to thread "
              + Thread.currentThread().getName()
              + ": Arrow batches can only be materialized inside a Quiver task or a bound scope");
    }
    return binding.allocator;
  }

  /** Whether the current thread has a bound allocator. */
  public static boolean isBound() {
    return CURRENT.get() != null;
  }

  /** One reference to a thread's task allocator. */
  public static final class Binding implements AutoCloseable {
    private final BufferAllocator allocator;
    private final boolean owned;
    private int references;
    private boolean closed;
    private boolean abnormal;

    private Binding(BufferAllocator allocator, boolean owned) {
      this.allocator = allocator;
      this.owned = owned;
    }

    public BufferAllocator allocator() {
      return allocator;
    }

    /**
     * Drops the reference of a holder that ended abnormally (failed or was cancelled). The task has
     * then not ended normally, whatever its other holders saw (a source may have read its whole
     * input before a writer chained after it was cancelled): memory still held when the last
     * reference closes the allocator is logged, not thrown, so that the task's own failure is what
     * Flink reports (an exception while Flink cleans up a cancelled task is fatal to its
     * TaskManager).
     */
    public void closeAbnormally() {
      abnormal = true;
      close();
    }

    /**
     * Drops this reference: {@link #close()} if the holder {@code endedNormally} (a leak is then a
     * bug and fails), else {@link #closeAbnormally()} (a leak is logged).
     */
    public void close(boolean endedNormally) {
      if (endedNormally) {
        close();
      } else {
        closeAbnormally();
      }
    }

    /**
     * Drops this reference; the last one unbinds the thread and closes an owned allocator, which
     * fails if the task leaked memory and no holder {@linkplain #closeAbnormally ended abnormally}.
     */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      if (CURRENT.get() != this) {
        throw new IllegalStateException("task allocator binding closed on a foreign thread");
      }
      if (--references > 0) {
        return;
      }
      closed = true;
      CURRENT.remove();
      if (owned) {
        try {
          allocator.close();
        } catch (IllegalStateException leak) {
          if (!abnormal) {
            throw leak; // a leak after a normal end is a bug
          }
          LOG.warn(
              "{} ended abnormally and leaked Arrow memory: {}",
              allocator.getName(),
              leak.getMessage());
        }
      }
    }
  }
}
