package dev.quiver.operators.aggregate;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import java.util.Arrays;
import java.util.List;

/**
 * Where the batches of one stream hold the group keys and what each aggregate call takes from them:
 * its argument (folded as input, through the call's DISTINCT filter if it has one), its partial
 * state columns (merged), or nothing.
 *
 * <pre>
 *   operator input       SINGLE, PARTIAL: keys and arguments where the layout says
 *                        FINAL: [keys][states of call 0][states of call 1]...
 *   spilled states       [keys][states of each call that has them]      (DISTINCT calls: nothing)
 *   spilled pairs of d   [keys][argument of DISTINCT call d]            (other calls: nothing)
 * </pre>
 */
final class Feed {
  enum Kind {
    ARGUMENT,
    STATES,
    NONE
  }

  final int[] keyColumns;
  final Kind[] kinds;

  /** The argument column (-1 for none, as {@code COUNT(*)}) or the first state column. */
  final int[] columns;

  /** The second column of an ARGUMENT call ({@code by} of ARG_MIN), -1 for none. */
  final int[] byColumns;

  /** The number of state columns of a STATES call. */
  final int[] widths;

  /** The boolean FILTER column of an ARGUMENT call, -1 for none (spilled rows were filtered). */
  final int[] filters;

  private Feed(int[] keyColumns, int calls) {
    this.keyColumns = keyColumns;
    this.kinds = new Kind[calls];
    this.columns = new int[calls];
    this.byColumns = new int[calls];
    this.widths = new int[calls];
    this.filters = new int[calls];
    Arrays.fill(kinds, Kind.NONE);
    Arrays.fill(byColumns, -1);
    Arrays.fill(filters, AggregateCall.NO_FILTER);
  }

  /** The operator's own input. */
  static Feed of(AggregateLayout layout) {
    Feed feed = new Feed(layout.keyColumns, layout.inputColumns.length);
    for (int c = 0; c < feed.kinds.length; c++) {
      feed.columns[c] = layout.inputColumns[c];
      feed.filters[c] = layout.filterColumns[c];
      if (layout.mode == AggregateMode.FINAL) {
        feed.kinds[c] = Kind.STATES;
        feed.widths[c] = layout.stateCounts[c];
      } else {
        feed.kinds[c] = Kind.ARGUMENT;
        feed.byColumns[c] = layout.byColumns[c];
      }
    }
    return feed;
  }

  /** Spilled states of {@code keys} group keys: the calls that have partial states, in order. */
  static Feed spilledStates(int keys, List<AggregateCall> calls) {
    Feed feed = new Feed(firstColumns(keys), calls.size());
    int column = keys;
    for (int c = 0; c < calls.size(); c++) {
      if (calls.get(c).hasPartialState()) {
        feed.kinds[c] = Kind.STATES;
        feed.columns[c] = column;
        feed.widths[c] = AggregateCall.stateFields(calls.get(c)).size();
        column += feed.widths[c];
      }
    }
    return feed;
  }

  /** Spilled (group keys, argument) pairs of the DISTINCT call {@code call}. */
  static Feed spilledPairs(int keys, int calls, int call) {
    Feed feed = new Feed(firstColumns(keys), calls);
    feed.kinds[call] = Kind.ARGUMENT;
    feed.columns[call] = keys;
    return feed;
  }

  /** Batches of {@code keys} group keys only: groups are added, no call is fed. */
  static Feed keysOnly(int keys, int calls) {
    return new Feed(firstColumns(keys), calls);
  }

  private static int[] firstColumns(int count) {
    int[] columns = new int[count];
    Arrays.setAll(columns, i -> i);
    return columns;
  }
}
