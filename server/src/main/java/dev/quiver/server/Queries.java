package dev.quiver.server;

import dev.quiver.flink.session.PlannedQuery;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The statements clients have been given tickets for, by ticket id, until their run ends. A ticket
 * nobody reads within {@link #UNREAD_TICKET_LIFETIME} is forgotten (a client that asked for a
 * FlightInfo and went away), so the map stays bounded by what clients actually do.
 */
final class Queries {
  static final Duration UNREAD_TICKET_LIFETIME = Duration.ofMinutes(10);

  private final Map<String, Query> byId = new ConcurrentHashMap<>();
  private final AtomicLong cancelled = new AtomicLong();

  /** A new query for {@code planned}, with a fresh ticket id. */
  Query add(PlannedQuery planned) {
    forgetUnread();
    Query query = new Query(UUID.randomUUID().toString(), planned);
    byId.put(query.id(), query);
    return query;
  }

  Optional<Query> get(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The query has ended: its ticket is no longer valid. */
  void remove(Query query) {
    if (byId.remove(query.id(), query) && query.isCancelled()) {
      cancelled.incrementAndGet();
    }
  }

  /** The queries that have ended cancelled since the server started. */
  long cancelled() {
    return cancelled.get();
  }

  /** The queries whose ticket is being read (waiting to run or running). */
  int active() {
    return (int) byId.values().stream().filter(Query::claimed).count();
  }

  /** Cancels every query, those not started yet too. */
  void cancelAll(String why) {
    for (Query query : List.copyOf(byId.values())) {
      query.cancel(why);
    }
  }

  private void forgetUnread() {
    long now = System.nanoTime();
    byId.values()
        .removeIf(
            query ->
                !query.claimed() && now - query.createdNanos() > UNREAD_TICKET_LIFETIME.toNanos());
  }
}
