package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.changelog.RowKind;
import dev.quiver.plan.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Hash aggregation (GROUP BY) in {@link AggregateMode} PARTIAL, FINAL or SINGLE: exactly what the
 * hash aggregate operator takes (mode, group key columns, calls).
 *
 * <pre>
 *   SINGLE, PARTIAL input: any columns; group keys and call arguments are input column indices
 *   FINAL input = a PARTIAL's output: [key 0 .. key k-1][states of call 0][states of call 1]...
 *   PARTIAL output: keys, then AggregateCall.stateFields of each call
 *   FINAL, SINGLE output: keys, then AggregateCall.resultField of each call
 * </pre>
 *
 * In FINAL mode the group keys and calls are those of the PARTIAL (they name the aggregation); the
 * input is read by position. A FINAL or SINGLE aggregate over more than one partition needs every
 * row of a group in one partition: its input must be hash-partitioned on (a subset of) its group
 * keys, and a global aggregate (no keys) needs a single partition. The node may be built before
 * that holds (a single-node plan): the pass that enforces distributions ({@code
 * dev.quiver.plan.distribute.EnforceDistribution}) adds the exchange, or splits a SINGLE aggregate
 * into PARTIAL, exchange, FINAL; the stage cutter refuses it otherwise ({@link
 * #checkInputsDistributed}).
 *
 * <p>Under an {@link Expand}, the last group key is the grouping id and {@link #globalSets()} are
 * the ids of empty grouping sets ({@code ()}, the grand total of ROLLUP and CUBE): a PARTIAL or
 * SINGLE aggregate starts with one empty group per id (the other keys NULL), so such a set yields
 * its one row also over an empty input, as a global aggregate does. Only the PARTIALs seed (their
 * FINAL merges the seeds into one row per id); a SINGLE that seeds must run in one partition, or
 * each partition would emit the row (checked with the distribution, like the groups).
 */
public final class Aggregate extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final AggregateMode mode;
  private final List<Integer> groupKeys;
  private final List<AggregateCall> calls;
  private final List<Long> globalSets;
  private final int windowEnd; // the group key column of the window end; -1: not windowed
  private final boolean updating; // over a stream, not windowed: a changelog (FINAL, SINGLE)

  public Aggregate(
      PlanNode input, AggregateMode mode, List<Integer> groupKeys, List<AggregateCall> calls) {
    this(input, mode, groupKeys, calls, List.of());
  }

  /** An aggregate that seeds one empty group per grouping id of {@code globalSets}. */
  public Aggregate(
      PlanNode input,
      AggregateMode mode,
      List<Integer> groupKeys,
      List<AggregateCall> calls,
      List<Long> globalSets) {
    this(input, mode, groupKeys, calls, globalSets, -1, false);
  }

  private Aggregate(
      PlanNode input,
      AggregateMode mode,
      List<Integer> groupKeys,
      List<AggregateCall> calls,
      List<Long> globalSets,
      int windowEnd,
      boolean updating) {
    super(
        List.of(requireNonNull(input, "input is null")),
        schema(input, mode, groupKeys, calls, updating),
        partitioning(input, mode, groupKeys),
        List.of());
    this.mode = mode;
    this.groupKeys = List.copyOf(groupKeys);
    this.calls = List.copyOf(calls);
    this.globalSets = List.copyOf(requireNonNull(globalSets, "globalSets is null"));
    checkGlobalSets(input, mode, this.groupKeys, this.globalSets);
    this.windowEnd = windowEnd;
    this.updating = updating;
    if (updating) {
      String node = "Aggregate[" + mode + "]";
      PlanChecks.check(windowEnd < 0, node, "a windowed aggregate is not updating");
      PlanChecks.check(
          this.globalSets.isEmpty(), node, "an updating aggregate has no global grouping sets");
      for (AggregateCall call : this.calls) {
        PlanChecks.check(
            call.hasPartialState(),
            node,
            call
                + " has no mergeable partial state, which an updating aggregate's checkpoints need");
      }
    }
    if (windowEnd >= 0) {
      String node = "Aggregate[" + mode + "]";
      PlanChecks.check(
          this.groupKeys.contains(windowEnd),
          node,
          "the window end #" + windowEnd + " is not one of the group keys " + this.groupKeys);
      PlanChecks.check(
          this.globalSets.isEmpty(), node, "a windowed aggregate has no global grouping sets");
    }
  }

  /**
   * This aggregate over event-time windows: {@code column} (one of the group keys, numbered as they
   * are) is each row's window end, a group is complete once the watermark passes its window's end,
   * and a row whose window is complete when it arrives is late (dropped). Streaming plans aggregate
   * unbounded input only this way ({@code dev.quiver.stage.UnboundedInputs}).
   */
  public Aggregate withWindowEnd(int column) {
    return new Aggregate(input(), mode, groupKeys, calls, globalSets, column, false);
  }

  /**
   * This aggregate over a stream without event-time windows: its result is updating, a changelog. A
   * FINAL or SINGLE aggregate emits, for every batch of input, the groups it changed: {@code +I}
   * for a new group, {@code -U} with the old values then {@code +U} with the new ones for a group
   * it had emitted before, in its output's last column ({@link
   * dev.quiver.plan.changelog.RowKind#FIELD}); a PARTIAL emits its groups' partial states every
   * time its task flushes and forgets them (the FINAL keeps the groups). Every call needs a
   * mergeable partial state (the groups are checkpointed as partial states). {@code
   * dev.quiver.stage.UnboundedInputs} marks such aggregates.
   */
  public Aggregate updating() {
    return new Aggregate(input(), mode, groupKeys, calls, globalSets, -1, true);
  }

  /** Whether this aggregate's result is a changelog ({@link #updating()}). */
  public boolean isUpdating() {
    return updating;
  }

  /** Whether the output ends with the row kind column: an updating FINAL or SINGLE aggregate. */
  public boolean emitsChangelog() {
    return updating && mode != AggregateMode.PARTIAL;
  }

  /** The window end column among the group keys, if the aggregate is over event-time windows. */
  public OptionalInt windowEnd() {
    return windowEnd < 0 ? OptionalInt.empty() : OptionalInt.of(windowEnd);
  }

  private static void checkGlobalSets(
      PlanNode input, AggregateMode mode, List<Integer> groupKeys, List<Long> globalSets) {
    if (globalSets.isEmpty()) {
      return;
    }
    String node = "Aggregate[" + mode + "]";
    PlanChecks.check(
        mode != AggregateMode.FINAL,
        node,
        "global grouping sets are seeded by the PARTIAL aggregates; the FINAL merges them");
    PlanChecks.check(!groupKeys.isEmpty(), node, "global grouping sets need a grouping id key");
    Column id = input.schema().column(groupKeys.get(groupKeys.size() - 1));
    PlanChecks.check(
        id.type().equals(SqlType.BIGINT) && !id.nullable(),
        node,
        "the last group key is the grouping id of global grouping sets and must be BIGINT NOT"
            + " NULL, not "
            + id);
  }

  private static RowSchema schema(
      PlanNode input,
      AggregateMode mode,
      List<Integer> groupKeys,
      List<AggregateCall> calls,
      boolean updating) {
    requireNonNull(mode, "mode is null");
    requireNonNull(groupKeys, "groupKeys is null");
    requireNonNull(calls, "calls is null");
    String node = "Aggregate[" + mode + "]";
    RowSchema in = input.schema();
    List<Column> columns = new ArrayList<>();
    int[] keyColumns = keyColumns(mode, groupKeys);
    for (int i = 0; i < keyColumns.length; i++) {
      PlanChecks.checkColumn(in, keyColumns[i], node, "group key " + i);
      columns.add(in.column(keyColumns[i]));
    }
    int state = keyColumns.length;
    for (AggregateCall call : calls) {
      requireNonNull(call, "call is null");
      PlanChecks.check(
          mode == AggregateMode.SINGLE || call.hasPartialState(),
          node,
          call
              + " has no mergeable partial state: run it in a SINGLE aggregate after a hash"
              + " repartition on the group keys");
      if (mode == AggregateMode.FINAL) {
        for (Field expected : AggregateCall.stateFields(call)) {
          PlanChecks.checkColumn(in, state, node, "state " + expected.getName() + " of " + call);
          checkType(in.column(state), expected.getType(), call, node);
          state++;
        }
      } else {
        if (call.argument() != AggregateCall.NO_ARGUMENT) {
          PlanChecks.checkColumn(in, call.argument(), node, "the argument of " + call);
          checkType(in.column(call.argument()), call.argumentType().orElseThrow(), call, node);
        }
        if (call.by() != AggregateCall.NO_ARGUMENT) {
          PlanChecks.checkColumn(in, call.by(), node, "the second argument of " + call);
          checkType(in.column(call.by()), call.byType().orElseThrow(), call, node);
        }
        if (call.hasFilter()) { // FINAL merges states that PARTIAL filtered
          PlanChecks.checkColumn(in, call.filter(), node, "the FILTER column of " + call);
          checkType(in.column(call.filter()), ArrowType.Bool.INSTANCE, call, node);
        }
      }
      if (mode == AggregateMode.PARTIAL) {
        for (Field field : AggregateCall.stateFields(call)) {
          columns.add(Column.fromArrow(field));
        }
      } else {
        columns.add(Column.fromArrow(call.resultField()));
      }
    }
    PlanChecks.check(
        mode != AggregateMode.FINAL || state == in.size(),
        node,
        "the input has "
            + in.size()
            + " columns, but the keys and partial states of "
            + calls
            + " are "
            + state);
    if (updating && mode != AggregateMode.PARTIAL) {
      columns.add(Column.fromArrow(RowKind.FIELD));
    }
    return new RowSchema(columns);
  }

  /** The input columns of the group keys: FINAL reads them from the front of its input. */
  private static int[] keyColumns(AggregateMode mode, List<Integer> groupKeys) {
    int[] columns = new int[groupKeys.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = mode == AggregateMode.FINAL ? i : groupKeys.get(i);
    }
    return columns;
  }

  private static void checkType(
      Column column, ArrowType expected, AggregateCall call, String node) {
    if (!column.type().arrow().equals(expected)) {
      throw PlanChecks.mismatch(
          node + ": " + call + " expects " + expected + " but the input column is " + column);
    }
  }

  private static Partitioning partitioning(
      PlanNode input, AggregateMode mode, List<Integer> groupKeys) {
    int[] keyColumns = keyColumns(mode, groupKeys);
    List<Integer> keys = Arrays.stream(keyColumns).boxed().collect(Collectors.toList());
    Partitioning in = input.partitioning();
    // Over an input that does not group the keys yet, no hash key survives the remap: unknown.
    int[] newIndex = new int[input.schema().size()];
    Arrays.fill(newIndex, -1);
    for (int i = keyColumns.length - 1; i >= 0; i--) {
      newIndex[keyColumns[i]] = i;
    }
    return in.remap(newIndex);
  }

  public PlanNode input() {
    return child(0);
  }

  public AggregateMode mode() {
    return mode;
  }

  /** The group key columns, as the operator takes them (in FINAL mode: the PARTIAL's). */
  public List<Integer> groupKeys() {
    return groupKeys;
  }

  public List<AggregateCall> calls() {
    return calls;
  }

  /**
   * The input columns the groups are keyed by: the group keys, or in FINAL mode the leading key
   * columns of the PARTIAL's output.
   */
  public List<Integer> inputKeyColumns() {
    return Arrays.stream(keyColumns(mode, groupKeys)).boxed().collect(Collectors.toList());
  }

  /**
   * Whether every group is whole in one input partition, or the mode does not need it; a SINGLE
   * aggregate that seeds global grouping sets needs one partition (else each would emit the row).
   */
  public boolean inputsDistributed() {
    if (mode == AggregateMode.SINGLE && !globalSets.isEmpty()) {
      return input().partitions() == 1;
    }
    return mode == AggregateMode.PARTIAL || input().partitioning().groups(inputKeyColumns());
  }

  /** Fails unless {@link #inputsDistributed()}; the stage cutter calls this. */
  public void checkInputsDistributed() {
    List<Integer> keys = inputKeyColumns();
    Partitioning in = input().partitioning();
    PlanChecks.check(
        mode != AggregateMode.SINGLE || globalSets.isEmpty() || in.count() == 1,
        "Aggregate[" + mode + "]",
        "seeds global grouping sets "
            + globalSets
            + " in each of its "
            + in.count()
            + " partitions: coalesce its input to 1 or aggregate in two phases");
    PlanChecks.check(
        inputsDistributed(),
        "Aggregate[" + mode + "]",
        "runs in "
            + in.count()
            + " partitions, so every row of a group must be in one partition, but the input"
            + " is partitioned "
            + in
            + (keys.isEmpty()
                ? "; a global aggregate needs one partition: coalesce its input to 1"
                : "; hash-repartition the input on group key columns " + keys));
  }

  /** The grouping ids whose empty group exists before any input; see the class comment. */
  public List<Long> globalSets() {
    return globalSets;
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(mode, groupKeys, calls, globalSets, windowEnd, updating);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitAggregate(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children)
        ? this
        : new Aggregate(children.get(0), mode, groupKeys, calls, globalSets, windowEnd, updating);
  }

  /** {@code Aggregate[PARTIAL, keys=[#1], calls=[sum(#2) AS total, count(*) AS n]]}. */
  @Override
  public String toString() {
    return "Aggregate["
        + mode
        + ", keys="
        + Partitioning.columns(groupKeys)
        + ", calls="
        + calls.stream().map(c -> c + " AS " + c.name()).collect(Collectors.joining(", ", "[", "]"))
        + (globalSets.isEmpty() ? "" : ", global sets=" + globalSets)
        + (windowEnd < 0 ? "" : ", window end=#" + windowEnd)
        + (updating ? ", updating" : "")
        + "]";
  }
}
