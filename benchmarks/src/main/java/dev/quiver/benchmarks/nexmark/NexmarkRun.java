package dev.quiver.benchmarks.nexmark;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the sources and the counting sink of one measured job report, in this JVM (the MiniCluster
 * runs its tasks here, so they reach the run through a static registry by its id).
 *
 * <p>Sources report when they emitted what: each source reader records, per bucket of {@link
 * #BUCKET_MILLIS} of event time, the wall clock ({@link System#nanoTime()}) at which it first
 * emitted an event of that bucket or later ({@link Emitter}). The sink reports its rows, the wall
 * clock at its end of input, and for each watermark {@code W} it receives the latency of event
 * time: now minus the moment the last source had emitted event time {@code W + delay} (when a
 * source's watermark generator could first have produced {@code W}).
 *
 * <pre>
 *   source readers:  event time T emitted at wall clock s_r(T)      (per reader r)
 *   sink:            watermark W arrives at wall clock a(W)
 *   latency(W) = a(W) - max_r s_r(W + delay)     (over the readers r that have reached W + delay)
 * </pre>
 *
 * <p>For a windowed query this is the delay from the moment the sources completed a window's event
 * time to the moment its results were all at the sink (an operator emits a window's rows before it
 * forwards the watermark that fired it); for a pass-through query it is the delay of rows and
 * watermarks through the job, including the source's periodic watermark interval.
 */
final class NexmarkRun {
  /** Event-time resolution of the sources' progress. */
  static final long BUCKET_MILLIS = 10;

  private static final Map<String, NexmarkRun> RUNS = new ConcurrentHashMap<>();

  private final String id;
  private final long baseTimeMillis;
  private final int buckets;
  private final long watermarkDelayMillis;
  private final List<long[]> emitted = new CopyOnWriteArrayList<>();
  private final AtomicLong firstEmit = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong sinkEnd = new AtomicLong(Long.MIN_VALUE);
  private final LongAdder rows = new LongAdder();
  private final List<Long> latencies = new CopyOnWriteArrayList<>();

  private NexmarkRun(String id, long baseTimeMillis, long spanMillis, long watermarkDelayMillis) {
    this.id = id;
    this.baseTimeMillis = baseTimeMillis;
    this.buckets = (int) (spanMillis / BUCKET_MILLIS + 2);
    this.watermarkDelayMillis = watermarkDelayMillis;
  }

  /** Registers a run whose events span {@code spanMillis} of event time from {@code base}. */
  static NexmarkRun start(
      String id, long baseTimeMillis, long spanMillis, long watermarkDelayMillis) {
    NexmarkRun run = new NexmarkRun(id, baseTimeMillis, spanMillis, watermarkDelayMillis);
    if (RUNS.putIfAbsent(id, run) != null) {
      throw new IllegalStateException("run " + id + " is already registered");
    }
    return run;
  }

  /** The run registered under {@code id}. */
  static NexmarkRun get(String id) {
    NexmarkRun run = RUNS.get(requireNonNull(id, "id is null"));
    if (run == null) {
      throw new IllegalStateException("no Nexmark run " + id + " in this JVM");
    }
    return run;
  }

  /** Forgets the run. */
  void finish() {
    RUNS.remove(id);
  }

  /** A new source reader's progress recorder. */
  Emitter emitter() {
    long[] wallClock = new long[buckets];
    emitted.add(wallClock);
    return new Emitter(wallClock);
  }

  void sinkRows(long count) {
    rows.add(count);
  }

  void sinkEnded(long nanos) {
    sinkEnd.accumulateAndGet(nanos, Math::max);
  }

  /** The sink received watermark {@code watermark} at {@code nanos}. */
  void sinkWatermark(long watermark, long nanos) {
    if (watermark == Long.MAX_VALUE) {
      return; // end of input, not event time
    }
    sample(watermark + watermarkDelayMillis, nanos);
  }

  /**
   * Quiver's counting sink (or its caller, {@code --quiver-results caller}) received, at {@code
   * nanos}, result rows of events up to event time {@code dateTime} (the largest {@code dateTime}
   * of a result batch): a sample of {@code nanos} minus the moment the sources had emitted event
   * time {@code dateTime}. Quiver's sink and caller see no watermark, so its rows' own event time
   * stands for the watermark: for a pass-through query a row of event time {@code T} and the
   * watermark {@code T - delay} leave the sources together.
   */
  void resultEventTime(long dateTime, long nanos) {
    sample(dateTime, nanos);
  }

  /** A latency sample: {@code nanos} minus when the sources had emitted event time {@code t}. */
  private void sample(long eventTime, long nanos) {
    long needed = eventTime - baseTimeMillis;
    if (needed < 0) {
      return;
    }
    // The bucket of t itself: a reader has reached it once it emitted an event of that bucket or
    // later (Emitter), which is when it emitted t, or at most one bucket of events earlier. The
    // bucket after t's (rounding up) would drop the samples of a reader's last batch, whose last
    // event is in t's bucket: all of them for a short run of a batch or two per reader.
    // A watermark past the run's event time (Flink's mini-batch assigner sends processing-time
    // watermarks, about 1.7e12 ms) is no sample, and would overflow an int bucket.
    long after = needed / BUCKET_MILLIS;
    if (after >= buckets) {
      return;
    }
    int bucket = (int) after;
    // The last of the readers that have got there: all of them when the sink's input was
    // shuffled (its watermark is the minimum over every reader's); when the sink is fed by one
    // reader through forward edges, readers ahead of it may count, which shortens a sample by at
    // most the readers' skew (a block or two of events, EventSplit).
    long complete = Long.MIN_VALUE;
    for (long[] reader : emitted) {
      long at = reader[bucket];
      if (at != 0) {
        complete = Math.max(complete, at);
      }
    }
    if (complete != Long.MIN_VALUE) {
      latencies.add(nanos - complete);
    }
  }

  long rows() {
    return rows.sum();
  }

  /**
   * Nanoseconds from the first event a source emitted to the sink's end of input (Quiver with
   * {@code --quiver-results caller}: the last result batch received by the caller).
   */
  long elapsedNanos() {
    long first = firstEmit.get();
    long end = sinkEnd.get();
    if (first == Long.MAX_VALUE || end == Long.MIN_VALUE) {
      throw new IllegalStateException("run " + id + " has no first event or no end");
    }
    return end - first;
  }

  /** The latency samples, nanoseconds, sorted. */
  List<Long> latencies() {
    List<Long> sorted = new ArrayList<>(latencies);
    sorted.sort(null);
    return sorted;
  }

  /** One source reader's progress: the wall clock at which it reached each event-time bucket. */
  final class Emitter {
    private final long[] wallClock;
    private int next;

    private Emitter(long[] wallClock) {
      this.wallClock = wallClock;
    }

    /** The reader has emitted events up to event time {@code dateTime} by now ({@code nanos}). */
    void emitted(long dateTime, long nanos) {
      if (next == 0) {
        firstEmit.accumulateAndGet(nanos, Math::min);
      }
      long reached = Math.min((dateTime - baseTimeMillis) / BUCKET_MILLIS, buckets - 1);
      while (next <= reached) {
        wallClock[next++] = nanos;
      }
    }
  }
}
