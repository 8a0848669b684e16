package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code SUM} and {@code AVG} of signed integers: an exact int64 sum and a count of non-null values
 * per group. SUM yields the int64 sum (NULL without values); AVG the float64 {@code sum / count}.
 * An int64 overflow of a sum is a {@link ErrorCode#NUMERIC_OVERFLOW} naming the call. States: SUM →
 * sum; AVG → sum, count.
 */
final class LongSumAccumulator implements Accumulator {
  private final String call;
  private final boolean average;
  private final Reservation reservation;
  private final Scratch scratch;
  private long[] sums = new long[0];
  private long[] counts = new long[0];

  LongSumAccumulator(String call, boolean average, Reservation reservation, Scratch scratch) {
    this.call = call;
    this.average = average;
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > sums.length) {
      int capacity = Reservation.grownCapacity(sums.length, groups);
      reservation.reserve((long) (capacity - sums.length) * 2 * Long.BYTES);
      sums = Arrays.copyOf(sums, capacity);
      counts = Arrays.copyOf(counts, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    long[] values = scratch.longs(rows);
    Columns.widenInts(argument, rows, values);
    add(values, Columns.validity(argument), null, groupIds, rows);
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    FieldVector sum = states.get(0);
    long[] values = scratch.longs(rows);
    Columns.widenInts(sum, rows, values);
    add(
        values,
        Columns.validity(sum),
        average ? states.get(1).getDataBuffer() : null,
        groupIds,
        rows);
  }

  /** Adds the set values; each counts 1, or its entry of {@code valueCounts} when given. */
  private void add(
      long[] values, ArrowBuf validity, ArrowBuf valueCounts, int[] groupIds, int rows) {
    long[] sums = this.sums;
    long[] counts = this.counts;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        long sum = sums[group];
        long value = values[i];
        long result = sum + value;
        if (((sum ^ result) & (value ^ result)) < 0) {
          throw new QuiverException(
              ErrorCode.NUMERIC_OVERFLOW,
              call + " overflows the 64-bit integer range; cast its argument to DECIMAL(38, 0)");
        }
        sums[group] = result;
        counts[group] += valueCounts == null ? 1 : valueCounts.getLong((long) i << 3);
      }
    }
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
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
    if (!average) {
      writeSums(from, count, out);
      return;
    }
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      writeMean(from + i, out, i);
    }
    out.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    if (average) {
      for (int i = 0; i < count; i++) {
        writeMean(groupIds[i], out, i);
      }
    } else {
      for (int i = 0; i < count; i++) {
        int group = groupIds[i];
        if (counts[group] > 0) {
          Columns.setInt(out, Long.BYTES, i, sums[group]);
        }
      }
    }
    out.setValueCount(count);
  }

  /** AVG of {@code group} at {@code index} of {@code out}, NULL without values. */
  private void writeMean(int group, FieldVector out, int index) {
    long n = counts[group];
    if (n > 0) {
      out.getDataBuffer().setDouble((long) index << 3, (double) sums[group] / n);
      BitVectorHelper.setBit(out.getValidityBuffer(), index);
    }
  }

  private void writeSums(int from, int count, FieldVector out) {
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      if (counts[from + i] > 0) {
        Columns.setInt(out, Long.BYTES, i, sums[from + i]);
      }
    }
    out.setValueCount(count);
  }
}
