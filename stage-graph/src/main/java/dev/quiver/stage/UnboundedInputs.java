package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.changelog.RowKind;
import dev.quiver.plan.expr.Call;
import dev.quiver.plan.expr.ColumnRef;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.FunctionCall;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.join.EventTimeJoin;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.Exchange;
import dev.quiver.plan.node.Filter;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.LimitScope;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Project;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.SortPreservingMerge;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.node.Window;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What a plan over unbounded tables (streams: {@link dev.quiver.plan.node.TableSource#isUnbounded})
 * can run. A stream never ends, so an operator that emits only at the end of its input would never
 * emit: such plans are refused before a job starts, with one line naming the operator and the
 * stream, instead of running forever without output.
 *
 * <pre>
 *   row by row on a stream:   scan, filter, projection, UNION ALL, exchanges, repeated rows
 *   a stream joined:          as the probe side of a join whose build side is bounded, when no
 *                             unmatched build row has to be emitted (INNER, LEFT, semi, anti, mark)
 *   two streams joined:       on a pair of window ends (a window join: each window's rows are
 *                             joined once the watermark passes its end; every join type), or
 *                             with one side's event time bounded by the other's (an interval
 *                             join: INNER, LEFT, RIGHT or FULL, an unmatched row padded once
 *                             the watermark passes its interval): {@link HashJoin#withEventTime}
 *   aggregated on a stream:   GROUP BY the window_end of TUMBLE / HOP / CUMULATE (Flink SQL's
 *                             window table functions): each window's groups are emitted once the
 *                             watermark passes its end ({@link Aggregate#withWindowEnd})
 *                             any other GROUP BY (or DISTINCT, or a global aggregate) whose calls
 *                             have mergeable states: an updating result, a changelog of the groups
 *                             each batch changes ({@link Aggregate#updating()}, {@link
 *                             #isChangelog}); only filters and projections may follow it, which
 *                             carry its row kind column through
 *   window functions:         PARTITION BY the window_end of such a window (Flink SQL's window
 *                             top-N and window deduplication: ROW_NUMBER() OVER (PARTITION BY
 *                             window_start, window_end ORDER BY ...) <= n): each window's rows
 *                             are sorted and numbered once the watermark passes its end ({@link
 *                             Window#withWindowEnd}, with the sort below it); with a filter that
 *                             bounds the rank (rn <= n), each window holds only the top rows of
 *                             each partition ({@link Window#withTopN}, {@link RankBounds})
 *   refused on a stream:      aggregates without mergeable states (MEDIAN, COUNT(DISTINCT)),
 *                             anything but a filter or projection over an updating result,
 *                             sorts, top-n, LIMIT, other window functions, a
 *                             stream as a join's build side (but in a window join), RIGHT / FULL
 *                             joins with a table
 * </pre>
 *
 * {@link #prepare} marks the windowed aggregates, window functions and window joins and checks the
 * rest, on the plan as the SQL planner or {@code PlanBuilder} made it, before the stage planner
 * cuts it. A group key is a window end when it is computed, over the rows of a stream, as the
 * window table functions compute it: {@code time_bucket(width, ts, origin) + interval} (TUMBLE,
 * CUMULATE) or {@code time_bucket(width, ts, origin) - shift + size} (HOP), where {@code ts} is the
 * stream's declared event-time column; such an end is later than the row's event time, so the
 * watermark passing it means no more rows of the window are to come. The window end group key of a
 * windowed aggregate and the window ends of a window join's sides are window ends downstream too
 * (an aggregate of windowed counts per window, a window join of two windowed aggregates), and so
 * are the input columns of a windowed window function (the top-N of windowed counts).
 *
 * <p>A window function's input sorted for it (the {@code Sort} the distribution pass puts below a
 * {@code Window}) is no sort of the stream when the window is marked: the two run together per
 * complete window, so {@link #check} accepts such a sort under a marked window only.
 */
public final class UnboundedInputs {
  private UnboundedInputs() {}

  /** Whether {@code plan} reads an unbounded table. */
  public static boolean readsUnbounded(PlanNode plan) {
    return firstStream(requireNonNull(plan, "plan is null")).isPresent();
  }

  /**
   * {@code plan} with its aggregates over event-time windows of streams marked ({@link
   * Aggregate#withWindowEnd}), checked as {@link #check} does; a plan without streams unchanged.
   *
   * @throws QuiverException {@link ErrorCode#UNSUPPORTED_FEATURE} naming the first operator that
   *     would wait for the end of a stream
   */
  public static PlanNode prepare(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    if (!readsUnbounded(plan)) {
      return plan;
    }
    PlanNode windowed = windowed(plan, new IdentityHashMap<>());
    check(windowed);
    return windowed;
  }

  /**
   * {@code node} marked, bottom up; {@code streams} learns of every node returned whether it reads
   * a stream, so that no subtree is walked twice.
   */
  private static PlanNode windowed(PlanNode node, Map<PlanNode, Boolean> streams) {
    List<PlanNode> children = new ArrayList<>();
    boolean stream = node instanceof Scan scan && scan.source().isUnbounded();
    for (PlanNode child : node.children()) {
      PlanNode marked = windowed(child, streams);
      children.add(marked);
      stream |= streams.get(marked);
    }
    PlanNode marked = marked(node.withChildren(children), stream, streams);
    streams.put(marked, stream);
    return marked;
  }

  private static PlanNode marked(PlanNode rebuilt, boolean stream, Map<PlanNode, Boolean> streams) {
    if (!stream) {
      return rebuilt;
    }
    if (rebuilt instanceof Project project
        && isChangelog(project.input())
        && !carriesRowKind(project)) {
      return withRowKind(project);
    }
    if (rebuilt instanceof HashJoin join) {
      return streams.get(join.build()) && streams.get(join.probe()) ? streamJoin(join) : join;
    }
    if (rebuilt instanceof Window window) {
      return windowedFunctions(window);
    }
    if (rebuilt instanceof Filter filter) {
      return RankBounds.of(filter).orElse(filter); // a window top-N: rn <= n over its window
    }
    if (!(rebuilt instanceof Aggregate aggregate)
        || aggregate.windowEnd().isPresent()
        || aggregate.isUpdating()) {
      return rebuilt;
    }
    if (aggregate.mode() == AggregateMode.FINAL) {
      // Its input is the PARTIAL's output, behind an exchange: the same keys, the same window end.
      PlanNode below = aggregate.input();
      while (below instanceof Exchange) {
        below = below.child(0);
      }
      if (below instanceof Aggregate partial && partial.windowEnd().isPresent()) {
        return aggregate.withWindowEnd(partial.windowEnd().getAsInt());
      }
      return below instanceof Aggregate partial && partial.isUpdating()
          ? aggregate.updating()
          : aggregate;
    }
    for (int key : aggregate.groupKeys()) {
      if (isWindowEnd(aggregate.input(), key)) {
        return aggregate.withWindowEnd(key);
      }
    }
    return canUpdate(aggregate) ? aggregate.updating() : aggregate;
  }

  /**
   * Whether {@code aggregate} (over a stream, not windowed) can emit its result as a changelog:
   * over rows that are only ever added (no changelog below it), without global grouping sets, and
   * with a mergeable partial state for every call (its groups are checkpointed as partial states).
   */
  private static boolean canUpdate(Aggregate aggregate) {
    return !isChangelog(aggregate.input())
        && aggregate.globalSets().isEmpty()
        && aggregate.calls().stream().allMatch(call -> call.hasPartialState());
  }

  /**
   * Whether {@code node}'s result is updating, a changelog whose last column is the row kind
   * ({@link dev.quiver.plan.changelog.RowKind}): an updating FINAL or SINGLE aggregate ({@link
   * Aggregate#updating()}), and the filters, projections and exchanges above it, which carry the
   * row kind through. Every other node over a changelog is refused by {@link #check}.
   */
  public static boolean isChangelog(PlanNode node) {
    requireNonNull(node, "node is null");
    if (node instanceof Aggregate aggregate) {
      return aggregate.emitsChangelog();
    }
    if (node instanceof Filter || node instanceof Exchange) {
      return isChangelog(node.child(0));
    }
    return node instanceof Project project
        && isChangelog(project.input())
        && carriesRowKind(project);
  }

  /**
   * The columns of the changelog {@code node} ({@link #isChangelog}) that key its rows: those that
   * carry the group keys of the updating aggregate under it, through filters, exchanges and
   * projections that pass every one of them on as it is. Empty when the aggregate has no group key
   * (a global aggregate) or a projection drops or computes over one: then no set of output columns
   * is known to identify a group.
   */
  public static Optional<Set<Integer>> upsertKey(PlanNode node) {
    requireNonNull(node, "node is null");
    if (node instanceof Aggregate aggregate && aggregate.emitsChangelog()) {
      int keys = aggregate.groupKeys().size();
      return keys == 0
          ? Optional.empty()
          : Optional.of(IntStream.range(0, keys).boxed().collect(Collectors.toSet()));
    }
    if (node instanceof Filter || node instanceof Exchange) {
      return upsertKey(node.child(0));
    }
    if (node instanceof Project project && isChangelog(project)) {
      return upsertKey(project.input())
          .flatMap(
              below -> {
                Set<Integer> key = new HashSet<>();
                Set<Integer> passed = new HashSet<>();
                List<Expr> expressions = project.expressions();
                for (int column = 0; column < expressions.size() - 1; column++) {
                  if (expressions.get(column) instanceof ColumnRef ref
                      && below.contains(ref.index())
                      && passed.add(ref.index())) {
                    key.add(column);
                  }
                }
                return passed.equals(below) ? Optional.of(key) : Optional.empty();
              });
    }
    return Optional.empty();
  }

  /** Whether {@code project}'s last expression reads its input's last column, the row kind. */
  private static boolean carriesRowKind(Project project) {
    List<Expr> expressions = project.expressions();
    return !expressions.isEmpty()
        && expressions.get(expressions.size() - 1) instanceof ColumnRef ref
        && ref.index() == project.input().schema().size() - 1;
  }

  /** {@code project} with its input's row kind appended as its last column. */
  private static Project withRowKind(Project project) {
    List<Expr> expressions = new ArrayList<>(project.expressions());
    List<String> names = new ArrayList<>(project.names());
    int kind = project.input().schema().size() - 1;
    Column column = project.input().schema().column(kind);
    expressions.add(new ColumnRef(kind, column.type(), column.nullable(), column.name()));
    names.add(RowKind.COLUMN);
    return new Project(project.input(), expressions, names);
  }

  /**
   * {@code window}, which reads a stream, over event-time windows when one of its partition keys is
   * a window end ({@link Window#withWindowEnd}); else unchanged (and refused by {@link #check}).
   */
  private static Window windowedFunctions(Window window) {
    if (window.windowEnd().isPresent()) {
      return window;
    }
    for (int key : window.partitionKeys()) {
      if (isWindowEnd(window.input(), key)) {
        return window.withWindowEnd(key);
      }
    }
    return window;
  }

  /**
   * {@code join}, both of whose sides read streams, as a join of two streams bounded by event time
   * ({@link EventTimeJoin}): a window join when a pair of its keys are both sides' window ends
   * (Flink SQL's window join: {@code ON L.window_end = R.window_end AND ...}), else an interval
   * join when its condition bounds the probe side's time by the build side's from below and above
   * ({@code L.ts BETWEEN R.ts - INTERVAL '10' SECOND AND R.ts}); else unchanged (and refused by
   * {@link #check}).
   */
  private static HashJoin streamJoin(HashJoin join) {
    if (join.eventTime().isPresent()) {
      return join;
    }
    for (int i = 0; i < join.buildKeys().size(); i++) {
      int build = join.buildKeys().get(i);
      int probe = join.probeKeys().get(i);
      if (isWindowEnd(join.build(), build) && isWindowEnd(join.probe(), probe)) {
        return join.withEventTime(EventTimeJoin.window(build, probe));
      }
    }
    return TimeBounds.of(join).map(join::withEventTime).orElse(join);
  }

  /** Whether column {@code column} of {@code node} is an event time or a window end. */
  static boolean isTime(PlanNode node, int column) {
    return isEventTime(node, column) || isWindowEnd(node, column);
  }

  /** Whether column {@code column} of {@code node} is an event-time window's end (see above). */
  private static boolean isWindowEnd(PlanNode node, int column) {
    if (node instanceof Project project) {
      Expr expr = project.expressions().get(column);
      return expr instanceof ColumnRef ref
          ? isWindowEnd(project.input(), ref.index())
          : isWindowEndExpr(expr, project.input());
    }
    if (node instanceof Filter || node instanceof Exchange || node instanceof Sort) {
      return isWindowEnd(node.child(0), column);
    }
    if (node instanceof Window window && window.windowEnd().isPresent()) {
      // Per window: the input's columns pass through, the functions' results are no window ends.
      return column < window.input().schema().size() && isWindowEnd(window.input(), column);
    }
    if (node instanceof HashJoin join && join.eventTime().isPresent()) {
      if (join.eventTime().get().kind() != EventTimeJoin.Kind.WINDOW) {
        return false;
      }
      // A window join: the output columns are the probe side's, then (if it keeps them) the
      // build side's; each side's window ends stay window ends (the window is whole when joined).
      int probeColumns = join.probe().schema().size();
      return column < probeColumns
          ? isWindowEnd(join.probe(), column)
          : isWindowEnd(join.build(), column - probeColumns);
    }
    if (node instanceof HashJoin || node instanceof NestedLoopJoin) {
      PlanNode probe =
          node instanceof HashJoin join ? join.probe() : ((NestedLoopJoin) node).probe();
      // Output columns: the probe side's first (a window comes from the stream, the probe side).
      return column < probe.schema().size() && isWindowEnd(probe, column);
    }
    if (node instanceof Aggregate aggregate && aggregate.windowEnd().isPresent()) {
      return column < aggregate.groupKeys().size()
          && aggregate.groupKeys().get(column) == aggregate.windowEnd().getAsInt();
    }
    return false;
  }

  /**
   * {@code start + x}, where start is a window start over the event time: computed in place ({@link
   * #isWindowStartExpr}) or a column of {@code input} computed so ({@link #isWindowStart}).
   */
  private static boolean isWindowEndExpr(Expr expr, PlanNode input) {
    if (!(expr instanceof Call add) || add.function() != ScalarFunction.ADD) {
      return false;
    }
    Expr start = add.arg(0);
    return start instanceof ColumnRef ref
        ? isWindowStart(input, ref.index())
        : isWindowStartExpr(start, input);
  }

  /** Whether column {@code column} of {@code node} is a window start (as read through columns). */
  private static boolean isWindowStart(PlanNode node, int column) {
    if (node instanceof Project project) {
      Expr expr = project.expressions().get(column);
      return expr instanceof ColumnRef ref
          ? isWindowStart(project.input(), ref.index())
          : isWindowStartExpr(expr, project.input());
    }
    if (node instanceof Filter || node instanceof Exchange) {
      return isWindowStart(node.child(0), column);
    }
    return false;
  }

  /** {@code time_bucket(w, ts, o)} or {@code time_bucket(w, ts, o) - k}, ts the event time. */
  private static boolean isWindowStartExpr(Expr start, PlanNode input) {
    if (start instanceof Call subtract && subtract.function() == ScalarFunction.SUBTRACT) {
      start = subtract.arg(0);
    }
    return start instanceof FunctionCall bucket
        && bucket.name().equals("time_bucket")
        && bucket.args().size() >= 2
        && bucket.arg(1) instanceof ColumnRef ts
        && isEventTime(input, ts.index());
  }

  /** Whether column {@code column} of {@code node} is a stream's declared event time, as read. */
  private static boolean isEventTime(PlanNode node, int column) {
    if (node instanceof Scan scan) {
      String name = scan.source().schema().column(column).name();
      return scan.source().isUnbounded()
          && scan.source().eventTime().map(time -> time.column().equals(name)).orElse(false);
    }
    if (node instanceof Project project) {
      return project.expressions().get(column) instanceof ColumnRef ref
          && isEventTime(project.input(), ref.index());
    }
    if (node instanceof Filter || node instanceof Exchange) {
      return isEventTime(node.child(0), column);
    }
    if (node instanceof HashJoin join && join.eventTime().isPresent()) {
      return false; // a join of two streams emits rows once the watermark has passed them
    }
    if (node instanceof HashJoin || node instanceof NestedLoopJoin) {
      PlanNode probe =
          node instanceof HashJoin join ? join.probe() : ((NestedLoopJoin) node).probe();
      return column < probe.schema().size() && isEventTime(probe, column);
    }
    return false;
  }

  /**
   * Checks that {@code plan} can run over its unbounded inputs, if it has any.
   *
   * @throws QuiverException {@link ErrorCode#UNSUPPORTED_FEATURE} naming the first operator that
   *     would wait for the end of a stream
   */
  public static void check(PlanNode plan) {
    checked(requireNonNull(plan, "plan is null"));
  }

  /** Checks {@code plan}'s subtree, bottom up; the first unbounded table it scans. */
  private static Optional<String> checked(PlanNode plan) {
    Optional<String> stream = Optional.empty();
    for (PlanNode child : checkedChildren(plan)) {
      Optional<String> childStream = checked(child);
      if (stream.isEmpty()) {
        stream = childStream;
      }
    }
    if (plan instanceof Scan scan) {
      return scan.source().isUnbounded() ? Optional.of(scan.source().name()) : Optional.empty();
    }
    if (stream.isEmpty() || plan instanceof Exchange) {
      return stream;
    }
    String over = " over the unbounded table '" + stream.get() + "'";
    if (!(plan instanceof Filter || plan instanceof Project)
        && checkedChildren(plan).stream().anyMatch(UnboundedInputs::isChangelog)) {
      throw refused(
          describe(plan)
              + " over an updating result (a GROUP BY without an event-time window"
              + over
              + ", which changes rows it emitted) is not supported yet: only filters and"
              + " projections can follow it; group by the window_end of TUMBLE, HOP or CUMULATE"
              + " to get rows that never change");
    }
    if (plan instanceof Aggregate aggregate
        && aggregate.windowEnd().isEmpty()
        && !aggregate.isUpdating()) {
      throw refused(
          "an aggregate (GROUP BY, DISTINCT or a set operation)"
              + over
              + " without an event-time window is supported only when every aggregate function"
              + " has a mergeable state (not "
              + aggregate.calls().stream()
                  .filter(call -> !call.hasPartialState())
                  .map(String::valueOf)
                  .findFirst()
                  .orElse("ROLLUP, CUBE or GROUPING SETS with a grand total")
              + "): group by the window_end of an event-time window (TUMBLE, HOP or CUMULATE over"
              + " the table's WATERMARK column) instead");
    }
    if (plan instanceof Sort || plan instanceof TopK || plan instanceof SortPreservingMerge) {
      throw refused("ORDER BY" + over + " is not supported: a stream is never complete to sort");
    }
    if (plan instanceof Limit) {
      throw refused("LIMIT / OFFSET / FETCH" + over + " is not supported yet");
    }
    if (plan instanceof Window window && window.windowEnd().isEmpty()) {
      throw refused(
          "a window function (OVER)"
              + over
              + " must be partitioned by the window_end of an event-time window (PARTITION BY"
              + " window_start, window_end of TUMBLE, HOP or CUMULATE over the table's WATERMARK"
              + " column, as Flink SQL's window top-N); other window functions of a stream are not"
              + " supported yet: they would emit only when the stream ends");
    }
    if (plan instanceof HashJoin join && join.eventTime().isEmpty()) {
      checkJoin(join.build(), join.kind().type(), stream.get());
    }
    if (plan instanceof HashJoin join
        && join.eventTime().map(time -> time.kind() == EventTimeJoin.Kind.INTERVAL).orElse(false)
        && !join.kind().type().emitsPairs()) {
      throw refused(
          "an interval join of two streams is supported as an INNER, LEFT, RIGHT or FULL join"
              + " only, not "
              + join.kind().type().name().replace('_', ' ')
              + " ('"
              + stream.get()
              + "')");
    }
    if (plan instanceof NestedLoopJoin join) {
      checkJoin(join.build(), join.kind().type(), stream.get());
    }
    return stream;
  }

  /**
   * The children whose subtrees {@link #checked} checks: those of {@code plan}, but below a window
   * the input of the sort of each partition that feeds it, which runs per window with it when the
   * window is marked (the window is refused otherwise, which says more than refusing its sort).
   */
  private static List<PlanNode> checkedChildren(PlanNode plan) {
    if (plan instanceof Window window
        && window.input() instanceof Sort sort
        && sort.scope() == LimitScope.LOCAL) {
      return List.of(sort.input());
    }
    return plan.children();
  }

  private static void checkJoin(PlanNode build, JoinType type, String stream) {
    Optional<String> buildStream = firstStream(build);
    if (buildStream.isPresent()) {
      throw refused(
          "a join whose both sides are unbounded (the stream '"
              + buildStream.get()
              + "' would have to be held whole) must be a window join or an interval join, as in"
              + " Flink SQL: join the two sides' event-time windows on their window_end (TUMBLE,"
              + " HOP or CUMULATE, or GROUP BY window_start, window_end), or bound one side's"
              + " event time by the other's (a.ts BETWEEN b.ts - INTERVAL '10' SECOND AND b.ts)");
    }
    if (type == JoinType.RIGHT
        || type == JoinType.FULL
        || type == JoinType.RIGHT_SEMI
        || type == JoinType.RIGHT_ANTI) {
      throw refused(
          "a "
              + type.name().replace('_', ' ')
              + " join of the unbounded table '"
              + stream
              + "' is not supported: the table's unmatched rows would be known only when the stream"
              + " ends");
    }
  }

  /** The name of the first unbounded table {@code plan} scans. */
  private static Optional<String> firstStream(PlanNode plan) {
    if (plan instanceof Scan scan) {
      return scan.source().isUnbounded() ? Optional.of(scan.source().name()) : Optional.empty();
    }
    for (PlanNode child : plan.children()) {
      Optional<String> stream = firstStream(child);
      if (stream.isPresent()) {
        return stream;
      }
    }
    return Optional.empty();
  }

  /** What {@code plan} is, for a message: {@code a join}, {@code an aggregate}, ... */
  private static String describe(PlanNode plan) {
    if (plan instanceof Aggregate) {
      return "an aggregate (GROUP BY, DISTINCT, COUNT(DISTINCT ...) or a set operation)";
    }
    if (plan instanceof HashJoin || plan instanceof NestedLoopJoin) {
      return "a join";
    }
    if (plan instanceof Window) {
      return "a window function (OVER)";
    }
    if (plan instanceof Sort || plan instanceof TopK || plan instanceof SortPreservingMerge) {
      return "ORDER BY";
    }
    if (plan instanceof Limit) {
      return "LIMIT";
    }
    String name = plan.getClass().getSimpleName();
    return name.equals("Union") ? "UNION ALL" : "a " + name;
  }

  private static QuiverException refused(String what) {
    return new QuiverException(
        ErrorCode.UNSUPPORTED_FEATURE,
        "Streaming query: " + Character.toUpperCase(what.charAt(0)) + what.substring(1));
  }
}
