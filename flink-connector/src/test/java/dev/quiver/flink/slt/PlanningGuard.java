package dev.quiver.flink.slt;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.PlannedQuery;
import dev.quiver.flink.session.QuiverSession;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Plans a query in its session on a throwaway daemon thread, so that a planner that never
 * terminates fails one record instead of the whole run: planning is CPU-bound and ignores
 * interrupts. The record then runs the planned query ({@link QuiverSession#run}), so it is planned
 * once, as {@link QuiverSession#sql} plans it. A session whose planning ran away stays locked (it
 * plans under its own lock) and must be replaced ({@link #ranAway}).
 */
final class PlanningGuard {
  private static final long TIMEOUT_SECONDS = 30;

  private PlanningGuard() {}

  /**
   * {@code session.prepare(sql)}; what it throws is thrown here.
   *
   * @throws Runaway if planning {@code sql} takes more than {@value #TIMEOUT_SECONDS} s
   */
  static PlannedQuery prepare(QuiverSession session, String sql) throws InterruptedException {
    requireNonNull(session, "session is null");
    requireNonNull(sql, "sql is null");
    CompletableFuture<PlannedQuery> planned = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                planned.complete(session.prepare(sql));
              } catch (Throwable e) {
                planned.completeExceptionally(e);
              }
            },
            "slt-planning-guard");
    thread.setDaemon(true);
    thread.start();
    try {
      return planned.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      Runaway error = new Runaway("planning did not end within " + TIMEOUT_SECONDS + " s");
      error.setStackTrace(thread.getStackTrace()); // where the planner spins
      throw error;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** Whether {@code failure} is, or was caused by, a planning that did not end. */
  static boolean ranAway(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof Runaway) {
        return true;
      }
    }
    return false;
  }

  /** Planning did not end: the session's planning lock stays held by the spinning planner. */
  static final class Runaway extends AssertionError {
    private static final long serialVersionUID = 1L;

    Runaway(String message) {
      super(message);
    }
  }
}
