package dev.quiver.operators.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.hash.GroupTable;
import dev.quiver.operators.hash.VectorHasher;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Hash aggregation (GROUP BY) over one input, in {@link AggregateMode} PARTIAL, FINAL or SINGLE.
 *
 * <pre>
 *   batch ─► hash keys ─► GroupTable.insert ─► group ids ─► each accumulator: one tight loop
 *   finish ─► for groups in chunks of targetBatchRows: keys + states or values ─► sink
 * </pre>
 *
 * <p>Input and output columns are laid out as {@link AggregateLayout} describes: FINAL reads the
 * output of PARTIAL. Group keys may be of any type {@link GroupTable} supports and NULL keys form
 * one group; without group keys the aggregate is global and emits exactly one row, also for an
 * empty input ({@code COUNT} 0, other aggregates NULL). Aggregates skip NULL arguments.
 *
 * <p>DISTINCT calls run only in SINGLE mode, each behind a {@link DistinctFilter} of (group,
 * argument) pairs. A distributed plan therefore either hash-repartitions the rows on the group keys
 * and runs SINGLE (all rows of a group meet in one task), or rewrites {@code COUNT(DISTINCT x)}
 * into a two-level aggregate (PARTIAL/FINAL grouped by keys and x, then a count grouped by the
 * keys). PARTIAL and FINAL reject DISTINCT calls at construction.
 *
 * <p>Output is emitted when the input finishes, in batches of at most {@link
 * OperatorContext#targetBatchRows()} rows. Everything kept across calls (hash table, accumulator
 * arrays, scratch) is reserved in the context's budget; exceeding it fails with
 * MEMORY_BUDGET_EXCEEDED naming this operator. Not thread-safe.
 */
public final class HashAggregateOperator implements Operator {
  private final OperatorContext context;
  private final BatchSink sink;
  private final AggregateLayout layout;
  private final List<AggregateCall> calls;
  private final String description;
  private final Reservation reservation;
  private final Accumulator[] accumulators;
  private final DistinctFilter[] distinctFilters; // per call, null where not DISTINCT
  private GroupTable table; // null without group keys
  private long[] hashes = new long[0];
  private int[] groupIds = new int[0];
  private boolean finished;
  private boolean closed;

  /**
   * @param input the schema of the input batches
   * @param groupKeys the group key columns of the rows (in FINAL mode: of the PARTIAL's input)
   * @param calls the aggregates, in output order
   * @param sink receives the output batches
   */
  public HashAggregateOperator(
      OperatorContext context,
      Schema input,
      AggregateMode mode,
      int[] groupKeys,
      List<AggregateCall> calls,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    this.sink = requireNonNull(sink, "sink is null");
    this.layout = new AggregateLayout(input, mode, groupKeys, calls);
    this.calls = List.copyOf(calls);
    this.description = describe(mode, groupKeys, this.calls);
    this.reservation = new Reservation(context.budget(), description);
    Scratch scratch = new Scratch(reservation);
    this.accumulators = new Accumulator[this.calls.size()];
    this.distinctFilters = new DistinctFilter[this.calls.size()];
    try {
      for (int c = 0; c < accumulators.length; c++) {
        AggregateCall call = this.calls.get(c);
        accumulators[c] = Accumulators.create(call, reservation, scratch);
        if (call.isDistinct()) {
          distinctFilters[c] =
              new DistinctFilter(
                  input.getFields().get(call.argument()),
                  context.allocator(),
                  context.budget(),
                  reservation,
                  description + " distinct " + call);
        }
      }
      if (groupKeys.length > 0) {
        table =
            new GroupTable(
                layout.keyFields, context.allocator(), context.budget(), description + " keys");
      } else {
        for (Accumulator accumulator : accumulators) {
          accumulator.ensureGroups(1); // a global aggregate has its one group from the start
        }
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  /** The schema of the output batches. */
  public Schema outputSchema() {
    return layout.output;
  }

  /** The output schema of an aggregate with these arguments, without creating it. */
  public static Schema outputSchema(
      Schema input, AggregateMode mode, int[] groupKeys, List<AggregateCall> calls) {
    return new AggregateLayout(input, mode, groupKeys, calls).output;
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    try (batch) {
      checkInput(input);
      if (finished) {
        throw new IllegalStateException(description + " received a batch after finish");
      }
      int rows = batch.getRowCount();
      if (rows > 0) {
        aggregate(batch, rows);
      }
    }
  }

  private void aggregate(VectorSchemaRoot batch, int rows) {
    if (rows > groupIds.length) {
      int capacity = Reservation.grownCapacity(groupIds.length, rows);
      reservation.reserve((long) (capacity - groupIds.length) * (Long.BYTES + Integer.BYTES));
      hashes = new long[capacity];
      groupIds = new int[capacity];
    }
    int groups = 1;
    if (table != null) {
      List<FieldVector> keys = new ArrayList<>(layout.keyColumns.length);
      for (int column : layout.keyColumns) {
        keys.add(batch.getVector(column));
      }
      VectorHasher.hash(keys, rows, hashes);
      table.insert(keys, rows, hashes, groupIds);
      groups = table.groupCount();
    } else {
      Arrays.fill(groupIds, 0, rows, 0);
    }
    for (int c = 0; c < accumulators.length; c++) {
      Accumulator accumulator = accumulators[c];
      accumulator.ensureGroups(groups);
      int column = layout.inputColumns[c];
      if (layout.mode == AggregateMode.FINAL) {
        accumulator.addStates(
            batch.getFieldVectors().subList(column, column + layout.stateCounts[c]),
            groupIds,
            rows);
      } else {
        FieldVector argument = column < 0 ? null : batch.getVector(column);
        if (distinctFilters[c] != null) {
          distinctFilters[c].addInput(argument, groupIds, rows, accumulator);
        } else {
          accumulator.addInput(argument, groupIds, rows);
        }
      }
    }
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    if (finished) {
      return;
    }
    finished = true;
    try {
      int groups = table == null ? 1 : table.groupCount();
      int target = context.targetBatchRows();
      for (int from = 0; from < groups; from += target) {
        int count = Math.min(target, groups - from);
        sink.accept(
            AggregateOutput.build(layout, table, accumulators, from, count, context.allocator()));
      }
    } finally {
      close(); // the state is no longer needed: return its memory now
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    finished = true;
    List<AutoCloseable> owned = new ArrayList<>(Arrays.asList(distinctFilters));
    owned.add(table);
    try {
      AutoCloseables.close(owned);
    } catch (Exception e) {
      throw new IllegalStateException("cannot release " + description, e);
    } finally {
      table = null;
      Arrays.fill(accumulators, null);
      reservation.releaseAll();
    }
  }

  private void checkInput(int input) {
    if (input != 0) {
      throw new IllegalArgumentException(description + " has one input, not input " + input);
    }
  }

  /** One line: {@code HashAggregate[mode=PARTIAL, keys=[#0, #1], aggs=[sum(#4), count(*)]]}. */
  @Override
  public String toString() {
    return description;
  }

  private static String describe(AggregateMode mode, int[] groupKeys, List<AggregateCall> calls) {
    return "HashAggregate[mode="
        + mode
        + ", keys="
        + Arrays.stream(groupKeys)
            .mapToObj(k -> "#" + k)
            .collect(Collectors.joining(", ", "[", "]"))
        + ", aggs="
        + calls
        + "]";
  }
}
