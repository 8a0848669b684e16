package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;

/**
 * {@code MEDIAN}, {@code PERCENTILE_CONT} and {@code PERCENTILE_DISC}: holistic, so every non-null
 * value of every group is kept, appended with its group id to growable primitive arrays (ints,
 * dates and timestamps widened to {@code long}, floats to {@code double}), reserved before each
 * batch is folded. At the end the values are ordered by group (a counting sort), each group's
 * values sorted, and the percentile read off:
 *
 * <pre>
 *   cont(f): position f·(n-1) between sorted values lo and hi: v[lo] + (v[hi] - v[lo])·(pos - lo)
 *   disc(f): v[max(⌈f·n⌉ - 1, 0)]            (PostgreSQL's and DuckDB's definitions)
 * </pre>
 *
 * A DECIMAL argument: MEDIAN and PERCENTILE_CONT interpolate its values as doubles (unscaled ÷
 * 10^scale, a DOUBLE result as in PostgreSQL); PERCENTILE_DISC keeps the unscaled values as longs
 * (the plan allows it up to 18 digits) and returns one of them in the argument's type.
 *
 * <p>There is no partial state: a plan runs it SINGLE, after a hash repartition on the group keys.
 */
final class QuantileAccumulator implements Accumulator {
  private final boolean continuous;
  private final double fraction;
  private final boolean floats; // values kept as doubles, else as longs
  private final int decimalScale; // the argument's scale if it is a DECIMAL, else -1
  private final Reservation reservation;
  private final Scratch scratch;
  private int groups;
  private int count;
  private int[] groupOf = new int[0];
  private long[] longs = new long[0];
  private double[] doubles = new double[0];
  private int[] starts; // after sorting: group g's values are [starts[g], starts[g + 1])

  QuantileAccumulator(
      boolean continuous,
      double fraction,
      boolean floats,
      int decimalScale,
      Reservation reservation,
      Scratch scratch) {
    this.continuous = continuous;
    this.fraction = fraction;
    this.decimalScale = decimalScale;
    this.floats = floats || (decimalScale >= 0 && continuous);
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int groups) {
    this.groups = Math.max(this.groups, groups);
  }

  @Override
  public void reserveValues(FieldVector values, int rows) {
    int needed = count + rows;
    if (needed > groupOf.length) {
      int capacity = Reservation.grownCapacity(groupOf.length, needed);
      // The values and their group ids, and the sorted copy writeFinal makes.
      reservation.reserve((long) (capacity - groupOf.length) * (Integer.BYTES + 2 * Long.BYTES));
      groupOf = Arrays.copyOf(groupOf, capacity);
      if (floats) {
        doubles = Arrays.copyOf(doubles, capacity);
      } else {
        longs = Arrays.copyOf(longs, capacity);
      }
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    starts = null;
    ArrowBuf validity = Columns.validity(argument);
    int n = count;
    if (floats) {
      double[] values = scratch.doubles(rows);
      if (decimalScale >= 0) {
        Columns.toDoubles(argument, rows, decimalScale, null, values);
      } else {
        Columns.widenFloats(argument, rows, values);
      }
      for (int i = 0; i < rows; i++) {
        if (validity == null || Columns.isSet(validity, i)) {
          groupOf[n] = groupIds[i];
          doubles[n++] = values[i];
        }
      }
    } else {
      long[] values = scratch.longs(rows);
      if (decimalScale >= 0) {
        ArrowBuf data = argument.getDataBuffer();
        for (int i = 0; i < rows; i++) {
          values[i] = data.getLong((long) i << 4); // the low word: at most 18 digits
        }
      } else {
        Columns.widenInts(argument, rows, values);
      }
      for (int i = 0; i < rows; i++) {
        if (validity == null || Columns.isSet(validity, i)) {
          groupOf[n] = groupIds[i];
          longs[n++] = values[i];
        }
      }
    }
    count = n;
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    throw new IllegalStateException("percentiles have no partial state");
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    throw new IllegalStateException("percentiles have no partial state");
  }

  @Override
  public void writeFinal(int from, int outCount, FieldVector out) {
    if (starts == null) {
      sortByGroup();
    }
    Columns.allocate(out, outCount);
    int width = floats || continuous || decimalScale >= 0 ? 0 : Columns.width(out);
    for (int i = 0; i < outCount; i++) {
      int group = from + i;
      int start = starts[group];
      int n = starts[group + 1] - start;
      if (n == 0) {
        continue;
      }
      if (continuous) {
        double position = fraction * (n - 1);
        int lo = (int) Math.floor(position);
        int hi = (int) Math.ceil(position);
        double low = value(start + lo);
        double high = value(start + hi);
        Columns.setDouble(out, i, lo == hi ? low : low + (high - low) * (position - lo));
      } else {
        int index = Math.max((int) Math.ceil(fraction * n) - 1, 0);
        if (floats) {
          double value = doubles[start + index];
          if (out instanceof Float4Vector) {
            ((Float4Vector) out).set(i, (float) value);
          } else {
            Columns.setDouble(out, i, value);
          }
        } else if (decimalScale >= 0) {
          long value = longs[start + index];
          Columns.setDecimal(out, i, value, value >> 63);
        } else {
          Columns.setInt(out, width, i, longs[start + index]);
        }
      }
    }
    out.setValueCount(outCount);
  }

  private double value(int index) {
    return floats ? doubles[index] : longs[index];
  }

  /** Orders the values by group (stable counting sort), then sorts each group's values. */
  private void sortByGroup() {
    starts = new int[groups + 1];
    for (int i = 0; i < count; i++) {
      starts[groupOf[i] + 1]++;
    }
    for (int g = 0; g < groups; g++) {
      starts[g + 1] += starts[g];
    }
    int[] cursor = Arrays.copyOf(starts, groups);
    if (floats) {
      double[] sorted = new double[Math.max(count, 1)];
      for (int i = 0; i < count; i++) {
        sorted[cursor[groupOf[i]]++] = doubles[i];
      }
      for (int g = 0; g < groups; g++) {
        Arrays.sort(sorted, starts[g], starts[g + 1]);
      }
      doubles = sorted;
    } else {
      long[] sorted = new long[Math.max(count, 1)];
      for (int i = 0; i < count; i++) {
        sorted[cursor[groupOf[i]]++] = longs[i];
      }
      for (int g = 0; g < groups; g++) {
        Arrays.sort(sorted, starts[g], starts[g + 1]);
      }
      longs = sorted;
    }
    for (int g = 0; g < groups; g++) {
      Arrays.fill(groupOf, starts[g], starts[g + 1], g); // the values' groups, in their new order
    }
  }
}
