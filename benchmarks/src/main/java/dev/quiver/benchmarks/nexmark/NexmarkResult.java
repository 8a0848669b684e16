package dev.quiver.benchmarks.nexmark;

import java.util.List;

/**
 * One engine's run of one query.
 *
 * @param events the events generated (all kinds)
 * @param rows the rows the query wrote to its sink
 * @param elapsedNanos from the first event a source emitted to the sink's end of input
 * @param latencyNanos event-time latency samples at the sink, sorted ({@link NexmarkRun})
 */
public record NexmarkResult(long events, long rows, long elapsedNanos, List<Long> latencyNanos) {
  public NexmarkResult {
    latencyNanos = List.copyOf(latencyNanos);
  }

  /** Events per second of the whole job (not per core). */
  public double eventsPerSecond() {
    return events * 1e9 / elapsedNanos;
  }

  /** The {@code p}-th percentile latency in milliseconds, or NaN without samples. */
  public double latencyMillis(double p) {
    if (latencyNanos.isEmpty()) {
      return Double.NaN;
    }
    int index = (int) Math.ceil(p / 100 * latencyNanos.size()) - 1;
    return latencyNanos.get(Math.max(0, Math.min(index, latencyNanos.size() - 1))) / 1e6;
  }
}
