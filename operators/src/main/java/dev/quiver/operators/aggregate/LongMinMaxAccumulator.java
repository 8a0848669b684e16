package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code MIN} and {@code MAX} of integers, date32 and timestamps: values widened to longs, one long
 * per group (starting at the identity of the operation) plus a flag for groups that saw a value.
 * The state is the value itself, in the argument's type.
 */
final class LongMinMaxAccumulator implements Accumulator {
  private final boolean max;
  private final Reservation reservation;
  private final Scratch scratch;
  private long[] values = new long[0];
  private boolean[] seen = new boolean[0];

  LongMinMaxAccumulator(boolean max, Reservation reservation, Scratch scratch) {
    this.max = max;
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > values.length) {
      int old = values.length;
      int capacity = Reservation.grownCapacity(old, groups);
      reservation.reserve((long) (capacity - old) * (Long.BYTES + 1));
      values = Arrays.copyOf(values, capacity);
      Arrays.fill(values, old, capacity, max ? Long.MIN_VALUE : Long.MAX_VALUE);
      seen = Arrays.copyOf(seen, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    long[] input = scratch.longs(rows);
    Columns.widenInts(argument, rows, input);
    ArrowBuf validity = Columns.validity(argument);
    long[] values = this.values;
    boolean[] seen = this.seen;
    // One loop per operation, so that each is a plain min or max.
    if (max) {
      for (int i = 0; i < rows; i++) {
        if (validity == null || Columns.isSet(validity, i)) {
          int group = groupIds[i];
          values[group] = Math.max(values[group], input[i]);
          seen[group] = true;
        }
      }
    } else {
      for (int i = 0; i < rows; i++) {
        if (validity == null || Columns.isSet(validity, i)) {
          int group = groupIds[i];
          values[group] = Math.min(values[group], input[i]);
          seen[group] = true;
        }
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
    int width = Columns.width(out);
    for (int i = 0; i < count; i++) {
      if (seen[from + i]) {
        Columns.setInt(out, width, i, values[from + i]);
      }
    }
    out.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    int width = Columns.width(out);
    for (int i = 0; i < count; i++) {
      int group = groupIds[i];
      if (seen[group]) {
        Columns.setInt(out, width, i, values[group]);
      }
    }
    out.setValueCount(count);
  }
}
