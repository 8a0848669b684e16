package dev.quiver.operators.expr;

import java.math.BigInteger;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A mutable signed 128-bit integer as two longs: the unscaled value of a decimal128. Kernels keep
 * one or two instances per compiled node (never one per row) and compute in place; operations
 * return false on overflow instead of throwing, so the caller decides between an error and the
 * {@code BigDecimal} slow path.
 *
 * <p>Arrow stores a decimal128 as 16 little-endian bytes: the low word at offset 0, the high word
 * at offset 8 ({@link #load}, {@link #store}).
 */
public final class Int128 {
  /** {@code 10^k} for k in [0, 38], high and low words. */
  static final long[] POW10_HI = new long[39];

  static final long[] POW10_LO = new long[39];

  static {
    for (int k = 0; k <= 38; k++) {
      BigInteger power = BigInteger.TEN.pow(k);
      POW10_LO[k] = power.longValue();
      POW10_HI[k] = power.shiftRight(64).longValue();
    }
  }

  public long hi;
  public long lo;

  void set(long high, long low) {
    this.hi = high;
    this.lo = low;
  }

  void setLong(long value) {
    this.hi = value >> 63;
    this.lo = value;
  }

  public void load(ArrowBuf buffer, int slot) {
    long at = (long) slot << 4;
    lo = buffer.getLong(at);
    hi = buffer.getLong(at + 8);
  }

  public void store(ArrowBuf buffer, int slot) {
    long at = (long) slot << 4;
    buffer.setLong(at, lo);
    buffer.setLong(at + 8, hi);
  }

  boolean fitsLong() {
    return hi == lo >> 63;
  }

  public boolean isZero() {
    return (hi | lo) == 0;
  }

  /** this = −this; false if this is −2^127, which has no negation. */
  boolean negate() {
    if (hi == Long.MIN_VALUE && lo == 0) {
      return false;
    }
    lo = -lo;
    hi = ~hi + (lo == 0 ? 1 : 0);
    return true;
  }

  /** this += other; false on overflow. */
  boolean add(Int128 other) {
    long low = lo + other.lo;
    long carry = Long.compareUnsigned(low, lo) < 0 ? 1 : 0;
    long high = hi + other.hi + carry;
    boolean overflow = ((hi ^ high) & (other.hi ^ high)) < 0;
    hi = high;
    lo = low;
    return !overflow;
  }

  /** this += value; false on overflow. */
  public boolean add(long value) {
    long low = lo + value;
    long carry = Long.compareUnsigned(low, lo) < 0 ? 1 : 0;
    if (value < 0) {
      carry -= 1; // adding the sign extension, all ones in the high word
    }
    long high = hi + carry;
    boolean overflow = value >= 0 ? high < hi : high > hi;
    hi = high;
    lo = low;
    return !overflow;
  }

  /**
   * this /= 10^k, truncated toward zero, for k in [0, 38]; returns whether a nonzero remainder was
   * dropped (so that callers can round down or up). Divides the magnitude nine digits at a time in
   * 32-bit limbs, without allocating.
   */
  public boolean divideByPowerOfTen(int k) {
    if (k == 0) {
      return false;
    }
    if (fitsLong()) {
      long value = lo;
      if (k > 18) {
        setLong(0);
        return value != 0;
      }
      long power = POW10_LO[k];
      setLong(value / power);
      return value % power != 0;
    }
    boolean negative = hi < 0;
    if (negative) {
      negate(); // -2^127 keeps its bits, which read unsigned are its magnitude 2^127
    }
    boolean inexact = false;
    while (k > 0) {
      int step = Math.min(k, 9);
      inexact |= divideMagnitude((int) POW10_LO[step]) != 0;
      k -= step;
    }
    if (negative) {
      negate();
    }
    return inexact;
  }

  /** Unsigned this /= divisor for 0 < divisor < 2^31; returns the remainder. */
  private long divideMagnitude(int divisor) {
    long t = hi >>> 32;
    long q3 = t / divisor;
    long r = t % divisor;
    t = (r << 32) | (hi & 0xFFFFFFFFL);
    long q2 = t / divisor;
    r = t % divisor;
    t = (r << 32) | (lo >>> 32);
    long q1 = t / divisor;
    r = t % divisor;
    t = (r << 32) | (lo & 0xFFFFFFFFL);
    long q0 = t / divisor;
    r = t % divisor;
    hi = (q3 << 32) | q2;
    lo = (q1 << 32) | q0;
    return r;
  }

  /** this *= 10^k for k in [0, 38]; false on overflow (this is then unspecified). */
  public boolean scaleUp(int k) {
    if (k == 0) {
      return true;
    }
    boolean negative = hi < 0;
    if (negative && !negate()) {
      return false;
    }
    while (k > 0) {
      int step = Math.min(k, 18);
      if (!multiplyMagnitude(POW10_LO[step])) {
        return false;
      }
      k -= step;
    }
    return !negative || negate();
  }

  /** this *= factor for this in [0, 2^127) and factor in (0, 2^63); false on overflow. */
  private boolean multiplyMagnitude(long factor) {
    long low = lo * factor;
    long carry = unsignedMultiplyHigh(lo, factor);
    if (Math.multiplyHigh(hi, factor) != 0) {
      return false;
    }
    long high = hi * factor;
    if (high < 0) {
      return false;
    }
    high += carry;
    if (high < 0) {
      return false;
    }
    hi = high;
    lo = low;
    return true;
  }

  /** Whether |this| < 10^precision. */
  boolean fitsPrecision(int precision) {
    long high = hi;
    long low = lo;
    if (high < 0) {
      low = -low;
      high = ~high + (low == 0 ? 1 : 0);
      if (high < 0) {
        return false;
      }
    }
    long limit = POW10_HI[precision];
    return high < limit || high == limit && Long.compareUnsigned(low, POW10_LO[precision]) < 0;
  }

  /** Signed comparison of two 128-bit values. */
  public static int compare(long aHigh, long aLow, long bHigh, long bLow) {
    int c = Long.compare(aHigh, bHigh);
    return c != 0 ? c : Long.compareUnsigned(aLow, bLow);
  }

  int compareTo(Int128 other) {
    return compare(hi, lo, other.hi, other.lo);
  }

  static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }

  BigInteger toBigInteger() {
    return toBigInteger(hi, lo);
  }

  static BigInteger toBigInteger(long high, long low) {
    if (high == low >> 63) {
      return BigInteger.valueOf(low);
    }
    return BigInteger.valueOf(high)
        .shiftLeft(64)
        .add(BigInteger.valueOf(low >>> 1).shiftLeft(1).add(BigInteger.valueOf(low & 1)));
  }

  /** Sets this to {@code value}; false if it does not fit 128 bits. */
  boolean set(BigInteger value) {
    if (value.bitLength() > 127) {
      return false;
    }
    lo = value.longValue();
    hi = value.shiftRight(64).longValue();
    return true;
  }

  @Override
  public String toString() {
    return toBigInteger().toString();
  }
}
