package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code VAR_SAMP}, {@code VAR_POP}, {@code STDDEV_SAMP} and {@code STDDEV_POP} of ints, floats and
 * decimals (converted to float64 first, as DuckDB does). Per group: the count {@code n}, the mean
 * and {@code m2}, the sum of squared deviations from the mean, updated with Welford's algorithm
 * (numerically stable, unlike a sum of squares minus a squared sum).
 *
 * <p>Partial states are (n, mean, m2) and merge exactly as Chan et al.'s parallel formula says:
 *
 * <pre>
 *   n = na + nb    delta = mean_b - mean_a
 *   mean = mean_a + delta * nb / n
 *   m2 = m2_a + m2_b + delta² * na * nb / n
 * </pre>
 *
 * Results: var_samp = m2 / (n - 1) for n ≥ 2, var_pop = m2 / n for n ≥ 1, NULL otherwise; the
 * standard deviations are their square roots.
 */
final class VarianceAccumulator implements Accumulator {
  private final boolean sample;
  private final boolean root;
  private final int decimalScale; // -1 unless the argument is a decimal
  private final Reservation reservation;
  private final Scratch scratch;
  private long[] counts = new long[0];
  private double[] means = new double[0];
  private double[] m2s = new double[0];

  VarianceAccumulator(
      boolean sample, boolean root, int decimalScale, Reservation reservation, Scratch scratch) {
    this.sample = sample;
    this.root = root;
    this.decimalScale = decimalScale;
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > counts.length) {
      int capacity = Reservation.grownCapacity(counts.length, groups);
      reservation.reserve((long) (capacity - counts.length) * (Long.BYTES + 2 * Double.BYTES));
      counts = Arrays.copyOf(counts, capacity);
      means = Arrays.copyOf(means, capacity);
      m2s = Arrays.copyOf(m2s, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    double[] values = scratch.doubles(rows);
    Columns.toDoubles(argument, rows, decimalScale, scratch.longs(rows), values);
    ArrowBuf validity = Columns.validity(argument);
    long[] counts = this.counts;
    double[] means = this.means;
    double[] m2s = this.m2s;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        double x = values[i];
        long n = ++counts[group];
        double delta = x - means[group];
        double mean = means[group] + delta / n;
        means[group] = mean;
        m2s[group] += delta * (x - mean);
      }
    }
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    ArrowBuf countData = states.get(0).getDataBuffer();
    ArrowBuf meanData = states.get(1).getDataBuffer();
    ArrowBuf m2Data = states.get(2).getDataBuffer();
    long[] counts = this.counts;
    double[] means = this.means;
    double[] m2s = this.m2s;
    for (int i = 0; i < rows; i++) {
      long offset = (long) i << 3;
      long nb = countData.getLong(offset);
      if (nb == 0) {
        continue;
      }
      int group = groupIds[i];
      long na = counts[group];
      double meanB = meanData.getDouble(offset);
      double m2B = m2Data.getDouble(offset);
      if (na == 0) {
        counts[group] = nb;
        means[group] = meanB;
        m2s[group] = m2B;
        continue;
      }
      long n = na + nb;
      double delta = meanB - means[group];
      means[group] += delta * ((double) nb / n);
      m2s[group] += m2B + delta * delta * ((double) na * nb / n);
      counts[group] = n;
    }
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    FieldVector countOut = out.get(0);
    FieldVector meanOut = out.get(1);
    FieldVector m2Out = out.get(2);
    Columns.allocate(countOut, count);
    Columns.allocate(meanOut, count);
    Columns.allocate(m2Out, count);
    for (int i = 0; i < count; i++) {
      Columns.setInt(countOut, Long.BYTES, i, counts[from + i]);
      Columns.setDouble(meanOut, i, means[from + i]);
      Columns.setDouble(m2Out, i, m2s[from + i]);
    }
    countOut.setValueCount(count);
    meanOut.setValueCount(count);
    m2Out.setValueCount(count);
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      write(from + i, out, i);
    }
    out.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      write(groupIds[i], out, i);
    }
    out.setValueCount(count);
  }

  /** The result of {@code group} at {@code index} of {@code out}, NULL below its minimum count. */
  private void write(int group, FieldVector out, int index) {
    long n = counts[group];
    if (n >= (sample ? 2 : 1)) {
      // m2 is a sum of non-negative terms; rounding can leave a tiny negative, never a NaN root.
      double variance = Math.max(0.0, m2s[group]) / (sample ? n - 1 : n);
      out.getDataBuffer().setDouble((long) index << 3, root ? Math.sqrt(variance) : variance);
      BitVectorHelper.setBit(out.getValidityBuffer(), index);
    }
  }
}
