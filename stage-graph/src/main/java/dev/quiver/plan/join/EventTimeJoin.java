package dev.quiver.plan.join;

import java.io.Serializable;
import java.time.Duration;

/**
 * How a join of two streams knows, from event time, when it has seen every row a row can match:
 * what lets it emit and forget rows instead of holding both streams whole. Columns are numbered in
 * each side's own schema; times are TIMESTAMPs (microseconds).
 *
 * <pre>
 *   WINDOW     build #b and probe #p are a pair of the join's keys and each row's window end
 *              (Flink SQL's window join): a window's rows are joined once the watermark passes
 *              its end, as the batch join joins them
 *   INTERVAL   the condition bounds the probe row's time by the build row's:
 *              build.#b + lower <= probe.#p <= build.#b + upper (Flink SQL's interval join);
 *              a build row's matches are emitted once the watermark passes build.#b + upper
 * </pre>
 *
 * For INTERVAL, the join's residual condition still holds the bounds: they are what decides a pair;
 * these copies only decide when rows are complete and when they can be forgotten.
 *
 * @param kind which of the two
 * @param buildColumn the build side's window end (WINDOW) or event time (INTERVAL)
 * @param probeColumn the probe side's window end (WINDOW) or event time (INTERVAL)
 * @param lowerMicros INTERVAL: the lower bound of probe time minus build time; WINDOW: 0
 * @param upperMicros INTERVAL: the upper bound of probe time minus build time; WINDOW: 0
 */
public record EventTimeJoin(
    Kind kind, int buildColumn, int probeColumn, long lowerMicros, long upperMicros)
    implements Serializable {
  /** The two ways a join of two streams bounds its state. */
  public enum Kind {
    WINDOW,
    INTERVAL
  }

  public EventTimeJoin {
    if (buildColumn < 0 || probeColumn < 0) {
      throw new IllegalArgumentException(
          "event-time join columns must be >= 0: build #"
              + buildColumn
              + ", probe #"
              + probeColumn);
    }
    if (kind == Kind.WINDOW && (lowerMicros != 0 || upperMicros != 0)) {
      throw new IllegalArgumentException("a window join has no interval bounds");
    }
    if (lowerMicros > upperMicros) {
      throw new IllegalArgumentException(
          "an interval join's lower bound "
              + lowerMicros
              + " µs is above its upper bound "
              + upperMicros);
    }
  }

  /** A window join on the window ends build {@code #buildEnd} = probe {@code #probeEnd}. */
  public static EventTimeJoin window(int buildEnd, int probeEnd) {
    return new EventTimeJoin(Kind.WINDOW, buildEnd, probeEnd, 0, 0);
  }

  /** An interval join: {@code build.#buildTime + lower <= probe.#probeTime <= ... + upper}. */
  public static EventTimeJoin interval(
      int buildTime, int probeTime, long lowerMicros, long upperMicros) {
    return new EventTimeJoin(Kind.INTERVAL, buildTime, probeTime, lowerMicros, upperMicros);
  }

  /**
   * {@code window end build=#3 probe=#2} or {@code interval probe.#3 in [build.#1 - PT10S, build.#1
   * + PT0S]}.
   */
  @Override
  public String toString() {
    return kind == Kind.WINDOW
        ? "window end build=#" + buildColumn + " probe=#" + probeColumn
        : "interval probe.#"
            + probeColumn
            + " in [build.#"
            + buildColumn
            + offset(lowerMicros)
            + ", build.#"
            + buildColumn
            + offset(upperMicros)
            + "]";
  }

  private static String offset(long micros) {
    Duration duration = Duration.ofNanos(Math.multiplyExact(Math.abs(micros), 1000L));
    return (micros < 0 ? " - " : " + ") + duration;
  }
}
