package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.PlannedQuery;
import dev.quiver.flink.session.SqlResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One statement a client asked for (a ticket it was given): planned when the client asked for its
 * FlightInfo, run once when the client reads the ticket, cancellable from any thread at any point
 * until it has ended.
 *
 * <pre>
 *   planned ──getStream──► running (a Flink job) ──► ended
 *      └──────cancel────────────┴──cancel: the job is cancelled, the reader ends with CANCELLED
 * </pre>
 */
final class Query {
  private static final Logger LOG = LoggerFactory.getLogger(Query.class);

  private final String id;
  private final PlannedQuery planned;
  private final long createdNanos = System.nanoTime();
  private boolean claimed;
  private SqlResult result;
  private String cancelled; // why, or null
  private boolean ended;
  private Runnable onCancel = () -> {};

  Query(String id, PlannedQuery planned) {
    this.id = requireNonNull(id, "id is null");
    this.planned = requireNonNull(planned, "planned is null");
  }

  String id() {
    return id;
  }

  PlannedQuery planned() {
    return planned;
  }

  long createdNanos() {
    return createdNanos;
  }

  /** Marks the ticket read; false if it was read before (a ticket runs its query once). */
  synchronized boolean claim() {
    if (claimed) {
      return false;
    }
    claimed = true;
    return true;
  }

  synchronized boolean claimed() {
    return claimed;
  }

  /** Runs {@code action} when the query is cancelled (wakes a reader waiting for its client). */
  synchronized void onCancel(Runnable action) {
    this.onCancel = requireNonNull(action, "action is null");
  }

  /** The query's job has started; cancelled already, it is cancelled at once. */
  synchronized void started(SqlResult value) {
    result = value;
    if (cancelled != null) {
      value.cancel();
    }
  }

  /**
   * Cancels the query: its job if it runs, its run if it has not started. Returns false when it has
   * ended already (nothing to cancel).
   */
  boolean cancel(String why) {
    Runnable wake;
    synchronized (this) {
      if (ended) {
        return false;
      }
      if (cancelled == null) {
        cancelled = why;
        LOG.info("Query {} cancelled: {}", id, why);
        if (result != null) {
          result.cancel();
        }
      }
      wake = onCancel;
    }
    wake.run();
    return true;
  }

  synchronized boolean isCancelled() {
    return cancelled != null;
  }

  /** Why the query was cancelled, or null. */
  synchronized String cancelReason() {
    return cancelled;
  }

  /** The query's run has ended (its job has ended and its result is closed). */
  synchronized void ended() {
    ended = true;
    result = null;
  }
}
