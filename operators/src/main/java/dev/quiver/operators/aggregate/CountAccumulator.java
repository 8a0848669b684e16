package dev.quiver.operators.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code COUNT(*)} (no argument: every row counts), {@code COUNT(x)} (non-null values count) and,
 * behind a {@link DistinctFilter}, {@code COUNT(DISTINCT x)}. The state is the count itself.
 */
final class CountAccumulator implements Accumulator {
  private final Reservation reservation;
  private long[] counts = new long[0];

  CountAccumulator(Reservation reservation) {
    this.reservation = reservation;
  }

  @Override
  public void ensureGroups(int groups) {
    if (groups > counts.length) {
      int capacity = Reservation.grownCapacity(counts.length, groups);
      reservation.reserve((long) (capacity - counts.length) * Long.BYTES);
      counts = Arrays.copyOf(counts, capacity);
    }
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    long[] counts = this.counts;
    ArrowBuf validity = argument == null ? null : Columns.validity(argument);
    if (validity == null) {
      for (int i = 0; i < rows; i++) {
        counts[groupIds[i]]++;
      }
    } else {
      for (int i = 0; i < rows; i++) {
        // Adds 0 or 1 without a branch.
        counts[groupIds[i]] += (validity.getByte(i >>> 3) >>> (i & 7)) & 1;
      }
    }
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    ArrowBuf data = states.get(0).getDataBuffer();
    long[] counts = this.counts;
    for (int i = 0; i < rows; i++) {
      counts[groupIds[i]] += data.getLong((long) i << 3);
    }
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    writeFinal(from, count, out.get(0));
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      Columns.setInt(out, Long.BYTES, i, counts[from + i]);
    }
    out.setValueCount(count);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    Columns.allocate(out, count);
    for (int i = 0; i < count; i++) {
      Columns.setInt(out, Long.BYTES, i, counts[groupIds[i]]);
    }
    out.setValueCount(count);
  }
}
