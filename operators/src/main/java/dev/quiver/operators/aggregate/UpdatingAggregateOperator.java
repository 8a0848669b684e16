package dev.quiver.operators.aggregate;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.StateStreams;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.changelog.RowKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A non-windowed GROUP BY over an unbounded, append-only input, whose result is a changelog
 * (Flink's updating, retract result): each batch emits what it changed in the result.
 *
 * <pre>
 *   batch ─► groups it touches ─► existing: old values ─► fold ─► new values ─► -U old, +U new
 *                                                                              (skipped if equal)
 *                              └► new groups ─────────────────► fold ─► values ─► +I
 * </pre>
 *
 * <p>FINAL (reads PARTIAL's output) and SINGLE (reads rows) hold every group for ever: the input
 * only adds rows, so a group never disappears and no -D row is ever emitted. The output is the keys
 * and final values of {@link HashAggregateOperator} FINAL / SINGLE, then {@link RowKind#FIELD} as
 * the last column. Per input batch, in this order: a -U row with the old values of every existing
 * group the batch changed, then their +U rows with the new values in the same group order, then a
 * +I row for every new group; groups in the order of their first row in the batch (a batch the
 * budget takes only in pieces: per piece). A group whose values the batch leaves equal (a MAX the
 * batch does not beat) emits nothing, as in Flink. Applied in order (+I, +U add their row, -U
 * removes its), the changelog gives the aggregate of all input so far. A global aggregate (no keys)
 * emits its row as +I with its first input row and updates it after; over an input without rows it
 * emits nothing (as Flink's streaming aggregate, unlike a batch one). Rows are coalesced into
 * batches of the target size and emitted at {@link #flush()} (so at every watermark, idle input and
 * checkpoint too) and {@link #finish}.
 *
 * <p>PARTIAL (the local half of a local/global aggregate, before a hash exchange) emits its groups'
 * partial states, as {@link HashAggregateOperator} PARTIAL does (no row kind), and forgets them: at
 * {@link #flush()} (watermarks, idle input, checkpoints), at {@link #finish}, once it holds the
 * target batch size of groups, and when the budget refuses a batch. It holds nothing at a
 * checkpoint (the task flushes first), so it is not stateful.
 *
 * <p>Every call needs a partial state (the groups are checkpointed as partial states): DISTINCT
 * calls, MEDIAN and percentiles are refused (a plan rewrites {@code COUNT(DISTINCT x)} into a
 * two-level aggregate). The groups are reserved in the task's budget as a hash aggregate's. When
 * the budget refuses a batch, FINAL and SINGLE with group keys move every group to the task's spill
 * store ({@link ColdGroups}: RocksDB in a Flink task) and read back, one lookup per batch, the
 * groups a batch brings back (as updates: their old values are the stored ones). Without a spill
 * space, or for a global aggregate, a batch the budget cannot take even row by row fails with
 * MEMORY_BUDGET_EXCEEDED naming this operator. Checkpoints ({@link UpdatingSnapshot}): the groups
 * in memory and in the store, as keys and partial states; a restored group counts as emitted. Not
 * thread-safe.
 */
public final class UpdatingAggregateOperator implements Operator {
  private static final GroupFeeder.Relief NO_RELIEF = () -> false;

  private final OperatorContext context;
  private final BatchSink sink;
  private final String description;
  private final boolean partial;
  private final Feed feed; // the input's
  private final Feed stateFeed; // a snapshot's groups: keys, then every call's states
  private final Schema stateSchema;
  private final Schema output;
  private final GroupStates groups;
  private final GroupFeeder feeder;
  private final GroupChanges changes; // FINAL, SINGLE
  private final ColdGroups cold; // FINAL, SINGLE with keys and a spill space; else null
  private final int keyCount;
  private final GroupFeeder.Relief relief; // FINAL, SINGLE: evicts to cold, if there is one
  private boolean held; // PARTIAL: rows folded into the groups since they were last emitted
  private boolean started; // input or a restore came
  private boolean finished;
  private boolean closed;

  /**
   * @param input the schema of the input batches
   * @param groupKeys the group key columns of the rows (in FINAL mode: of the PARTIAL's input)
   * @param calls the aggregates, in output order; each must have a partial state
   * @param sink receives the output batches
   * @throws IllegalArgumentException for a call without a partial state
   */
  public UpdatingAggregateOperator(
      OperatorContext context,
      Schema input,
      AggregateMode mode,
      int[] groupKeys,
      List<AggregateCall> calls,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    this.sink = requireNonNull(sink, "sink is null");
    List<AggregateCall> copy = List.copyOf(requireNonNull(calls, "calls is null"));
    this.description =
        AggregateLayout.describe(
            "UpdatingAggregate",
            requireNonNull(mode, "mode is null"),
            "",
            requireNonNull(groupKeys, "groupKeys is null"),
            copy);
    for (AggregateCall call : copy) {
      if (!call.hasPartialState()) {
        throw new IllegalArgumentException(
            description
                + ": "
                + call
                + " has no partial state, which an updating aggregate keeps its groups in (for"
                + " checkpoints); plan DISTINCT as a two-level aggregate");
      }
    }
    AggregateLayout layout = new AggregateLayout(input, mode, groupKeys, copy);
    this.partial = mode == AggregateMode.PARTIAL;
    this.feed = Feed.of(layout);
    this.stateFeed = Feed.spilledStates(groupKeys.length, copy);
    this.keyCount = groupKeys.length;
    this.stateSchema = UpdatingSnapshot.groupsSchema(layout.keyFields, copy);
    this.output = partial ? layout.output : withRowKind(layout.output);
    this.groups = new GroupStates(context, layout, copy, new Field[copy.size()], description);
    this.feeder = new GroupFeeder(context, groups);
    this.cold =
        partial
            ? null
            : ColdGroups.forGroups(
                context, stateSchema, groupKeys.length, layout.stateCounts, description);
    this.relief = cold == null ? NO_RELIEF : this::evict;
    this.changes =
        partial ? null : new GroupChanges(context, groups, cold, output, sink, description);
  }

  /** The output schema of an operator with these arguments, without creating it. */
  public static Schema outputSchema(
      Schema input, AggregateMode mode, int[] groupKeys, List<AggregateCall> calls) {
    Schema aggregate = HashAggregateOperator.outputSchema(input, mode, groupKeys, calls);
    return mode == AggregateMode.PARTIAL ? aggregate : withRowKind(aggregate);
  }

  private static Schema withRowKind(Schema schema) {
    List<Field> fields = new ArrayList<>(schema.getFields());
    fields.add(RowKind.FIELD);
    return new Schema(fields);
  }

  /** PARTIAL: keys and partial states; FINAL, SINGLE: keys, final values and the row kind. */
  public Schema outputSchema() {
    return output;
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    try (batch) {
      checkInput(input);
      if (finished || closed) {
        throw new IllegalStateException(description + " received a batch after finish or close");
      }
      started = true;
      if (batch.getRowCount() == 0) {
        return;
      }
      if (partial) {
        feeder.add(batch, feed, this::relieve);
        held = true;
        if (groups.groupCount() >= context.targetBatchRows()) {
          emitPartial();
        }
      } else {
        feeder.add(batch, feed, relief, changes);
      }
    } catch (QuiverException e) {
      throw explained(e);
    }
  }

  /**
   * PARTIAL, the budget refused a batch: emits the groups' partial states (the batch's first rows'
   * too) and forgets them. The feeder calls it only while groups are held.
   */
  private boolean relieve() {
    held = true;
    emitPartial();
    return true;
  }

  private void emitPartial() {
    if (held) {
      groups.emit(sink);
      groups.clear();
      held = false;
    }
  }

  /** FINAL, SINGLE, the budget refused a batch: moves every group to the cold store. */
  private boolean evict() {
    cold.evict(groups);
    groups.clear();
    return true;
  }

  private QuiverException explained(QuiverException e) {
    if (partial || cold != null || e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
      return e;
    }
    return new QuiverException(
        e.code(),
        description
            + " keeps every group in memory and cannot spill them: give the task more memory or"
            + " use more tasks ("
            + e.getMessage()
            + ")",
        e);
  }

  /**
   * PARTIAL: emits the groups' partial states and forgets them. FINAL, SINGLE: emits the changelog
   * rows pending (the groups stay). Watermarks and idle input do the same.
   */
  @Override
  public void flush() {
    if (finished || closed) {
      return;
    }
    if (partial) {
      emitPartial();
    } else {
      changes.flush();
    }
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    if (finished) {
      return;
    }
    try {
      flush();
    } finally {
      finished = true;
      close(); // the state is no longer needed: return its memory now
    }
  }

  /** FINAL and SINGLE: their groups live across checkpoints. PARTIAL holds none at a checkpoint. */
  @Override
  public boolean isStateful() {
    return !partial;
  }

  /**
   * The groups as keys and partial states, and whether a global row was emitted ({@link
   * UpdatingSnapshot}), assembled from {@link #snapshotState(OutputStream)}. Taken after {@link
   * #flush()}, as the task does: changelog rows still pending are not in it.
   */
  @Override
  public byte[] snapshotState() {
    if (partial) {
      return Operator.super.snapshotState();
    }
    return StateStreams.toBytes(this);
  }

  /**
   * Writes the groups in memory batch by batch and the cold groups entry by entry as the store
   * holds them, straight to {@code out} ({@link UpdatingSnapshot}).
   */
  @Override
  public void snapshotState(OutputStream out) throws IOException {
    if (partial) {
      Operator.super.snapshotState(out);
      return;
    }
    if (closed && !finished) {
      throw new IllegalStateException(description + " is closed: it has no state to snapshot");
    }
    UpdatingSnapshot.write(
        out,
        changes.globalWritten(),
        stateSchema,
        finished ? null : groups, // released at finish: no group will change any more
        finished ? null : cold,
        context.targetBatchRows(),
        context.allocator());
  }

  @Override
  public void restoreState(byte[] state) {
    if (partial) {
      Operator.super.restoreState(state);
      return;
    }
    requireNonNull(state, "state is null");
    StateStreams.fromBytes(this, state);
  }

  /**
   * Merges the snapshot's groups in memory into empty groups (spilling to the store when the budget
   * refuses, as a batch does) and puts its cold entries back into the store a chunk at a time;
   * where groups cannot leave memory (no spill space now), the cold entries are decoded and merged
   * too.
   */
  @Override
  public void restoreState(InputStream in) throws IOException {
    if (partial) {
      Operator.super.restoreState(in);
      return;
    }
    requireNonNull(in, "in is null");
    if (started || closed) {
      throw new IllegalStateException(description + " restores its state before any input");
    }
    started = true;
    try {
      boolean written =
          UpdatingSnapshot.read(
              in,
              stateSchema,
              context.allocator(),
              context.targetBatchRows(),
              batch -> {
                try (batch) {
                  feeder.add(batch, stateFeed, relief);
                }
              },
              (keys, values, count) -> {
                if (cold != null) {
                  cold.restore(keys, values, count);
                } else {
                  try (VectorSchemaRoot batch =
                      ColdGroups.decode(
                          stateSchema, keyCount, keys, values, count, context.allocator())) {
                    feeder.add(batch, stateFeed, relief);
                  }
                }
              });
      changes.globalWritten(written);
    } catch (QuiverException e) {
      throw explained(e);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      groups.close();
    } finally {
      try {
        if (changes != null) {
          changes.close();
        }
      } finally {
        if (cold != null) {
          cold.close();
        }
      }
    }
  }

  private void checkInput(int input) {
    if (input != 0) {
      throw new IllegalArgumentException(description + " has one input, not input " + input);
    }
  }

  /** One line: {@code UpdatingAggregate[mode=FINAL, keys=[#0], aggs=[sum(#4), count(*)]]}. */
  @Override
  public String toString() {
    return description;
  }
}
