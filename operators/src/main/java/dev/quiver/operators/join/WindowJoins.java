package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.CoalescingOutput;
import dev.quiver.operators.kernel.WindowBuffers;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Joins the rows of one complete window after another for a {@link WindowJoinOperator}: a fresh
 * {@link HashJoinOperator} per window (build batches, finish, probe batches, finish), run to the
 * end, its output coalesced with the next windows' until {@link #flush()}.
 *
 * <pre>
 *   window: [build batches] ─► HashJoinOperator ◄─ [probe batches]
 *                                   └─► small batches appended ─► CoalescingOutput ─► sink
 *                                       batches of ≥ target / 2 rows ────────────────► sink
 * </pre>
 *
 * The filter is shared by the joins: they run one after the other, never at once. Not thread-safe.
 */
final class WindowJoins implements AutoCloseable {
  private final OperatorContext context;
  private final JoinKind kind;
  private final Schema buildSchema;
  private final int[] buildKeys;
  private final Schema probeSchema;
  private final int[] probeKeys;
  private final JoinFilter filter;
  private final CoalescingOutput out;

  WindowJoins(
      OperatorContext context,
      JoinKind kind,
      Schema buildSchema,
      int[] buildKeys,
      Schema probeSchema,
      int[] probeKeys,
      JoinFilter filter,
      BatchSink sink,
      String owner) {
    this.context = context;
    this.kind = kind;
    this.buildSchema = buildSchema;
    this.buildKeys = buildKeys;
    this.probeSchema = probeSchema;
    this.probeKeys = probeKeys;
    this.filter = filter;
    this.out = new CoalescingOutput(context, requireNonNull(sink, "sink is null"), owner);
  }

  /**
   * Joins the rows of {@code window}, taking each batch out of it; a window whose rows cannot give
   * any output row (an INNER join with rows on one side only) is left as it is, for the caller to
   * close.
   */
  void join(WindowBuffers.Window window) {
    if (!canEmit(window.has(0), window.has(1))) {
      return;
    }
    try (HashJoinOperator join =
        new HashJoinOperator(
            context, kind, buildSchema, buildKeys, probeSchema, probeKeys, filter, out::add)) {
      for (VectorSchemaRoot batch = window.next(0); batch != null; batch = window.next(0)) {
        join.add(0, batch);
      }
      join.finish(0);
      for (VectorSchemaRoot batch = window.next(1); batch != null; batch = window.next(1)) {
        join.add(1, batch);
      }
      join.finish(1);
    }
  }

  /** Whether a window with rows on the given sides can give an output row. */
  private boolean canEmit(boolean build, boolean probe) {
    JoinType type = kind.type();
    if (build && probe) {
      return true;
    }
    if (probe) { // every probe row is unmatched
      return type.padsLeft() || type == JoinType.LEFT_ANTI || type == JoinType.LEFT_MARK;
    }
    return build && (type.padsRight() || type == JoinType.RIGHT_ANTI); // every build row unmatched
  }

  /** Emits the rows held to fill a batch. */
  void flush() {
    out.flush();
  }

  /** Drops the rows held (never emitted) and releases their reservation. Idempotent. */
  @Override
  public void close() {
    out.close();
  }
}
