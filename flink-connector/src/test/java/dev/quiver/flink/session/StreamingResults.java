package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Reading a streaming query's result in tests, which never ends by itself. */
public final class StreamingResults {
  private StreamingResults() {}

  /**
   * Reads {@code result} into {@code rows} until it holds {@code count} rows. Flink's result
   * iterator waits for as long as the job runs and ignores interrupts, so at the deadline the job
   * is cancelled: a result that never comes fails the test instead of hanging it.
   */
  public static void readUntil(
      SqlResult result, List<List<Object>> rows, int count, Duration deadline) {
    readUntil(result, rows, read -> read.size() >= count, count + " rows", deadline);
  }

  /**
   * Reads {@code result} into {@code rows}, batch by batch, until {@code done} holds for the rows
   * read; {@code what} names the wait in a failure. At the deadline the job is cancelled, as above.
   */
  public static void readUntil(
      SqlResult result,
      List<List<Object>> rows,
      Predicate<List<List<Object>>> done,
      String what,
      Duration deadline) {
    AtomicBoolean fired = new AtomicBoolean();
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "streaming-result-deadline");
              thread.setDaemon(true);
              return thread;
            });
    timer.schedule(
        () -> {
          fired.set(true);
          result.cancel();
        },
        deadline.toMillis(),
        TimeUnit.MILLISECONDS);
    try {
      while (!done.test(rows)) {
        boolean more;
        try {
          more = result.hasNext();
        } catch (RuntimeException e) {
          if (fired.get()) {
            fail("not %s within %s, after %d rows", what, deadline, rows.size());
          }
          throw e;
        }
        assertThat(more)
            .as("the stream ended after %d rows, before %s", rows.size(), what)
            .isTrue();
        try (VectorSchemaRoot batch = result.next()) {
          rows.addAll(ResultValues.rows(batch));
        }
      }
    } finally {
      timer.shutdownNow();
    }
  }
}
