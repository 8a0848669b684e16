package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code MIN} and {@code MAX} of decimal128: the unscaled 128-bit value per group as two longs,
 * compared signed. The state is the value itself, in the argument's type.
 */
final class DecimalMinMaxAccumulator implements Accumulator {
  private final boolean max;
  private final Reservation reservation;
  private long[] lows = new long[0];
  private long[] highs = new long[0];
  private boolean[] seen = new boolean[0];

  DecimalMinMaxAccumulator(boolean max, Reservation reservation) {
    this.max = max;
    this.reservation = reservation;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > lows.length) {
      int old = lows.length;
      int capacity = Reservation.grownCapacity(old, groups);
      reservation.reserve((long) (capacity - old) * (2 * Long.BYTES + 1));
      lows = Arrays.copyOf(lows, capacity);
      highs = Arrays.copyOf(highs, capacity);
      seen = Arrays.copyOf(seen, capacity);
      // The identity: the smallest 128-bit value for MAX, the largest for MIN.
      Arrays.fill(lows, old, capacity, max ? 0 : -1L);
      Arrays.fill(highs, old, capacity, max ? Long.MIN_VALUE : Long.MAX_VALUE);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    ArrowBuf data = argument.getDataBuffer();
    ArrowBuf validity = Columns.validity(argument);
    int sign = max ? 1 : -1;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        long low = data.getLong((long) i << 4);
        long high = data.getLong(((long) i << 4) + 8);
        if (Int128.compare(low, high, lows[group], highs[group]) * sign > 0) {
          lows[group] = low;
          highs[group] = high;
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
    for (int i = 0; i < count; i++) {
      if (seen[from + i]) {
        Columns.setDecimal(out, i, lows[from + i], highs[from + i]);
      }
    }
    out.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      int group = groupIds[i];
      if (seen[group]) {
        Columns.setDecimal(out, i, lows[group], highs[group]);
      }
    }
    out.setValueCount(count);
  }
}
