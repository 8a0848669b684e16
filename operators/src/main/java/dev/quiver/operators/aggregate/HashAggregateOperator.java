package dev.quiver.operators.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.hash.GroupTable;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Hash aggregation (GROUP BY) over one input, in {@link AggregateMode} PARTIAL, FINAL or SINGLE.
 *
 * <pre>
 *   batch ─► hash keys ─► GroupTable.insert ─► group ids ─► each accumulator: one tight loop
 *         └► (at most 256 groups of small keys: SmallKeyCache knows every row) ─┘
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
 * <p>Output batches have at most {@link OperatorContext#targetBatchRows()} rows. Everything kept
 * across calls (hash table, accumulator arrays, scratch) is reserved in the context's budget before
 * a batch changes it ({@link GroupStates}). Without a {@linkplain OperatorContext#spillSpace()
 * spill space}, a batch the budget cannot take even one row at a time fails with
 * MEMORY_BUDGET_EXCEEDED naming this operator, and all output is emitted at finish. With one, a
 * grouped aggregate whose budget refuses a batch makes room instead:
 *
 * <ul>
 *   <li>PARTIAL emits its groups' partial states at once and starts afresh (no disk): a partial
 *       aggregate may emit a group more than once, the FINAL after the shuffle merges them.
 *   <li>FINAL and SINGLE spill their groups' states (and DISTINCT pairs) to hash partitions ({@link
 *       SpillingGroups}) and start afresh; {@link #finish} merges partition by partition and emits
 *       each group once, with the same values as in memory (float sums aside, whose addition order
 *       differs) in full batches ({@link SpillMerge}).
 * </ul>
 *
 * A global aggregate holds one group and never spills; its DISTINCT values cannot spill (there are
 * no keys to partition them by) and fail with MEMORY_BUDGET_EXCEEDED. Spill files are deleted once
 * read, and by {@link #close} whatever happened. Not thread-safe.
 *
 * <p>Global grouping sets (under an {@link dev.quiver.operators.expand.ExpandOperator expand}, see
 * {@link dev.quiver.plan.node.Aggregate#globalSets()}): the last group key is the grouping id, and
 * the operator starts with one empty group per given id, every other key NULL. Such a group folds
 * in no row of its own, so it only makes the set's row exist over an empty input (COUNT 0, other
 * aggregates NULL); rows of that set land in it as in any group.
 */
public final class HashAggregateOperator implements Operator {
  private final OperatorContext context;
  private final BatchSink sink;
  private final AggregateLayout layout;
  private final String description;
  private final Feed feed;
  private final GroupStates groups;
  private final GroupFeeder feeder;
  private final boolean globalDistinct; // DISTINCT calls without group keys: cannot spill
  private final boolean holistic; // MEDIAN, percentiles: their values cannot spill (yet)
  private SpillingGroups spill; // FINAL, SINGLE: made at the first spill
  private long spills; // FINAL, SINGLE: spills; PARTIAL: early emissions
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
    this(context, input, mode, groupKeys, calls, new long[0], sink);
  }

  /**
   * An aggregate that starts with the empty groups of {@code globalSets}, grouping ids in the last
   * of {@code groupKeys} (a BIGINT; the other keys must be nullable).
   */
  public HashAggregateOperator(
      OperatorContext context,
      Schema input,
      AggregateMode mode,
      int[] groupKeys,
      List<AggregateCall> calls,
      long[] globalSets,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    this.sink = requireNonNull(sink, "sink is null");
    this.layout = new AggregateLayout(input, mode, groupKeys, calls);
    List<AggregateCall> copy = List.copyOf(calls);
    this.description = AggregateLayout.describe("HashAggregate", mode, "", groupKeys, copy);
    this.feed = Feed.of(layout);
    Field[] distinctArguments = new Field[copy.size()];
    boolean distinct = false;
    for (int c = 0; c < distinctArguments.length; c++) {
      if (copy.get(c).isDistinct()) {
        distinctArguments[c] = input.getFields().get(copy.get(c).argument());
        distinct = true;
      }
    }
    this.globalDistinct = distinct && groupKeys.length == 0;
    this.holistic = copy.stream().anyMatch(call -> call.function().isHolistic());
    this.groups = new GroupStates(context, layout, copy, distinctArguments, description);
    this.feeder = new GroupFeeder(context, groups);
    if (globalSets.length > 0) {
      try {
        seed(globalSets);
      } catch (RuntimeException | Error e) {
        groups.close();
        throw e;
      }
    }
  }

  /** Adds one empty group per grouping id: the id in the last key, NULL in the others. */
  private void seed(long[] ids) {
    List<Field> keys = layout.keyFields;
    if (keys.isEmpty()
        || !(keys.get(keys.size() - 1).getType() instanceof ArrowType.Int id)
        || id.getBitWidth() != 64) {
      throw new IllegalArgumentException(
          description + ": global grouping sets need a BIGINT grouping id as the last key");
    }
    List<FieldVector> vectors = new ArrayList<>(keys.size());
    try {
      for (int k = 0; k < keys.size() - 1; k++) {
        if (!keys.get(k).isNullable()) {
          throw new IllegalArgumentException(
              description + ": key " + keys.get(k) + " of a grouping set must be nullable");
        }
        FieldVector vector = keys.get(k).createVector(context.allocator());
        vectors.add(vector);
        vector.allocateNew();
        vector.setValueCount(ids.length); // freshly allocated: all NULL
      }
      BigIntVector idVector = new BigIntVector(keys.get(keys.size() - 1), context.allocator());
      vectors.add(idVector);
      idVector.allocateNew(ids.length);
      for (int i = 0; i < ids.length; i++) {
        idVector.set(i, ids[i]);
      }
      idVector.setValueCount(ids.length);
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
    try (VectorSchemaRoot seeds = new VectorSchemaRoot(keys, vectors, ids.length)) {
      QuiverException refused =
          groups.tryAdd(seeds, Feed.keysOnly(keys.size(), layout.inputColumns.length));
      if (refused != null) {
        throw refused;
      }
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
      if (batch.getRowCount() > 0) {
        feeder.add(batch, feed, this::relieve);
      }
    } catch (QuiverException e) {
      if (e.code() == ErrorCode.MEMORY_BUDGET_EXCEEDED && holistic) {
        throw new QuiverException(
            e.code(),
            description
                + " keeps every value of MEDIAN and percentiles in memory and cannot spill them:"
                + " give the task more memory or use more tasks ("
                + e.getMessage()
                + ")",
            e);
      }
      if (e.code() == ErrorCode.MEMORY_BUDGET_EXCEEDED
          && globalDistinct
          && context.spillSpace().canSpill()) {
        throw new QuiverException(
            e.code(),
            description
                + " cannot spill: without group keys every DISTINCT value stays in memory; plan"
                + " COUNT(DISTINCT) as a two-level aggregate, give the task more memory or use"
                + " more tasks ("
                + e.getMessage()
                + ")",
            e);
      }
      throw e;
    }
  }

  /** Makes room when the budget refuses a batch: emits (PARTIAL) or spills the groups. */
  private boolean relieve() {
    if (!context.spillSpace().canSpill() || holistic) {
      return false;
    }
    if (layout.mode == AggregateMode.PARTIAL) {
      groups.emit(sink);
    } else {
      if (spill == null) {
        spill = new SpillingGroups(context, groups, 0, description);
      }
      spill.spill(groups);
    }
    groups.clear();
    spills++;
    return true;
  }

  /** How often the groups were spilled (FINAL, SINGLE) or emitted early (PARTIAL). */
  long spills() {
    return spills;
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    if (finished) {
      return;
    }
    finished = true;
    try {
      if (spill == null) {
        groups.emit(sink);
      } else {
        SpillMerge.finish(context, spill, groups, sink, description);
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
    try {
      groups.close();
    } finally {
      if (spill != null) {
        spill.close();
      }
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
}
