package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code SUM} and {@code AVG} of decimal128(p, s): an exact 128-bit sum of unscaled values (two
 * longs per group) and a count of non-null values. SUM yields decimal(38, s); AVG yields
 * decimal(38, max(s, 6)), {@code sum / count} rounded HALF_UP. A sum beyond the 128-bit range, or a
 * result beyond 38 digits, is a {@link ErrorCode#NUMERIC_OVERFLOW} naming the call. States: SUM →
 * sum decimal(38, s); AVG → sum, count.
 */
final class DecimalSumAccumulator implements Accumulator {
  private final String call;
  private final int scale;
  private final boolean average;
  private final Reservation reservation;
  private long[] lows = new long[0];
  private long[] highs = new long[0];
  private long[] counts = new long[0];
  private long[] fast = new long[0];
  private boolean large;

  DecimalSumAccumulator(String call, int scale, boolean average, Reservation reservation) {
    this.call = call;
    this.scale = scale;
    this.average = average;
    this.reservation = reservation;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > lows.length) {
      int capacity = Reservation.grownCapacity(lows.length, groups);
      reservation.reserve((long) (capacity - lows.length) * 4 * Long.BYTES);
      lows = Arrays.copyOf(lows, capacity);
      fast = Arrays.copyOf(fast, capacity);
      highs = Arrays.copyOf(highs, capacity);
      counts = Arrays.copyOf(counts, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    add(argument, null, groupIds, rows);
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    add(states.get(0), average ? states.get(1).getDataBuffer() : null, groupIds, rows);
  }

  private void add(FieldVector values, ArrowBuf valueCounts, int[] groupIds, int rows) {
    int from = large ? 0 : addFast(values, valueCounts, groupIds, rows);
    if (from < rows) {
      foldAll();
      addExact(values, valueCounts, groupIds, from, rows);
    }
  }

  /**
   * The fast path: values that fit a long are added to a long per group, {@code fast}, with a
   * {@code Math.addExact}-style overflow test; the exact sum of a group is always {@code (lows,
   * highs) + fast}. On long overflow (or for a value beyond a long) the group's long is folded into
   * its 128-bit sum. While every 128-bit sum stays below 2^126 in magnitude, no prefix sum can
   * leave the 128-bit range between folds, so the result and the overflow errors are those of
   * adding every row in 128 bits. Once a 128-bit sum reaches 2^126 ({@link #large}), this stops and
   * returns the first row not yet added; from then on every row goes through {@link #addExact}.
   */
  private int addFast(FieldVector values, ArrowBuf valueCounts, int[] groupIds, int rows) {
    ArrowBuf data = values.getDataBuffer();
    ArrowBuf validity = Columns.validity(values);
    // Values of decimal(p <= 18) are below 10^18 < 2^63: their high words need not be read.
    boolean fitsLong =
        values instanceof DecimalVector && ((DecimalVector) values).getPrecision() <= 18;
    long[] fast = this.fast;
    long[] counts = this.counts;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        counts[group] += valueCounts == null ? 1 : valueCounts.getLong((long) i << 3);
        long value = data.getLong((long) i << 4);
        if (!fitsLong) {
          long high = data.getLong(((long) i << 4) + 8);
          if (high != value >> 63) {
            fold(group);
            addWide(group, value, high);
            if (large) {
              return i + 1;
            }
            continue;
          }
        }
        long sum = fast[group];
        long result = sum + value;
        if (((sum ^ result) & (value ^ result)) < 0) {
          fold(group);
          fast[group] = value;
          if (large) {
            return i + 1;
          }
        } else {
          fast[group] = result;
        }
      }
    }
    return rows;
  }

  /** Adds every row in 128 bits, checking each step for overflow. */
  private void addExact(
      FieldVector values, ArrowBuf valueCounts, int[] groupIds, int from, int rows) {
    ArrowBuf data = values.getDataBuffer();
    ArrowBuf validity = Columns.validity(values);
    long[] counts = this.counts;
    for (int i = from; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        addWide(group, data.getLong((long) i << 4), data.getLong(((long) i << 4) + 8));
        counts[group] += valueCounts == null ? 1 : valueCounts.getLong((long) i << 3);
      }
    }
  }

  /** Adds a 128-bit value to the 128-bit sum of {@code group}; overflow is an error. */
  private void addWide(int group, long low, long high) {
    long sumLow = lows[group];
    long sumHigh = highs[group];
    long resultLow = sumLow + low;
    long resultHigh = sumHigh + high + (Long.compareUnsigned(resultLow, sumLow) < 0 ? 1 : 0);
    // Signed overflow: both operands have one sign and the result the other.
    if (((sumHigh ^ resultHigh) & (high ^ resultHigh)) < 0) {
      throw overflow();
    }
    lows[group] = resultLow;
    highs[group] = resultHigh;
    // |sum| >= 2^126 when the two top bits differ: the long fast path is no longer safe.
    if ((resultHigh ^ (resultHigh << 1)) < 0) {
      large = true;
    }
  }

  /** Moves the long sum of {@code group} into its 128-bit sum. */
  private void fold(int group) {
    long value = fast[group];
    if (value != 0) {
      fast[group] = 0;
      addWide(group, value, value >> 63);
    }
  }

  /** Moves every group's long sum into its 128-bit sum, before the first 128-bit adds. */
  private void foldAll() {
    fold(0, fast.length);
  }

  /**
   * Moves the long sums of groups {@code from .. from + count - 1} into their 128-bit sums, before
   * those groups are written: only theirs, since output comes a batch of groups at a time (folding
   * every group for each batch made writing n groups cost n^2 / batch size).
   */
  private void fold(int from, int count) {
    long[] fast = this.fast;
    for (int group = from; group < from + count; group++) {
      if (fast[group] != 0) {
        fold(group);
      }
    }
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    fold(from, count);
    writeSums(from, count, out.get(0));
    if (average) {
      FieldVector counted = out.get(1);
      Columns.allocate(counted, count);
      for (int i = 0; i < count; i++) {
        Columns.setInt(counted, Long.BYTES, i, counts[from + i]);
      }
      counted.setValueCount(count);
    }
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    fold(from, count);
    if (average) {
      ((DecimalVector) out).allocateNew(count);
      for (int i = 0; i < count; i++) {
        writeMean(from + i, (DecimalVector) out, i);
      }
      out.setValueCount(count);
    } else {
      writeSums(from, count, out);
    }
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    long[] fast = this.fast;
    for (int i = 0; i < count; i++) {
      if (fast[groupIds[i]] != 0) {
        fold(groupIds[i]);
      }
    }
    if (average) {
      ((DecimalVector) out).allocateNew(count);
      for (int i = 0; i < count; i++) {
        writeMean(groupIds[i], (DecimalVector) out, i);
      }
    } else {
      Columns.allocate(out, count);
      for (int i = 0; i < count; i++) {
        writeSum(groupIds[i], out, i);
      }
    }
    out.setValueCount(count);
  }

  /** AVG of {@code group} (its long sum folded) at {@code index} of {@code out}. */
  private void writeMean(int group, DecimalVector out, int index) {
    if (counts[group] > 0) {
      // Once per group, not per row: exact division needs arbitrary precision.
      BigDecimal sum = new BigDecimal(Int128.toBigInteger(lows[group], highs[group]), scale);
      BigDecimal mean =
          sum.divide(BigDecimal.valueOf(counts[group]), out.getScale(), RoundingMode.HALF_UP);
      if (mean.precision() > out.getPrecision()) {
        throw overflow();
      }
      out.set(index, mean);
    }
  }

  private void writeSums(int from, int count, FieldVector out) {
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      writeSum(from + i, out, i);
    }
    out.setValueCount(count);
  }

  /** The sum of {@code group} (its long sum folded) at {@code index} of {@code out}. */
  private void writeSum(int group, FieldVector out, int index) {
    if (counts[group] > 0) {
      if (!Int128.fits38(lows[group], highs[group])) {
        throw overflow();
      }
      Columns.setDecimal(out, index, lows[group], highs[group]);
    }
  }

  private QuiverException overflow() {
    return new QuiverException(
        ErrorCode.NUMERIC_OVERFLOW, call + " exceeds the 38 digits of DECIMAL(38, " + scale + ")");
  }
}
