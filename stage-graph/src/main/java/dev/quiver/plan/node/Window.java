package dev.quiver.plan.node;

import static java.util.Objects.requireNonNull;

import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.type.SqlType;
import dev.quiver.plan.window.WindowCall;
import dev.quiver.plan.window.WindowFrame;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.plan.window.WindowTopN;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Window functions (OVER) of one PARTITION BY / ORDER BY: exactly what the window operator takes.
 * The output is the input's columns followed by one column per {@link WindowCall}; partitioning and
 * ordering pass through.
 *
 * <pre>
 *   Repartition[hash(partition keys)] ─► Sort[partition keys, order keys] ─► Window ─► ...
 *   (no partition keys: one partition)     (per task)                        (streams partitions)
 * </pre>
 *
 * The operator streams: it needs every row of a window partition in one plan partition, so the
 * input must be hash-partitioned on (a subset of) the partition keys or be a single partition, and
 * each plan partition sorted by the partition keys (any direction, in any order) followed by the
 * order keys exactly. A RANGE frame with an offset needs exactly one order key of a numeric, DATE
 * or TIMESTAMP type.
 *
 * <p>The node may be built before its input is partitioned and sorted so (a single-node plan): the
 * pass that enforces distributions ({@code dev.quiver.plan.distribute.EnforceDistribution}) adds
 * the exchange and the sort, and the stage cutter refuses it otherwise ({@link
 * #checkInputsDistributed}).
 *
 * <p>Over a stream, a window whose PARTITION BY holds an event-time window's end ({@link
 * #withWindowEnd}) runs per complete window: the window and the sort below it get each window's
 * rows once the watermark passes its end.
 */
public final class Window extends PlanNode {
  private static final long serialVersionUID = 1L;

  private final List<Integer> partitionKeys;
  private final List<SortKey> orderKeys;
  private final List<WindowCall> calls;
  private final int windowEnd; // the partition key column of the window end; -1: not windowed
  private final WindowTopN topN; // null: every row of a partition matters

  public Window(
      PlanNode input,
      List<Integer> partitionKeys,
      List<SortKey> orderKeys,
      List<WindowCall> calls) {
    this(input, partitionKeys, orderKeys, calls, -1, null);
  }

  private Window(
      PlanNode input,
      List<Integer> partitionKeys,
      List<SortKey> orderKeys,
      List<WindowCall> calls,
      int windowEnd,
      WindowTopN topN) {
    super(
        List.of(requireNonNull(input, "input is null")),
        schema(input, partitionKeys, orderKeys, calls),
        input.partitioning(),
        input.ordering());
    this.partitionKeys = List.copyOf(partitionKeys);
    this.orderKeys = List.copyOf(orderKeys);
    this.calls = List.copyOf(calls);
    this.windowEnd = windowEnd;
    this.topN = topN;
    PlanChecks.check(
        windowEnd < 0 || this.partitionKeys.contains(windowEnd),
        "Window",
        "the window end #" + windowEnd + " is not one of the partition keys " + this.partitionKeys);
    PlanChecks.check(
        topN == null || (windowEnd >= 0 && onlyRanking(this.calls) && has(topN.function())),
        "Window",
        "a top-N bound ("
            + topN
            + ") needs a window end and ranking functions only, its own among them: "
            + calls);
  }

  /** Whether every call is ROW_NUMBER, RANK or DENSE_RANK: its value depends on earlier rows. */
  private static boolean onlyRanking(List<WindowCall> calls) {
    return calls.stream().allMatch(call -> WindowTopN.isRanking(call.function()));
  }

  /**
   * These window functions over event-time windows: {@code column} (one of the partition keys) is
   * each row's window end, so every window partition lies in one event-time window, complete once
   * the watermark passes its end; the functions run per window then, together with the sort below
   * them, and a row whose window is complete when it arrives is late (dropped). Streaming plans run
   * window functions over unbounded input only this way ({@code dev.quiver.stage.UnboundedInputs}):
   * Flink SQL's window top-N and window deduplication.
   */
  public Window withWindowEnd(int column) {
    return new Window(input(), partitionKeys, orderKeys, calls, column, topN);
  }

  /**
   * These windowed ranking functions, of which only the rows {@code topN} bounds matter (a filter
   * on the rank follows, which drops the others): each event-time window holds the top rows of each
   * partition rather than all its rows (Flink SQL's window top-N). Null for none. Needs a window
   * end ({@link #withWindowEnd}) and ROW_NUMBER, RANK and DENSE_RANK calls only: their value for a
   * row depends on the rows before it in its partition only, which the top rows include.
   */
  public Window withTopN(WindowTopN topN) {
    return new Window(input(), partitionKeys, orderKeys, calls, windowEnd, topN);
  }

  /** The bound on a ranking function above, if the functions run as a window top-N. */
  public Optional<WindowTopN> topN() {
    return Optional.ofNullable(topN);
  }

  /** Whether a bound on the rank could make these functions a window top-N ({@link #withTopN}). */
  public boolean canBeTopN() {
    return windowEnd >= 0 && onlyRanking(calls);
  }

  /** The window end column among the partition keys, if the functions run per event-time window. */
  public OptionalInt windowEnd() {
    return windowEnd < 0 ? OptionalInt.empty() : OptionalInt.of(windowEnd);
  }

  private static RowSchema schema(
      PlanNode input,
      List<Integer> partitionKeys,
      List<SortKey> orderKeys,
      List<WindowCall> calls) {
    requireNonNull(partitionKeys, "partitionKeys is null");
    requireNonNull(orderKeys, "orderKeys is null");
    requireNonNull(calls, "calls is null");
    String node = "Window";
    RowSchema in = input.schema();
    PlanChecks.check(!calls.isEmpty(), node, "needs at least one window call");
    for (int key : partitionKeys) {
      PlanChecks.checkColumn(in, key, node, "partition key #" + key);
    }
    for (SortKey key : orderKeys) {
      PlanChecks.checkColumn(in, key.column(), node, "order key " + key);
    }
    List<Column> columns = new ArrayList<>(in.columns());
    for (WindowCall call : calls) {
      requireNonNull(call, "call is null");
      for (int argument : call.arguments()) {
        PlanChecks.checkColumn(in, argument, node, "an argument of " + call);
      }
      SqlType argumentType = call.arguments().isEmpty() ? null : in.column(call.argument(0)).type();
      if (call.arguments().size() == 2) {
        SqlType defaultType = in.column(call.argument(1)).type();
        if (!defaultType.equals(argumentType)) {
          throw PlanChecks.mismatch(
              node + ": the default of " + call + " is " + defaultType + ", not " + argumentType);
        }
      }
      if (call.frame() != null && call.frame().hasRangeOffset()) {
        checkRangeOffset(in, orderKeys, call);
      }
      columns.add(new Column(call.name(), call.resultType(argumentType), call.resultNullable()));
    }
    return new RowSchema(columns);
  }

  /** Whether {@code ordering} starts with the partition keys, any order, then the order keys. */
  private static boolean sorted(
      List<SortKey> ordering, List<Integer> partitionKeys, List<SortKey> orderKeys) {
    if (partitionKeys.isEmpty() && orderKeys.isEmpty()) {
      return true;
    }
    int p = partitionKeys.size();
    if (ordering.size() < p + orderKeys.size()) {
      return false;
    }
    Set<Integer> leading = new HashSet<>();
    for (int i = 0; i < p; i++) {
      leading.add(ordering.get(i).column());
    }
    boolean sorted = leading.equals(new HashSet<>(partitionKeys));
    for (int i = 0; sorted && i < orderKeys.size(); i++) {
      sorted = ordering.get(p + i).equals(orderKeys.get(i));
    }
    return sorted;
  }

  private static void checkOrdering(
      PlanNode input, List<Integer> partitionKeys, List<SortKey> orderKeys) {
    List<SortKey> ordering = input.ordering();
    if (!sorted(ordering, partitionKeys, orderKeys)) {
      throw PlanChecks.invalid(
          "Window needs its input sorted by the partition keys "
              + Partitioning.columns(partitionKeys)
              + " then the order keys ["
              + Sort.keys(orderKeys)
              + "], but "
              + input
              + " is "
              + (ordering.isEmpty() ? "not sorted" : "sorted by [" + Sort.keys(ordering) + "]")
              + "; sort each partition first");
    }
  }

  private static void checkRangeOffset(RowSchema in, List<SortKey> orderKeys, WindowCall call) {
    PlanChecks.check(
        orderKeys.size() == 1,
        "Window",
        call + " has a RANGE offset, which needs exactly one order key, not " + orderKeys.size());
    SqlType type = in.column(orderKeys.get(0).column()).type();
    PlanChecks.check(
        type.isNumeric() || type.isDatetime(),
        "Window",
        call
            + " has a RANGE offset over an order key of type "
            + type
            + "; it needs a numeric, DATE or TIMESTAMP key");
    for (WindowFrame.Bound bound : List.of(call.frame().start(), call.frame().end())) {
      if (bound.hasOffset() && !type.isFloatingPoint()) {
        int scale = type.isDecimal() ? type.scale() : 0;
        PlanChecks.check(
            bound.offset().stripTrailingZeros().scale() <= scale,
            "Window",
            call
                + ": the offset "
                + bound.offset().toPlainString()
                + " has more fraction digits than the order key's type "
                + type);
      }
    }
  }

  /**
   * Whether every window partition is whole in one plan partition and each plan partition is sorted
   * as the operator needs; see the class comment.
   */
  public boolean inputsDistributed() {
    return input().partitioning().groups(partitionKeys)
        && sorted(input().ordering(), partitionKeys, orderKeys);
  }

  /** Fails unless {@link #inputsDistributed()}; the stage cutter calls this. */
  public void checkInputsDistributed() {
    checkPartitioning(input(), partitionKeys);
    checkOrdering(input(), partitionKeys, orderKeys);
  }

  private static void checkPartitioning(PlanNode input, List<Integer> partitionKeys) {
    Partitioning in = input.partitioning();
    if (!in.groups(partitionKeys)) {
      throw PlanChecks.invalid(
          "Window runs in "
              + in.count()
              + " partitions, so every row of a window partition must be in one plan partition,"
              + " but the input is partitioned "
              + in
              + (partitionKeys.isEmpty()
                  ? "; a window without PARTITION BY needs one partition: coalesce its input to 1"
                  : "; hash-repartition the input on partition key columns "
                      + Partitioning.columns(partitionKeys)));
    }
  }

  public PlanNode input() {
    return child(0);
  }

  /** The PARTITION BY columns (equality only: their order and direction do not matter). */
  public List<Integer> partitionKeys() {
    return partitionKeys;
  }

  /** The ORDER BY keys within a partition; they decide peers and RANGE frames. */
  public List<SortKey> orderKeys() {
    return orderKeys;
  }

  public List<WindowCall> calls() {
    return calls;
  }

  /** Whether the window calls of {@code function} appear in this node. */
  public boolean has(WindowFunction function) {
    return calls.stream().anyMatch(call -> call.function() == function);
  }

  @Override
  protected List<Object> fields() {
    return Arrays.asList(partitionKeys, orderKeys, calls, windowEnd, topN);
  }

  @Override
  public <R> R accept(PlanVisitor<R> visitor) {
    return visitor.visitWindow(this);
  }

  @Override
  public PlanNode withChildren(List<PlanNode> children) {
    return sameChildren(children)
        ? this
        : new Window(children.get(0), partitionKeys, orderKeys, calls, windowEnd, topN);
  }

  /**
   * {@code Window[partition=[#1], order=[#3 ASC NULLS LAST], calls=[rank() AS r, sum(#2) ROWS
   * BETWEEN 2 PRECEDING AND CURRENT ROW AS s]]}, with {@code , window end=#0} when windowed and
   * {@code , keep row_number() <= 3} last for a window top-N.
   */
  @Override
  public String toString() {
    return "Window[partition="
        + Partitioning.columns(partitionKeys)
        + ", order=["
        + Sort.keys(orderKeys)
        + "], calls="
        + calls.stream().map(c -> c + " AS " + c.name()).collect(Collectors.joining(", ", "[", "]"))
        + (windowEnd < 0 ? "" : ", window end=#" + windowEnd)
        + (topN == null ? "" : ", keep " + topN)
        + "]";
  }
}
