package dev.quiver.benchmarks.nexmark;

import dev.quiver.benchmarks.run.Engine;

/**
 * One engine of the Nexmark comparison ({@link NexmarkBenchmark}): it runs a query over the first
 * {@code events} events of a generated stream to the end and reports what {@link NexmarkResult}
 * holds, measured as {@link NexmarkRun} says (the sources' first event to the sink's end of input;
 * event-time latency at the sink). An engine reads the stream split among its parallel sources as
 * {@code NexmarkSplit} splits it, and writes into a sink that only counts.
 */
// close() stops an engine's cluster, which may wait and be interrupted.
@SuppressWarnings("try")
public interface NexmarkEngine extends AutoCloseable {

  /** Quiver or Flink SQL (the report's columns). */
  Engine.Kind kind();

  /** Runs {@code query} over the first {@code events} events to the end. */
  NexmarkResult run(NexmarkQuery query, long events) throws Exception;
}
