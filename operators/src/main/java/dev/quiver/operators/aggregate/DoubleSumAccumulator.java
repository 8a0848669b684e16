package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code SUM} and {@code AVG} of float32 and float64: a float64 sum (IEEE, in input order) and a
 * count of non-null values per group. SUM yields the sum (NULL without values), AVG {@code sum /
 * count}. States: SUM → sum; AVG → sum, count.
 */
final class DoubleSumAccumulator implements Accumulator {
  private final boolean average;
  private final Reservation reservation;
  private final Scratch scratch;
  private double[] sums = new double[0];
  private long[] counts = new long[0];

  DoubleSumAccumulator(boolean average, Reservation reservation, Scratch scratch) {
    this.average = average;
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > sums.length) {
      int capacity = Reservation.grownCapacity(sums.length, groups);
      reservation.reserve((long) (capacity - sums.length) * (Double.BYTES + Long.BYTES));
      sums = Arrays.copyOf(sums, capacity);
      counts = Arrays.copyOf(counts, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    double[] values = scratch.doubles(rows);
    Columns.widenFloats(argument, rows, values);
    add(values, Columns.validity(argument), null, groupIds, rows);
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    FieldVector sum = states.get(0);
    double[] values = scratch.doubles(rows);
    Columns.widenFloats(sum, rows, values);
    add(
        values,
        Columns.validity(sum),
        average ? states.get(1).getDataBuffer() : null,
        groupIds,
        rows);
  }

  private void add(
      double[] values, ArrowBuf validity, ArrowBuf valueCounts, int[] groupIds, int rows) {
    double[] sums = this.sums;
    long[] counts = this.counts;
    if (validity == null && valueCounts == null) {
      for (int i = 0; i < rows; i++) {
        int group = groupIds[i];
        sums[group] += values[i];
        counts[group]++;
      }
      return;
    }
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        sums[group] += values[i];
        counts[group] += valueCounts == null ? 1 : valueCounts.getLong((long) i << 3);
      }
    }
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    write(from, count, out.get(0), false);
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
    write(from, count, out, average);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    ArrowBuf data = out.getDataBuffer();
    for (int i = 0; i < count; i++) {
      int group = groupIds[i];
      long n = counts[group];
      if (n > 0) {
        data.setDouble((long) i << 3, average ? sums[group] / n : sums[group]);
        BitVectorHelper.setBit(out.getValidityBuffer(), i);
      }
    }
    out.setValueCount(count);
  }

  private void write(int from, int count, FieldVector out, boolean mean) {
    Columns.allocate(out, count);
    ArrowBuf data = out.getDataBuffer();
    for (int i = 0; i < count; i++) {
      long n = counts[from + i];
      if (n > 0) {
        data.setDouble((long) i << 3, mean ? sums[from + i] / n : sums[from + i]);
        BitVectorHelper.setBit(out.getValidityBuffer(), i);
      }
    }
    out.setValueCount(count);
  }
}
