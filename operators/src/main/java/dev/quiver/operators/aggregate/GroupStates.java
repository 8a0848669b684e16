package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.hash.GroupTable;
import dev.quiver.operators.hash.SmallKeyCache;
import dev.quiver.operators.hash.VectorHasher;
import dev.quiver.plan.aggregate.AggregateCall;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The groups a hash aggregate holds in memory: the key table (none for a global aggregate), one
 * accumulator per call and the DISTINCT filters, all reserved in the task's budget.
 *
 * <pre>
 *   tryAdd(batch) ─► insert keys, grow arrays, DISTINCT pairs ─refused─► undo the inserts ─► refusal
 *                    (everything that reserves, the observer's too)
 *                 ─► observer.beforeFold ─► fold arguments or states (reserves nothing)
 *                 ─► observer.afterFold ─► null
 * </pre>
 *
 * <p>All or nothing is what makes spilling safe: every reservation a batch needs happens before its
 * first fold, and a refusal undoes the key inserts before it, so the groups are exactly what they
 * were (some arrays may have grown) and can be spilled or emitted ({@link GroupFeeder}). Not
 * thread-safe.
 */
final class GroupStates implements AutoCloseable {
  /**
   * Sees each batch between its key inserts and its fold: a changelog reads the values of the
   * groups a batch touches before and after the batch changes them ({@link GroupChanges}).
   */
  interface FoldObserver {
    /** Sees nothing. */
    FoldObserver NONE = new FoldObserver() {};

    /**
     * Reserves what observing {@code rows} rows over groups {@code [0, groups)} needs, the groups
     * from {@code groupsBefore} on new: called with the batch's other reservations, so that a
     * refusal undoes the inserts and changes no group ({@link #refused} then follows).
     */
    default void reserve(int rows, int groupsBefore, int groups) {}

    /** The budget refused the batch after {@link #reserve}: let go of what it reserved. */
    default void refused() {}

    /**
     * The batch's keys are in, nothing is folded yet: row {@code i} belongs to group {@code
     * groupIds[i]}, and the groups from {@code groupsBefore} on are new (a global aggregate has its
     * group from the start: {@code groupsBefore} is 1).
     */
    default void beforeFold(int[] groupIds, int rows, int groupsBefore) {}

    /** The batch is folded. */
    default void afterFold() {}
  }

  private final OperatorContext context;
  private final AggregateLayout layout;
  private final List<AggregateCall> calls;
  private final Field[] distinctArguments; // per call, null where not DISTINCT
  private final String description;
  private final Reservation reservation;
  private Accumulator[] accumulators;
  private DistinctFilter[] distinctFilters;
  private FilterSelection[] selections; // per call, null where it has no FILTER in this layout
  private GroupTable table; // null without group keys
  private SmallKeyCache cache; // null without keys or when they cannot be packed
  private Scratch scratch;
  private long[] hashes = new long[0];
  private int[] groupIds = new int[0];

  GroupStates(
      OperatorContext context,
      AggregateLayout layout,
      List<AggregateCall> calls,
      Field[] distinctArguments,
      String description) {
    this.context = context;
    this.layout = layout;
    this.calls = calls;
    this.distinctArguments = distinctArguments;
    this.description = description;
    this.reservation = new Reservation(context.budget(), description);
    try {
      init();
    } catch (RuntimeException | Error e) {
      release();
      throw e;
    }
  }

  /** Lets go of every group and their memory, and starts again with none. */
  void clear() {
    release();
    init();
  }

  private void init() {
    hashes = new long[0];
    groupIds = new int[0];
    scratch = new Scratch(reservation);
    accumulators = new Accumulator[calls.size()];
    distinctFilters = new DistinctFilter[calls.size()];
    selections = new FilterSelection[calls.size()];
    for (int c = 0; c < accumulators.length; c++) {
      accumulators[c] = Accumulators.create(calls.get(c), reservation, scratch);
      if (layout.filterColumns[c] >= 0) {
        selections[c] = new FilterSelection(reservation);
      }
      if (distinctArguments[c] != null) {
        distinctFilters[c] =
            new DistinctFilter(
                distinctArguments[c],
                context.allocator(),
                context.budget(),
                reservation,
                description + " distinct " + calls.get(c));
      }
    }
    if (layout.keyColumns.length > 0) {
      table =
          new GroupTable(
              layout.keyFields, context.allocator(), context.budget(), description + " keys");
      cache = SmallKeyCache.forKeys(layout.keyFields);
      if (cache != null) {
        reservation.reserve(SmallKeyCache.fixedBytes(layout.keyFields.size()));
      }
    } else {
      for (Accumulator accumulator : accumulators) {
        accumulator.ensureGroups(1); // a global aggregate has its one group from the start
      }
    }
  }

  /** Where keys and calls are, and the schema of {@link #emit}'s batches. */
  AggregateLayout layout() {
    return layout;
  }

  List<AggregateCall> calls() {
    return calls;
  }

  /** The argument field of call {@code c} if it is DISTINCT, else null. */
  Field distinctArgument(int c) {
    return distinctArguments[c];
  }

  /** The key table, null for a global aggregate. */
  GroupTable table() {
    return table;
  }

  Accumulator[] accumulators() {
    return accumulators;
  }

  /** The DISTINCT filter of call {@code c}, or null. */
  DistinctFilter distinctFilter(int c) {
    return distinctFilters[c];
  }

  /** Groups held: 1 for a global aggregate. */
  int groupCount() {
    return table == null ? 1 : table.groupCount();
  }

  /** Whether spilling or emitting the groups would free anything. */
  boolean canShrink() {
    return table != null && table.groupCount() > 0;
  }

  /**
   * Emits every group: keys, then states (PARTIAL) or final values, in batches of at most the
   * target size.
   */
  void emit(BatchSink sink) {
    int groups = groupCount();
    int target = context.targetBatchRows();
    for (int from = 0; from < groups; from += target) {
      int count = Math.min(target, groups - from);
      sink.accept(
          AggregateOutput.build(layout, table, accumulators, from, count, context.allocator()));
    }
  }

  /**
   * Folds all rows of {@code batch} in and returns null, or returns the budget's refusal having
   * changed no group: everything that may be refused (scratch, the key table's insert, the group
   * arrays, string values, DISTINCT pairs) happens before the first fold, and a refusal undoes the
   * inserts before it.
   */
  QuiverException tryAdd(VectorSchemaRoot batch, Feed feed) {
    return tryAdd(batch, feed, FoldObserver.NONE);
  }

  /** As {@link #tryAdd(VectorSchemaRoot, Feed)}, telling {@code observer} about the batch. */
  QuiverException tryAdd(VectorSchemaRoot batch, Feed feed, FoldObserver observer) {
    int rows = batch.getRowCount();
    int groupsBefore = groupCount();
    int before = table == null ? 0 : table.groupCount();
    int[] pairsBefore = new int[distinctFilters.length];
    Arrays.fill(pairsBefore, -1); // -1: not inserted into
    try {
      reserveRows(rows);
      for (int c = 0; c < accumulators.length; c++) {
        if (feed.filters[c] >= 0) {
          selections[c].reserve(rows);
        }
      }
      int groups = insertKeys(batch, feed, rows);
      for (int c = 0; c < accumulators.length; c++) {
        accumulators[c].ensureGroups(groups);
        int column = feed.columns[c];
        FieldVector by = secondColumn(batch, feed, c);
        if (feed.kinds[c] != Feed.Kind.NONE && column >= 0) {
          accumulators[c].reserveValues(batch.getVector(column), by, rows);
        }
        if (feed.filters[c] >= 0) {
          FieldVector argument = column < 0 ? null : batch.getVector(column);
          selections[c].select(
              batch.getVector(feed.filters[c]), argument, by, groupIds, rows, context.allocator());
        }
      }
      observer.reserve(rows, groupsBefore, groups);
      for (int c = 0; c < distinctFilters.length; c++) {
        if (distinctFilters[c] != null && feed.kinds[c] == Feed.Kind.ARGUMENT) {
          pairsBefore[c] = distinctFilters[c].pairCount();
          if (feed.filters[c] >= 0) {
            FilterSelection selection = selections[c];
            distinctFilters[c].insert(
                selection.argument(), selection.groupIds(), selection.count());
          } else {
            distinctFilters[c].insert(batch.getVector(feed.columns[c]), groupIds, rows);
          }
        }
      }
    } catch (QuiverException e) {
      releaseSelections();
      observer.refused();
      if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
        throw e;
      }
      for (int c = 0; c < distinctFilters.length; c++) {
        if (pairsBefore[c] >= 0) {
          distinctFilters[c].truncate(pairsBefore[c]);
        }
      }
      if (table != null) {
        table.truncate(before);
        if (cache != null) {
          cache.clear(); // it may know keys of the groups just forgotten
        }
      }
      return e;
    } catch (RuntimeException | Error e) {
      releaseSelections();
      observer.refused();
      throw e;
    }
    try {
      observer.beforeFold(groupIds, rows, groupsBefore);
      fold(batch, feed, rows);
      observer.afterFold();
    } finally {
      releaseSelections();
    }
    return null;
  }

  /** Closes the values gathered for FILTER calls of the batch just folded or refused. */
  private void releaseSelections() {
    for (FilterSelection selection : selections) {
      if (selection != null) {
        selection.release();
      }
    }
  }

  /** Per-row scratch for {@code rows} rows, reserved before anything changes. */
  private void reserveRows(int rows) {
    if (rows > groupIds.length) {
      int capacity = Reservation.grownCapacity(groupIds.length, rows);
      int perRow = Long.BYTES + Integer.BYTES + (cache == null ? 0 : cache.bytesPerRow());
      reservation.reserve((long) (capacity - groupIds.length) * perRow);
      hashes = new long[capacity];
      groupIds = new int[capacity];
    }
    scratch.longs(rows);
    scratch.doubles(rows);
  }

  /**
   * Writes each row's group to {@link #groupIds}, adding new groups; returns the group count. Few
   * small keys come from the cache when it knows them all, else from the table.
   */
  private int insertKeys(VectorSchemaRoot batch, Feed feed, int rows) {
    if (table == null) {
      Arrays.fill(groupIds, 0, rows, 0);
      return 1;
    }
    List<FieldVector> keys = new ArrayList<>(feed.keyColumns.length);
    for (int column : feed.keyColumns) {
      keys.add(batch.getVector(column));
    }
    if (cache != null && cache.find(keys, rows, groupIds)) {
      return table.groupCount();
    }
    VectorHasher.hash(keys, rows, hashes);
    table.insert(keys, rows, hashes, groupIds);
    if (cache != null) {
      cache.learn(rows, groupIds, table.groupCount());
    }
    return table.groupCount();
  }

  /**
   * The second column call {@code c} reads: its by column (ARG_MIN), or its second state column
   * when it merges two or more; null otherwise.
   */
  private static FieldVector secondColumn(VectorSchemaRoot batch, Feed feed, int c) {
    if (feed.kinds[c] == Feed.Kind.ARGUMENT && feed.byColumns[c] >= 0) {
      return batch.getVector(feed.byColumns[c]);
    }
    if (feed.kinds[c] == Feed.Kind.STATES && feed.widths[c] >= 2) {
      return batch.getVector(feed.columns[c] + 1);
    }
    return null;
  }

  /** Folds the rows into their groups: nothing here reserves memory. */
  private void fold(VectorSchemaRoot batch, Feed feed, int rows) {
    for (int c = 0; c < accumulators.length; c++) {
      Accumulator accumulator = accumulators[c];
      int column = feed.columns[c];
      switch (feed.kinds[c]) {
        case STATES:
          accumulator.addStates(
              batch.getFieldVectors().subList(column, column + feed.widths[c]), groupIds, rows);
          break;
        case ARGUMENT:
          FieldVector argument = column < 0 ? null : batch.getVector(column);
          FieldVector by = feed.byColumns[c] < 0 ? null : batch.getVector(feed.byColumns[c]);
          int[] ids = groupIds;
          int count = rows;
          if (feed.filters[c] >= 0) { // only the rows where the FILTER column is TRUE
            argument = selections[c].argument();
            by = selections[c].by();
            ids = selections[c].groupIds();
            count = selections[c].count();
          }
          if (distinctFilters[c] != null) {
            distinctFilters[c].feed(argument, accumulator);
          } else if (by != null) {
            accumulator.addInput(argument, by, ids, count);
          } else {
            accumulator.addInput(argument, ids, count);
          }
          break;
        default:
          break;
      }
    }
  }

  @Override
  public void close() {
    release();
  }

  private void release() {
    List<AutoCloseable> owned = new ArrayList<>();
    if (distinctFilters != null) {
      owned.addAll(Arrays.asList(distinctFilters));
    }
    owned.add(table);
    try {
      AutoCloseables.close(owned);
    } catch (Exception e) {
      throw new IllegalStateException("cannot release " + description, e);
    } finally {
      table = null;
      cache = null;
      if (selections != null) {
        releaseSelections();
      }
      selections = null;
      distinctFilters = null;
      accumulators = null;
      reservation.releaseAll();
    }
  }
}
