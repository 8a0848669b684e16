package dev.quiver.operators.aggregate;

import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code ARG_MIN(arg, by)} and {@code ARG_MAX(arg, by)} ({@code MIN_BY}, {@code MAX_BY}): per group
 * the smallest (largest) {@code by} so far and the {@code arg} of its row, rows where either is
 * NULL skipped, as DuckDB does. Ties keep the row seen first.
 *
 * <pre>
 *   batch ─► by loop (one per type): rows that beat their group's by ─► winners ─► copy their args
 * </pre>
 *
 * <p>Per batch, never per row: the by loop writes the winning rows to an array reserved before the
 * fold, and the args are copied from those rows afterwards (a row later beaten in the same batch is
 * copied and then overwritten). The partial state is (arg, by), both NULL or both set; merging
 * states is the same fold over the state columns.
 */
final class ArgMinMaxAccumulator implements Accumulator {
  private final boolean max;
  private final GroupValues args;
  private final GroupValues bys;
  private final Reservation reservation;
  private final Scratch scratch;
  private int[] winners = new int[0];

  ArgMinMaxAccumulator(
      boolean max, ArrowType argType, ArrowType byType, Reservation reservation, Scratch scratch) {
    this.max = max;
    this.args = new GroupValues(argType, reservation);
    this.bys = new GroupValues(byType, reservation);
    this.reservation = reservation;
    this.scratch = scratch;
  }

  @Override
  public void ensureGroups(int groups) {
    args.ensureGroups(groups);
    bys.ensureGroups(groups);
  }

  @Override
  public void reserveValues(FieldVector values, FieldVector by, int rows) {
    if (rows > winners.length) {
      int capacity = Reservation.grownCapacity(winners.length, rows);
      reservation.reserve((long) (capacity - winners.length) * Integer.BYTES);
      winners = new int[capacity];
    }
    args.reserveValues(values, rows);
    bys.reserveValues(by, rows);
  }

  @Override
  public void addInput(FieldVector argument, int[] groupIds, int rows) {
    throw new IllegalStateException("arg_min and arg_max take two columns");
  }

  @Override
  public void addInput(FieldVector argument, FieldVector by, int[] groupIds, int rows) {
    int won =
        bys.offer(
            by, argument, groupIds, rows, max, winners, scratch.longs(rows), scratch.doubles(rows));
    args.copy(argument, groupIds, winners, won);
  }

  @Override
  public void addStates(List<FieldVector> states, int[] groupIds, int rows) {
    addInput(states.get(0), states.get(1), groupIds, rows);
  }

  @Override
  public void writeStates(int from, int count, List<FieldVector> out) {
    args.write(from, count, out.get(0));
    bys.write(from, count, out.get(1));
  }

  @Override
  public void writeFinal(int from, int count, FieldVector out) {
    args.write(from, count, out);
  }

  @Override
  public void writeFinal(int[] groupIds, int count, FieldVector out) {
    args.write(groupIds, count, out);
  }
}
