package dev.quiver.benchmarks.run;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one query on an engine with a time limit, on a worker thread. A query that fails is an
 * outcome, not an exception; one that runs past the limit is cancelled ({@link Engine#cancel()} and
 * an interrupt) and recorded as timed out.
 */
final class QueryRunner implements AutoCloseable {
  /** How long a cancelled query may take to end before its worker thread is abandoned. */
  private static final Duration CANCEL_GRACE = Duration.ofMinutes(2);

  private static final int REASON_CHARS = 160;

  /**
   * What one run of one query gave.
   *
   * @param seconds wall time from submission to the last row (to the failure or timeout)
   * @param rows the rows, or null if the query failed
   * @param error null, or what went wrong
   * @param failure the exception, if any (for the error log)
   */
  record Outcome(
      double seconds, List<List<Object>> rows, String error, boolean timedOut, Throwable failure) {
    boolean succeeded() {
      return rows != null;
    }
  }

  private ExecutorService worker = newWorker();

  /**
   * Runs {@code task} on the worker thread, without a time limit. Engines are started here: Flink's
   * SQL planner keeps Calcite's metadata handlers in a thread local of the thread that created the
   * table environment, and fails with "NullPointerException: metadataHandlerProvider" when a query
   * is planned on another thread.
   */
  <T> T call(Callable<T> task) throws Exception {
    try {
      return worker.submit(task).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  Outcome run(Engine engine, String sql, Duration timeout) {
    CountDownLatch ended = new CountDownLatch(1);
    long start = System.nanoTime();
    Future<List<List<Object>>> future =
        worker.submit(
            () -> {
              try {
                return engine.execute(sql);
              } finally {
                ended.countDown();
              }
            });
    try {
      List<List<Object>> rows = future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return new Outcome(seconds(start), rows, null, false, null);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      return new Outcome(seconds(start), null, describe(cause), false, cause);
    } catch (TimeoutException e) {
      double seconds = seconds(start);
      engine.cancel();
      future.cancel(true);
      awaitEnd(ended);
      return new Outcome(
          seconds, null, "timeout after " + timeout.toSeconds() + " s (cancelled)", true, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      engine.cancel();
      future.cancel(true);
      throw new IllegalStateException("interrupted while running a query", e);
    }
  }

  private void awaitEnd(CountDownLatch ended) {
    try {
      if (!ended.await(CANCEL_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        System.out.println(
            "  the cancelled query did not end within " + CANCEL_GRACE + "; abandoning its thread");
        worker.shutdownNow();
        worker = newWorker();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Why a query failed, in one line of at most {@value #REASON_CHARS} characters: the class and the
   * first line of the message of the root cause, which says what went wrong (the outer exceptions
   * of Flink say "Job execution failed" or "SQL validation failed").
   */
  static String reason(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? "" : root.getMessage().strip();
    int newline = message.indexOf('\n');
    if (newline > 0) {
      message = message.substring(0, newline);
    }
    String text = (root.getClass().getSimpleName() + ": " + message).replaceAll("\\s+", " ");
    return text.length() <= REASON_CHARS ? text : text.substring(0, REASON_CHARS - 1) + "…";
  }

  /** The exception's class and message, and its root cause's if that differs. */
  static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = e.getClass().getSimpleName() + ": " + e.getMessage();
    if (root != e) {
      text += " (root cause " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
    return text.replaceAll("\\s+", " ");
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread thread = new Thread(r, "benchmark-query");
          thread.setDaemon(true);
          return thread;
        });
  }

  @Override
  public void close() {
    worker.shutdownNow();
  }
}
