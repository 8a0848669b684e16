package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;

/**
 * {@code MIN} and {@code MAX} of float32 and float64 in the total order of {@link Double#compare}:
 * {@code -0.0 < 0.0} and NaN above every other value (as in PostgreSQL and Spark). The state is the
 * value itself, in the argument's type.
 */
final class DoubleMinMaxAccumulator implements Accumulator {
  private final boolean max;
  private final Reservation reservation;
  private final Scratch scratch;
  private double[] values = new double[0];
  private boolean[] seen = new boolean[0];

  DoubleMinMaxAccumulator(boolean max, Reservation reservation, Scratch scratch) {
    this.max = max;
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > values.length) {
      int old = values.length;
      int capacity = Reservation.grownCapacity(old, groups);
      reservation.reserve((long) (capacity - old) * (Double.BYTES + 1));
      values = Arrays.copyOf(values, capacity);
      // The identities of the order: nothing is below -Infinity, nothing above NaN.
      Arrays.fill(values, old, capacity, max ? Double.NEGATIVE_INFINITY : Double.NaN);
      seen = Arrays.copyOf(seen, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    double[] input = scratch.doubles(rows);
    Columns.widenFloats(argument, rows, input);
    ArrowBuf validity = Columns.validity(argument);
    double[] values = this.values;
    boolean[] seen = this.seen;
    int sign = max ? 1 : -1;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        if (Double.compare(input[i], values[group]) * sign > 0) {
          values[group] = input[i];
        }
        seen[group] = true;
      }
    }
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    addInput(states.get(0), groupIds, rows);
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    writeFinal(from, count, out.get(0));
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    Columns.allocate(out, count);
    boolean single = out instanceof Float4Vector;
    for (int i = 0; i < count; i++) {
      write(from + i, out, i, single);
    }
    out.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    boolean single = out instanceof Float4Vector;
    for (int i = 0; i < count; i++) {
      write(groupIds[i], out, i, single);
    }
    out.setValueCount(count);
  }

  /** The value of {@code group} at {@code index} of {@code out}, NULL if it saw none. */
  private void write(int group, FieldVector out, int index, boolean single) {
    if (seen[group]) {
      ArrowBuf data = out.getDataBuffer();
      if (single) {
        data.setFloat((long) index << 2, (float) values[group]);
      } else {
        data.setDouble((long) index << 3, values[group]);
      }
      BitVectorHelper.setBit(out.getValidityBuffer(), index);
    }
  }
}
