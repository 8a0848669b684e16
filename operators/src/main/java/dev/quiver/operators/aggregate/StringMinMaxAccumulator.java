package dev.quiver.operators.aggregate;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code MIN} and {@code MAX} of utf8, ordered by unsigned bytes (which is code point order). Each
 * group keeps its current value in {@link GroupStrings}; a new array is made only when a row beats
 * the group's value, never for rows that do not. The state is the value itself.
 */
final class StringMinMaxAccumulator implements Accumulator {
  private final boolean max;
  private final Reservation reservation;
  private final GroupStrings values;

  StringMinMaxAccumulator(boolean max, Reservation reservation) {
    this.max = max;
    this.reservation = reservation;
    this.values = new GroupStrings(reservation);
  }

  @Override
  public void ensureGroups(int groups) {
    values.newBatch();
    if (groups > values.capacity()) {
      int capacity = Reservation.grownCapacity(values.capacity(), groups);
      reservation.reserve((long) (capacity - values.capacity()) * Long.BYTES);
      values.grow(capacity);
    }
  }

  @Override
  public void reserveValues(FieldVector values, int rows) {
    this.values.reserveFor(values, rows);
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    ArrowBuf offsets = argument.getOffsetBuffer();
    ArrowBuf data = argument.getDataBuffer();
    ArrowBuf validity = Columns.validity(argument);
    int sign = max ? 1 : -1;
    for (int i = 0; i < rows; i++) {
      if (validity == null || Columns.isSet(validity, i)) {
        int group = groupIds[i];
        int start = offsets.getInt((long) i << 2);
        int length = offsets.getInt((long) (i + 1) << 2) - start;
        if (!values.isSet(group) || values.compare(data, start, length, group) * sign > 0) {
          values.set(group, data, start, length);
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
    values.write(from, count, (VarCharVector) out);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    values.write(groupIds, count, (VarCharVector) out);
  }
}
