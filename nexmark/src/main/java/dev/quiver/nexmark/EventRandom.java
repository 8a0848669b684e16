package dev.quiver.nexmark;

/**
 * The random values of one event: a SplitMix64 stream whose start is derived from the
 * configuration's seed and the event number, so that any event can be generated alone (a split
 * starts anywhere, a restored task resumes at any event) and equally by every task. One instance is
 * reused for all events of a generator: {@link #reset} is all an event costs.
 */
final class EventRandom {
  private static final long GAMMA = 0x9e3779b97f4a7c15L;

  private long state;

  /** Starts the stream of event {@code eventNumber} under {@code seed}. */
  void reset(long seed, long eventNumber) {
    // Mixed twice, so that the streams of neighbouring events do not overlap shifted by one draw
    // (as SplitMix64 states one gamma apart would).
    state = mix(seed ^ mix(eventNumber + GAMMA));
  }

  long nextLong() {
    state += GAMMA;
    return mix(state);
  }

  /** A value in {@code [0, bound)} for {@code bound > 0}. */
  int nextInt(int bound) {
    // The high 32 bits scaled to the bound (Lemire's multiply-shift, without the rejection step:
    // a bias below 2^-32 * bound is immaterial here).
    return (int) (((nextLong() >>> 32) * bound) >>> 32);
  }

  /** A value in {@code [0, bound)} for {@code bound > 0}. */
  long nextLong(long bound) {
    if (bound <= Integer.MAX_VALUE) {
      return nextInt((int) bound);
    }
    return Math.floorMod(nextLong(), bound);
  }

  /** A value in {@code [0, 1)}. */
  double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
