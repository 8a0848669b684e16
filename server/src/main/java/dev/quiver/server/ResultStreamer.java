package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.flink.session.QuiverSession;
import dev.quiver.flink.session.SqlResult;
import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one query and streams its batches to its client as they arrive, with no row conversion:
 * Quiver's batches are Arrow already. It runs on a thread of its own, not gRPC's: gRPC delivers a
 * call's callbacks (the client is ready for more, the client cancelled or went away) one after the
 * other, so a {@code getStream} that blocked the call's thread would never hear of them.
 *
 * <p>Ownership: each result batch belongs to the session's allocator and is closed here as soon as
 * its buffers are loaded into the stream's root (the root, in the server's allocator, now shares
 * them; the message being sent holds its own reference until gRPC has written it). Backpressure: a
 * batch is loaded only when the client's flow-control window has room, so a client that reads
 * slowly slows the Flink job through its bounded result buffer instead of filling memory here.
 */
final class ResultStreamer implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ResultStreamer.class);
  private static final long READY_POLL_MILLIS = 200;

  private final QuiverSession session;
  private final BufferAllocator allocator;
  private final Admission admission;
  private final Queries queries;
  private final Query query;
  private final ServerStreamListener listener;
  private final Backpressure backpressure;

  ResultStreamer(
      QuiverSession session,
      BufferAllocator allocator,
      Admission admission,
      Queries queries,
      Query query,
      ServerStreamListener listener) {
    this.session = requireNonNull(session, "session is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.admission = requireNonNull(admission, "admission is null");
    this.queries = requireNonNull(queries, "queries is null");
    this.query = requireNonNull(query, "query is null");
    this.listener = requireNonNull(listener, "listener is null");
    // Registered on gRPC's thread, before getStream returns: a cancel from now on is seen.
    this.backpressure = new Backpressure(query);
    backpressure.register(listener);
    query.onCancel(backpressure::interruptWait);
  }

  @Override
  public void run() {
    long start = System.nanoTime();
    long rows = 0;
    boolean admitted = false;
    try {
      admission.acquire(query::isCancelled);
      admitted = true;
      try (SqlResult result = session.run(query.planned())) {
        query.started(result);
        try (VectorSchemaRoot out = VectorSchemaRoot.create(result.schema(), allocator)) {
          listener.start(out);
          VectorLoader loader = new VectorLoader(out);
          while (!query.isCancelled() && result.hasNext()) {
            try (VectorSchemaRoot batch = result.next()) {
              if (batch.getRowCount() == 0 || !clientReady()) {
                continue;
              }
              try (ArrowRecordBatch body = new VectorUnloader(batch).getRecordBatch()) {
                loader.load(body);
              }
              listener.putNext();
              rows += batch.getRowCount();
            }
          }
          if (query.isCancelled()) {
            throw cancelled();
          }
          listener.completed();
        }
      }
      LOG.debug(
          "Query {}: {} rows in {} ms", query.id(), rows, (System.nanoTime() - start) / 1_000_000);
    } catch (RuntimeException e) {
      RuntimeException error = query.isCancelled() ? cancelled() : FlightErrors.of(e);
      if (!listener.isCancelled()) {
        listener.error(error);
      }
    } finally {
      if (admitted) {
        admission.release();
      }
      query.ended();
      queries.remove(query);
    }
  }

  /** Waits until the client can take a batch; false when the query was cancelled meanwhile. */
  private boolean clientReady() {
    while (!query.isCancelled()) {
      BackpressureStrategy.WaitResult ready = backpressure.waitForListener(READY_POLL_MILLIS);
      if (ready == BackpressureStrategy.WaitResult.READY) {
        return true;
      }
      if (ready == BackpressureStrategy.WaitResult.CANCELLED) {
        query.cancel("the client cancelled the stream or disconnected");
      }
    }
    return false;
  }

  private RuntimeException cancelled() {
    return CallStatus.CANCELLED
        .withDescription("query cancelled: " + query.cancelReason())
        .toRuntimeException();
  }

  /** Wakes on the client's readiness; the client's cancel (or disconnect) cancels the query. */
  private static final class Backpressure
      extends BackpressureStrategy.CallbackBackpressureStrategy {
    private final Query query;

    Backpressure(Query query) {
      this.query = query;
    }

    @Override
    protected void cancelCallback() {
      // On gRPC's thread: cancels the job, which ends the reader's wait for the next batch.
      query.cancel("the client cancelled the stream or disconnected");
    }

    @Override
    protected boolean shouldContinueWaiting(ServerStreamListener listener, long remaining) {
      return !query.isCancelled();
    }
  }
}
