package dev.quiver.flink.slt;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.sql.SqlPlanner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Plans a query on a throwaway daemon thread before the session runs it, so that a planner that
 * never terminates fails one record instead of the whole run: planning is CPU-bound and ignores
 * interrupts, and the session plans under its own lock, so a runaway planning call inside the
 * session would block every later record. A planning error is left to the session to report.
 */
final class PlanningGuard {
  private static final long TIMEOUT_SECONDS = 30;

  private PlanningGuard() {}

  /**
   * @throws AssertionError if planning {@code sql} takes more than {@value #TIMEOUT_SECONDS} s
   */
  static void checkPlanningEnds(QuiverSession session, String sql) throws InterruptedException {
    requireNonNull(session, "session is null");
    requireNonNull(sql, "sql is null");
    CompletableFuture<Void> planned = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                new SqlPlanner(session.catalog()).plan(sql, session.parallelism());
              } catch (RuntimeException | Error e) {
                // the session plans again and reports it
              }
              planned.complete(null);
            },
            "slt-planning-guard");
    thread.setDaemon(true);
    thread.start();
    try {
      planned.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      StackTraceElement[] stack = thread.getStackTrace();
      AssertionError error =
          new AssertionError("planning did not end within " + TIMEOUT_SECONDS + " s");
      error.setStackTrace(stack); // where the planner spins
      throw error;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }
}
