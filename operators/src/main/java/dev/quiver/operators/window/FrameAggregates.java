package dev.quiver.operators.window;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFunction;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * COUNT, SUM and AVG over frames with prefix sums: one pass builds running sums and counts that
 * restart at each partition, then every row's frame {@code [a, b)} is {@code P[b] - P[a]} (or
 * {@code P[b]} when {@code a} starts the partition), so any frame costs O(1) per row. Integer sums
 * are exact (an overflowing running sum is a NUMERIC_OVERFLOW error, not a wrap), decimal sums are
 * 128-bit; double sums of sliding frames are differences of running sums.
 */
final class FrameAggregates {
  private static final BigInteger MAX_38 = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);

  private FrameAggregates() {}

  static FieldVector compute(
      WindowCall call, Region region, Frames frames, Field result, BufferAllocator allocator) {
    int n = region.count;
    boolean[] starts = region.starts;
    long[] counts = new long[n + 1];
    FieldVector argument =
        call.function() == WindowFunction.COUNT_STAR
            ? null
            : region.rows.getVector(call.argument(0));
    boolean[] present = argument == null ? null : ValueReader.valid(argument, n);
    for (int i = 0; i < n; i++) {
      long base = starts[i] ? 0 : counts[i];
      counts[i + 1] = base + (present == null || present[i] ? 1 : 0);
    }
    long[] frameCounts = new long[n];
    for (int i = 0; i < n; i++) {
      int a = frames.start[i];
      int b = frames.end[i];
      frameCounts[i] = a >= b ? 0 : counts[b] - (starts[a] ? 0 : counts[a]);
    }
    if (call.function() == WindowFunction.COUNT || call.function() == WindowFunction.COUNT_STAR) {
      return ResultVectors.longs(result, frameCounts, null, allocator);
    }
    boolean[] valid = new boolean[n];
    for (int i = 0; i < n; i++) {
      valid[i] = frameCounts[i] > 0;
    }
    ArrowType type = argument.getField().getType();
    boolean average = call.function() == WindowFunction.AVG;
    if (type instanceof ArrowType.Decimal) {
      return decimal(
          call, region, frames, argument, present, frameCounts, valid, result, allocator);
    }
    if (type instanceof ArrowType.FloatingPoint) {
      double[] values = ValueReader.doubles(argument, n);
      double[] sums = new double[n + 1];
      for (int i = 0; i < n; i++) {
        sums[i + 1] = (starts[i] ? 0 : sums[i]) + (present[i] ? values[i] : 0);
      }
      double[] out = new double[n];
      for (int i = 0; i < n; i++) {
        if (valid[i]) {
          int a = frames.start[i];
          double sum = sums[frames.end[i]] - (starts[a] ? 0 : sums[a]);
          out[i] = average ? sum / frameCounts[i] : sum;
        }
      }
      return ResultVectors.doubles(result, out, valid, allocator);
    }
    long[] values = ValueReader.longs(argument, n, argument.getDataBuffer());
    long[] sums = new long[n + 1];
    for (int i = 0; i < n; i++) {
      long value = present[i] ? values[i] : 0;
      sums[i + 1] = starts[i] ? value : addExact(call, sums[i], value);
    }
    long[] out = new long[n];
    double[] means = average ? new double[n] : null;
    for (int i = 0; i < n; i++) {
      if (valid[i]) {
        int a = frames.start[i];
        long sum =
            starts[a] ? sums[frames.end[i]] : subtractExact(call, sums[frames.end[i]], sums[a]);
        if (average) {
          means[i] = (double) sum / frameCounts[i];
        } else {
          out[i] = sum;
        }
      }
    }
    return average
        ? ResultVectors.doubles(result, means, valid, allocator)
        : ResultVectors.longs(result, out, valid, allocator);
  }

  private static FieldVector decimal(
      WindowCall call,
      Region region,
      Frames frames,
      FieldVector argument,
      boolean[] present,
      long[] frameCounts,
      boolean[] valid,
      Field result,
      BufferAllocator allocator) {
    int n = region.count;
    boolean[] starts = region.starts;
    ArrowBuf data = argument.getDataBuffer();
    long[] lows = new long[n + 1];
    long[] highs = new long[n + 1];
    for (int i = 0; i < n; i++) {
      long low = starts[i] ? 0 : lows[i];
      long high = starts[i] ? 0 : highs[i];
      if (present[i]) {
        long addLow = data.getLong(16L * i);
        long sumLow = low + addLow;
        high += data.getLong(16L * i + 8) + (Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0);
        low = sumLow;
      }
      lows[i + 1] = low;
      highs[i + 1] = high;
    }
    long[] outLows = new long[n];
    long[] outHighs = new long[n];
    int scale = ((ArrowType.Decimal) argument.getField().getType()).getScale();
    int resultScale = ((ArrowType.Decimal) result.getType()).getScale();
    boolean average = call.function() == WindowFunction.AVG;
    for (int i = 0; i < n; i++) {
      if (!valid[i]) {
        continue;
      }
      int a = frames.start[i];
      int b = frames.end[i];
      long low = lows[b];
      long high = highs[b];
      if (!starts[a]) {
        long diff = low - lows[a];
        high = high - highs[a] - (Long.compareUnsigned(low, lows[a]) < 0 ? 1 : 0);
        low = diff;
      }
      if (average) {
        long fast = fastMean(low, high, resultScale - scale, frameCounts[i]);
        if (fast != Long.MIN_VALUE) {
          low = fast;
          high = fast >> 63;
        } else {
          // Beyond the long range: exact division needs arbitrary precision (rare).
          BigInteger unscaled = slowMean(low, high, scale, resultScale, frameCounts[i]);
          low = unscaled.longValue();
          high = unscaled.shiftRight(64).longValue();
        }
      } else if (!fits38(low, high)) {
        throw new QuiverException(
            ErrorCode.NUMERIC_OVERFLOW,
            call + " exceeds the 38 digits of DECIMAL(38, " + scale + ")");
      }
      outLows[i] = low;
      outHighs[i] = high;
    }
    return ResultVectors.decimals(result, outLows, outHighs, valid, allocator);
  }

  /**
   * {@code sum * 10^shift / count} rounded HALF_UP as a long, or {@code Long.MIN_VALUE} when the
   * sum or its scaled value does not fit a long.
   */
  private static long fastMean(long low, long high, int shift, long count) {
    if (high != low >> 63 || shift > 6 || Math.abs(low) >= Long.MAX_VALUE / 1_000_000) {
      return Long.MIN_VALUE;
    }
    long scaled = low * LONG_POWERS[shift];
    long quotient = scaled / count;
    long remainder = scaled % count;
    if (2 * Math.abs(remainder) >= count) {
      quotient += Long.signum(scaled);
    }
    return quotient;
  }

  private static BigInteger slowMean(long low, long high, int scale, int resultScale, long count) {
    BigDecimal sum = new BigDecimal(toBigInteger(low, high), scale);
    return sum.divide(BigDecimal.valueOf(count), resultScale, RoundingMode.HALF_UP).unscaledValue();
  }

  private static BigInteger toBigInteger(long low, long high) {
    return BigInteger.valueOf(high).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(low)));
  }

  private static final long[] LONG_POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};
  private static final long MAX_HIGH = MAX_38.shiftRight(64).longValue();
  private static final long MAX_LOW = MAX_38.longValue();
  private static final long MIN_HIGH = MAX_38.negate().shiftRight(64).longValue();
  private static final long MIN_LOW = MAX_38.negate().longValue();

  /** Whether a 128-bit value has at most 38 digits. */
  private static boolean fits38(long low, long high) {
    return compare(low, high, MAX_LOW, MAX_HIGH) <= 0 && compare(low, high, MIN_LOW, MIN_HIGH) >= 0;
  }

  private static int compare(long lowA, long highA, long lowB, long highB) {
    return highA != highB ? Long.compare(highA, highB) : Long.compareUnsigned(lowA, lowB);
  }

  private static long addExact(WindowCall call, long a, long b) {
    long sum = a + b;
    if (((a ^ sum) & (b ^ sum)) < 0) {
      throw overflow(call);
    }
    return sum;
  }

  private static long subtractExact(WindowCall call, long a, long b) {
    long difference = a - b;
    if (((a ^ b) & (a ^ difference)) < 0) {
      throw overflow(call);
    }
    return difference;
  }

  private static QuiverException overflow(WindowCall call) {
    return new QuiverException(ErrorCode.NUMERIC_OVERFLOW, call + " overflows BIGINT");
  }
}
