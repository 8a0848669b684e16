package dev.quiver.operators.aggregate;

import dev.quiver.operators.kernel.Take;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * The state of one aggregate call for every group, in primitive arrays indexed by group id.
 *
 * <p>Updates take a batch's group ids ({@code groupIds[i]} is the group of row {@code i}) and run
 * one tight loop over the column's buffers; none allocates per row. Growing the arrays reserves
 * memory first. Outputs are written into new, unallocated vectors made from the call's result or
 * state fields, which the accumulator allocates, fills for groups {@code [from, from + count)} and
 * gives a value count.
 *
 * <p>Final values come for a range of groups (a hash aggregate emits them all) or for a list of
 * group ids (an updating aggregate emits the groups a batch changed, {@link
 * UpdatingAggregateOperator}).
 */
interface Accumulator {
  /** Makes room for groups {@code [0, groups)}; new groups start empty. */
  void ensureGroups(int groups);

  /**
   * Reserves what folding {@code rows} values of {@code values} (arguments, or the first state
   * column) could add beyond the group arrays, so that the fold itself reserves nothing. Only
   * accumulators that keep variable-size values need it.
   */
  default void reserveValues(FieldVector values, int rows) {}

  /**
   * As {@link #reserveValues(FieldVector, int)} for calls with a second column ({@code by}: the
   * call's by column for input, the second state column for states; null for other calls).
   */
  default void reserveValues(FieldVector values, FieldVector by, int rows) {
    reserveValues(values, rows);
  }

  /** Folds the argument values of rows {@code [0, rows)} into their groups (SINGLE, PARTIAL). */
  void addInput(FieldVector argument, int[] groupIds, int rows);

  /**
   * Folds rows {@code [0, rows)} of a call with a second column {@code by} (ARG_MIN, ARG_MAX); the
   * others ignore it.
   */
  default void addInput(FieldVector argument, FieldVector by, int[] groupIds, int rows) {
    addInput(argument, groupIds, rows);
  }

  /** Folds partial states (columns as given by {@code AggregateCall.stateFields}) (FINAL). */
  void addStates(List<FieldVector> states, int[] groupIds, int rows);

  /** Writes the partial states of groups {@code [from, from + count)} (PARTIAL). */
  void writeStates(int from, int count, List<FieldVector> out);

  /** Writes the final values of groups {@code [from, from + count)} (FINAL, SINGLE). */
  void writeFinal(int from, int count, FieldVector out);

  /**
   * Writes the final values of groups {@code groupIds[0, count)}, in that order (ids may repeat and
   * come in any order), as {@link #writeFinal(int, int, FieldVector)} writes them.
   *
   * <p>Every accumulator with a partial state gathers in a loop of its own. This default, which
   * writes the range of groups covering the ids into a temporary vector and takes the wanted rows
   * from it, serves only those without one (MEDIAN, percentiles, STRING_AGG), which an updating
   * aggregate never holds.
   */
  default void writeFinal(int[] groupIds, int count, FieldVector out) {
    int min = Integer.MAX_VALUE;
    int max = -1;
    for (int i = 0; i < count; i++) {
      min = Math.min(min, groupIds[i]);
      max = Math.max(max, groupIds[i]);
    }
    if (count == 0) {
      writeFinal(0, 0, out);
      return;
    }
    int[] rows = new int[count];
    for (int i = 0; i < count; i++) {
      rows[i] = groupIds[i] - min;
    }
    try (FieldVector range = out.getField().createVector(out.getAllocator())) {
      writeFinal(min, max - min + 1, range);
      try (FieldVector taken = Take.take(range, rows, count, out.getAllocator())) {
        taken.makeTransferPair(out).transfer();
      }
    }
  }
}
