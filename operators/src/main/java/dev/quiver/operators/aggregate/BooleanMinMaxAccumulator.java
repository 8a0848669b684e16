package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code MIN} and {@code MAX} of booleans ({@code false < true}): MIN is a logical AND of the
 * group's values, MAX an OR. The state is the value itself.
 */
final class BooleanMinMaxAccumulator implements Accumulator {
  private final boolean max;
  private final Reservation reservation;
  private boolean[] values = new boolean[0];
  private boolean[] seen = new boolean[0];

  BooleanMinMaxAccumulator(boolean max, Reservation reservation) {
    this.max = max;
    this.reservation = reservation;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > values.length) {
      int old = values.length;
      int capacity = Reservation.grownCapacity(old, groups);
      reservation.reserve((long) (capacity - old) * 2);
      values = Arrays.copyOf(values, capacity);
      Arrays.fill(values, old, capacity, !max); // the identity: true for AND, false for OR
      seen = Arrays.copyOf(seen, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    ArrowBuf data = argument.getDataBuffer();
    ArrowBuf validity = Columns.validity(argument);
    boolean[] values = this.values;
    boolean[] seen = this.seen;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        boolean value = Columns.isSet(data, i);
        values[group] = max ? values[group] | value : values[group] & value;
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
    BitVector bits = (BitVector) out;
    bits.allocateNew(count);
    for (int i = 0; i < count; i++) {
      if (seen[from + i]) {
        bits.set(i, values[from + i] ? 1 : 0);
      }
    }
    bits.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    BitVector bits = (BitVector) out;
    bits.allocateNew(count);
    for (int i = 0; i < count; i++) {
      int group = groupIds[i];
      if (seen[group]) {
        bits.set(i, values[group] ? 1 : 0);
      }
    }
    bits.setValueCount(count);
  }
}
