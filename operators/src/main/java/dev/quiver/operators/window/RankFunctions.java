package dev.quiver.operators.window;

import dev.quiver.plan.window.WindowCall;

/**
 * The ranking and distribution functions over a {@link Region}, one tight loop per partition: they
 * read only partition bounds and peer groups, never a frame.
 *
 * <pre>
 *   ROW_NUMBER = i - start + 1          PERCENT_RANK = (RANK - 1) / (size - 1), 0 for one row
 *   RANK       = peerStart - start + 1  CUME_DIST    = (peerEnd - start) / size
 *   DENSE_RANK = peer groups so far     NTILE(n)     = buckets of size/n rows, the first size%n
 *                                                      of them one row larger
 * </pre>
 */
final class RankFunctions {
  private RankFunctions() {}

  static long[] longs(WindowCall call, Region region) {
    long[] out = new long[region.count];
    for (int p = 0; p < region.partitions(); p++) {
      int from = region.bounds[p];
      int to = region.bounds[p + 1];
      switch (call.function()) {
        case ROW_NUMBER:
          for (int i = from; i < to; i++) {
            out[i] = i - from + 1;
          }
          break;
        case RANK:
          for (int i = from; i < to; i++) {
            out[i] = region.peerStart[i] - from + 1;
          }
          break;
        case DENSE_RANK:
          long rank = 0;
          for (int i = from; i < to; i++) {
            rank += region.peerStart[i] == i ? 1 : 0;
            out[i] = rank;
          }
          break;
        case NTILE:
          ntile(call.parameter(), from, to, out);
          break;
        default:
          throw new IllegalArgumentException("not a ranking function: " + call);
      }
    }
    return out;
  }

  private static void ntile(long buckets, int from, int to, long[] out) {
    long size = to - from;
    long small = size / buckets; // rows per bucket, before the remainder
    long large = small + 1;
    long bigRows = (size % buckets) * large; // rows in the first size % buckets buckets
    for (int i = from; i < to; i++) {
      long k = i - from;
      out[i] = k < bigRows ? k / large + 1 : (size % buckets) + (k - bigRows) / small + 1;
    }
  }

  static double[] doubles(WindowCall call, Region region) {
    double[] out = new double[region.count];
    for (int p = 0; p < region.partitions(); p++) {
      int from = region.bounds[p];
      int to = region.bounds[p + 1];
      double size = to - from;
      switch (call.function()) {
        case PERCENT_RANK:
          for (int i = from; i < to; i++) {
            out[i] = size > 1 ? (region.peerStart[i] - from) / (size - 1) : 0.0;
          }
          break;
        case CUME_DIST:
          for (int i = from; i < to; i++) {
            out[i] = (region.peerEnd[i] - from) / size;
          }
          break;
        default:
          throw new IllegalArgumentException("not a distribution function: " + call);
      }
    }
    return out;
  }
}
