package dev.quiver.operators.join;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The bounds of an {@link IntervalJoinOperator} and the filter of its hash joins: a pair passes
 * when {@code lower ≤ probe.t - build.t ≤ upper} (µs, saturated, so extreme times cannot wrap
 * around) and then the residual filter, if any, accepts it. The residual sees only the pairs within
 * the bounds, packed into scratch arrays, so a plan's condition that repeats the bounds evaluates
 * fewer pairs.
 *
 * <p>Also the saturated arithmetic of event times (µs) and how the bounds print.
 *
 * <p>Both time columns are TIMESTAMP (MICROSECOND) without NULLs: the operator drops rows without
 * time before it holds them. Not thread-safe: the scratch arrays are reused by every call.
 */
final class IntervalJoinBounds implements JoinFilter {
  private final int buildTime;
  private final int probeTime;
  private final long lower;
  private final long upper;
  private final JoinFilter residual;
  private int[] positions = new int[0];
  private int[] buildPicked = new int[0];
  private int[] probePicked = new int[0];
  private boolean[] kept = new boolean[0];

  IntervalJoinBounds(int buildTime, int probeTime, long lower, long upper, JoinFilter residual) {
    this.buildTime = buildTime;
    this.probeTime = probeTime;
    this.lower = lower;
    this.upper = upper;
    this.residual = residual;
  }

  @Override
  public void filter(
      VectorSchemaRoot build,
      int[] buildRows,
      VectorSchemaRoot probe,
      int[] probeRows,
      int count,
      boolean[] keep) {
    ArrowBuf buildTimes = build.getVector(buildTime).getDataBuffer();
    ArrowBuf probeTimes = probe.getVector(probeTime).getDataBuffer();
    if (residual == null) {
      for (int i = 0; i < count; i++) {
        keep[i] = within(buildTimes, buildRows[i], probeTimes, probeRows[i]);
      }
      return;
    }
    ensure(count);
    int passed = 0;
    for (int i = 0; i < count; i++) {
      if (within(buildTimes, buildRows[i], probeTimes, probeRows[i])) {
        positions[passed] = i;
        buildPicked[passed] = buildRows[i];
        probePicked[passed] = probeRows[i];
        kept[passed] = false;
        passed++;
      }
    }
    if (passed == 0) {
      return;
    }
    residual.filter(build, buildPicked, probe, probePicked, passed, kept);
    for (int i = 0; i < passed; i++) {
      if (kept[i]) {
        keep[positions[i]] = true;
      }
    }
  }

  private boolean within(ArrowBuf buildTimes, int buildRow, ArrowBuf probeTimes, int probeRow) {
    long difference =
        minus(
            probeTimes.getLong((long) probeRow * Long.BYTES),
            buildTimes.getLong((long) buildRow * Long.BYTES));
    return difference >= lower && difference <= upper;
  }

  private void ensure(int count) {
    if (positions.length < count) {
      positions = new int[count];
      buildPicked = new int[count];
      probePicked = new int[count];
      kept = new boolean[count];
    }
  }

  /** The residual's text, or the bounds' when there is none. */
  @Override
  public String toString() {
    return residual != null ? residual.toString() : describe();
  }

  /** {@code probe.#3 in [build.#1 - 10 s, build.#1 + 0 s]}. */
  String describe() {
    String time = "build.#" + buildTime;
    return "probe.#"
        + probeTime
        + " in ["
        + time
        + offset(lower)
        + ", "
        + time
        + offset(upper)
        + "]";
  }

  /** {@code " - 10 s"}, {@code " + 250 ms"}, {@code " + 7 µs"}. */
  static String offset(long micros) {
    String sign = micros < 0 ? " - " : " + ";
    long size = micros < 0 ? -micros : micros; // Long.MIN_VALUE stays negative: printed unsigned
    if (Long.remainderUnsigned(size, 1_000_000) == 0) {
      return sign + Long.toUnsignedString(Long.divideUnsigned(size, 1_000_000)) + " s";
    }
    if (Long.remainderUnsigned(size, 1000) == 0) {
      return sign + Long.toUnsignedString(Long.divideUnsigned(size, 1000)) + " ms";
    }
    return sign + Long.toUnsignedString(size) + " µs";
  }

  /** µs of {@code millis} ms, saturated. */
  static long micros(long millis) {
    if (millis >= Long.MAX_VALUE / 1000) {
      return Long.MAX_VALUE;
    }
    return millis <= Long.MIN_VALUE / 1000 ? Long.MIN_VALUE : millis * 1000;
  }

  /** {@code a + b}, saturated. */
  static long plus(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
  }

  /** {@code a - b}, saturated. */
  static long minus(long a, long b) {
    long difference = a - b;
    return ((a ^ b) & (a ^ difference)) < 0
        ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE)
        : difference;
  }
}
