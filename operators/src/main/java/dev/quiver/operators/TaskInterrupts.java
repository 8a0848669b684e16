package dev.quiver.operators;

import java.util.concurrent.CancellationException;

/**
 * Where an operator's loop may run for long inside one call (a nested loop join of one probe batch
 * with a large build side, a hash join key with very many matches) it asks whether its thread was
 * interrupted. A task that is being cancelled is interrupted by its runtime (Flink interrupts the
 * task's thread every {@code task.cancellation.interval} until it returns); without asking, such a
 * loop ran until Flink's cancellation timeout gave up on the task and failed its TaskManager.
 */
public final class TaskInterrupts {
  private TaskInterrupts() {}

  /**
   * Throws {@link CancellationException} if the calling thread was interrupted; leaves the
   * interrupt flag set, so that whoever runs the task sees it too.
   */
  public static void check(Object operator) {
    if (Thread.currentThread().isInterrupted()) {
      throw new CancellationException(operator + " stopped: its task was interrupted (cancelled)");
    }
  }
}
