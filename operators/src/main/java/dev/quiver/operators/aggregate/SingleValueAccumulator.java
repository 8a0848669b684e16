package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * {@code SINGLE_VALUE}, Calcite's aggregate for a scalar subquery without an aggregate: counts the
 * rows of each group (NULL values too) and keeps the value in a MIN accumulator of the argument's
 * type, which with at most one row is that row's value. A second row in a group, in the input or
 * when partial states merge, fails the query with {@link ErrorCode#SCALAR_SUBQUERY_ROWS}.
 *
 * <p>States: the value (the MIN state), then the row count; counts add up when states merge.
 */
final class SingleValueAccumulator implements Accumulator {
  private final String call;
  private final Accumulator value;
  private final Reservation reservation;
  private long[] rows = new long[0];

  SingleValueAccumulator(String call, Accumulator value, Reservation reservation) {
    this.call = call;
    this.value = value;
    this.reservation = reservation;
  }

  @Override
  public void ensureGroups(int groups) {
    value.ensureGroups(groups);
    if (groups > rows.length) {
      int capacity = Reservation.grownCapacity(rows.length, groups);
      reservation.reserve((long) (capacity - rows.length) * Long.BYTES);
      rows = Arrays.copyOf(rows, capacity);
    }
  }

  @Override
  public void reserveValues(FieldVector values, int count) {
    value.reserveValues(values, count);
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int count) {
    long[] rows = this.rows;
    for (int i = 0; i < count; i++) {
      if (++rows[groupIds[i]] > 1) {
        throw tooManyRows();
      }
    }
    value.addInput(argument, groupIds, count);
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int count) {
    ArrowBuf counted = states.get(1).getDataBuffer();
    long[] rows = this.rows;
    for (int i = 0; i < count; i++) {
      if ((rows[groupIds[i]] += counted.getLong((long) i << 3)) > 1) {
        throw tooManyRows();
      }
    }
    value.addStates(states.subList(0, 1), groupIds, count);
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    value.writeStates(from, count, out.subList(0, 1));
    FieldVector counted = out.get(1);
    Columns.allocate(counted, count);
    for (int i = 0; i < count; i++) {
      Columns.setInt(counted, Long.BYTES, i, rows[from + i]);
    }
    counted.setValueCount(count);
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    value.writeFinal(from, count, out);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    value.writeFinal(groupIds, count, out);
  }

  private QuiverException tooManyRows() {
    return new QuiverException(
        ErrorCode.SCALAR_SUBQUERY_ROWS,
        "more than one row returned by a subquery used as an expression ("
            + call
            + "): make it return at most one row, e.g. with a WHERE on a unique key, an aggregate"
            + " or LIMIT 1");
  }
}
