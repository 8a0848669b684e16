package dev.quiver.stage;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.join.JoinType;
import dev.quiver.plan.node.Aggregate;
import dev.quiver.plan.node.Exchange;
import dev.quiver.plan.node.HashJoin;
import dev.quiver.plan.node.Limit;
import dev.quiver.plan.node.NestedLoopJoin;
import dev.quiver.plan.node.PlanNode;
import dev.quiver.plan.node.Scan;
import dev.quiver.plan.node.Sort;
import dev.quiver.plan.node.SortPreservingMerge;
import dev.quiver.plan.node.TopK;
import dev.quiver.plan.node.Window;
import java.util.Optional;

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
 *   refused on a stream:      aggregates, sorts, top-n, LIMIT, window functions, a stream as a
 *                             join's build side, RIGHT / FULL joins
 * </pre>
 *
 * The check is on the logical plan, as the SQL planner or {@code PlanBuilder} made it, before the
 * stage planner cuts it.
 */
public final class UnboundedInputs {
  private UnboundedInputs() {}

  /** Whether {@code plan} reads an unbounded table. */
  public static boolean readsUnbounded(PlanNode plan) {
    return firstStream(requireNonNull(plan, "plan is null")).isPresent();
  }

  /**
   * Checks that {@code plan} can run over its unbounded inputs, if it has any.
   *
   * @throws QuiverException {@link ErrorCode#UNSUPPORTED_FEATURE} naming the first operator that
   *     would wait for the end of a stream
   */
  public static void check(PlanNode plan) {
    requireNonNull(plan, "plan is null");
    for (PlanNode child : plan.children()) {
      check(child);
    }
    Optional<String> stream = firstStream(plan);
    if (stream.isEmpty() || plan instanceof Scan || plan instanceof Exchange) {
      return;
    }
    String over = " over the unbounded table '" + stream.get() + "'";
    if (plan instanceof Aggregate) {
      throw refused(
          "an aggregate (GROUP BY, DISTINCT or a set operation)"
              + over
              + " is not supported yet: it would emit only when the stream ends");
    }
    if (plan instanceof Sort || plan instanceof TopK || plan instanceof SortPreservingMerge) {
      throw refused("ORDER BY" + over + " is not supported: a stream is never complete to sort");
    }
    if (plan instanceof Limit) {
      throw refused("LIMIT / OFFSET / FETCH" + over + " is not supported yet");
    }
    if (plan instanceof Window) {
      throw refused("a window function (OVER)" + over + " is not supported yet");
    }
    if (plan instanceof HashJoin join) {
      checkJoin(join.build(), join.kind().type(), stream.get());
    }
    if (plan instanceof NestedLoopJoin join) {
      checkJoin(join.build(), join.kind().type(), stream.get());
    }
  }

  private static void checkJoin(PlanNode build, JoinType type, String stream) {
    Optional<String> buildStream = firstStream(build);
    if (buildStream.isPresent()) {
      throw refused(
          "a join whose both sides are unbounded (the stream '"
              + buildStream.get()
              + "' would have to be held whole) is not supported yet: join a stream with bounded"
              + " tables only");
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

  private static QuiverException refused(String what) {
    return new QuiverException(
        ErrorCode.UNSUPPORTED_FEATURE,
        "Streaming query: " + Character.toUpperCase(what.charAt(0)) + what.substring(1));
  }
}
