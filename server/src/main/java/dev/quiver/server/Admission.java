package dev.quiver.server;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.arrow.flight.CallStatus;

/**
 * How many queries run at once: at most {@code maxRunning}, the others wait in a queue of at most
 * {@code maxQueued} (first come, first served); a query that finds the queue full fails at once
 * with RESOURCE_EXHAUSTED, which a client can retry later. A waiting query whose client cancels or
 * disconnects leaves the queue.
 */
final class Admission {
  private static final long POLL_MILLIS = 50;

  private final int maxRunning;
  private final int maxQueued;
  private final Semaphore slots;
  private final AtomicInteger queued = new AtomicInteger();

  Admission(int maxRunning, int maxQueued) {
    if (maxRunning < 1) {
      throw new IllegalArgumentException("at least one query must be able to run: " + maxRunning);
    }
    if (maxQueued < 0) {
      throw new IllegalArgumentException("the queue's length is negative: " + maxQueued);
    }
    this.maxRunning = maxRunning;
    this.maxQueued = maxQueued;
    this.slots = new Semaphore(maxRunning, true);
  }

  int maxRunning() {
    return maxRunning;
  }

  int maxQueued() {
    return maxQueued;
  }

  /** The queries waiting now. */
  int queued() {
    return queued.get();
  }

  /**
   * Waits until the query may run; then the caller runs it and calls {@link #release()}.
   *
   * @param cancelled whether the query was cancelled while it waits
   * @throws org.apache.arrow.flight.FlightRuntimeException RESOURCE_EXHAUSTED when the queue is
   *     full, CANCELLED when the query was cancelled while waiting
   */
  void acquire(BooleanSupplier cancelled) {
    if (slots.tryAcquire()) {
      return;
    }
    if (queued.incrementAndGet() > maxQueued) {
      queued.decrementAndGet();
      throw CallStatus.RESOURCE_EXHAUSTED
          .withDescription(
              "the server is busy: "
                  + maxRunning
                  + " queries run and "
                  + maxQueued
                  + " wait already (--max-concurrent-queries, --max-queued-queries); try again"
                  + " later")
          .toRuntimeException();
    }
    try {
      while (!slots.tryAcquire(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
        if (cancelled.getAsBoolean()) {
          throw CallStatus.CANCELLED
              .withDescription("the query was cancelled while it waited to run")
              .toRuntimeException();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CallStatus.CANCELLED.withDescription("the server is stopping").toRuntimeException();
    } finally {
      queued.decrementAndGet();
    }
  }

  /** A query admitted by {@link #acquire} has ended. */
  void release() {
    slots.release();
  }
}
