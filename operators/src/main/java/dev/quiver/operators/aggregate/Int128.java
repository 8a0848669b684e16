package dev.quiver.operators.aggregate;

import java.math.BigInteger;

/**
 * Signed 128-bit integers as (low, high) pairs of longs, the unscaled values of decimal128: the
 * comparisons and bounds that decimal SUM, AVG, MIN and MAX need without allocating.
 */
final class Int128 {
  private static final BigInteger MAX_38 = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
  private static final long MAX_HIGH = MAX_38.shiftRight(64).longValue();
  private static final long MAX_LOW = MAX_38.longValue();
  private static final long MIN_HIGH = MAX_38.negate().shiftRight(64).longValue();
  private static final long MIN_LOW = MAX_38.negate().longValue();

  private Int128() {}

  /** Signed comparison of two 128-bit values: negative, zero or positive. */
  static int compare(long lowA, long highA, long lowB, long highB) {
    return highA != highB ? Long.compare(highA, highB) : Long.compareUnsigned(lowA, lowB);
  }

  /** Whether the value has at most 38 decimal digits, i.e. fits a decimal(38, s). */
  static boolean fits38(long low, long high) {
    return compare(low, high, MAX_LOW, MAX_HIGH) <= 0 && compare(low, high, MIN_LOW, MIN_HIGH) >= 0;
  }

  static BigInteger toBigInteger(long low, long high) {
    return BigInteger.valueOf(high).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(low)));
  }
}
