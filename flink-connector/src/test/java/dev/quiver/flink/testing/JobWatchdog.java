package dev.quiver.flink.testing;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.flink.core.execution.JobClient;

/**
 * Cancels a streaming job when a test has waited on it longer than its deadline. Flink's collect
 * iterators wait in {@code hasNext()} for as long as the job runs and do not give up when the test
 * thread is interrupted, so a result that never comes would hang the test instead of failing it;
 * cancelling the job ends the wait, and {@link #fired()} tells the test why it ended.
 */
public final class JobWatchdog implements AutoCloseable {
  private final JobClient job;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "job-watchdog");
            thread.setDaemon(true);
            return thread;
          });
  private ScheduledFuture<?> pending;
  private volatile boolean fired;

  public JobWatchdog(JobClient job) {
    this.job = requireNonNull(job, "job is null");
  }

  /** Cancels the job {@code deadline} from now unless armed again or closed before. */
  public synchronized void arm(Duration deadline) {
    if (pending != null) {
      pending.cancel(false);
    }
    pending =
        timer.schedule(
            () -> {
              fired = true;
              job.cancel();
            },
            deadline.toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /**
   * {@code results.hasNext()}, failing with "timed out waiting for {@code what}" if the watchdog
   * cancelled the job while it waited (however the iterator then ended).
   */
  public boolean hasNext(Iterator<?> results, Supplier<String> what) {
    boolean more;
    try {
      more = results.hasNext();
    } catch (RuntimeException e) {
      if (fired) {
        throw new AssertionError("timed out waiting for " + what.get(), e);
      }
      throw e;
    }
    if (fired) {
      throw new AssertionError("timed out waiting for " + what.get());
    }
    return more;
  }

  /** Whether the deadline passed and the job was cancelled for it. */
  public boolean fired() {
    return fired;
  }

  @Override
  public synchronized void close() {
    timer.shutdownNow();
  }
}
