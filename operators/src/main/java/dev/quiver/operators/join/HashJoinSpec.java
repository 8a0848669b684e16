package dev.quiver.operators.join;

import dev.quiver.operators.OperatorContext;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a hash join is, shared by the parts that run it: the in-memory join of one build side
 * ({@link InMemoryJoin}) and the grace spill ({@link GraceJoin}, {@link JoinPartitions}).
 *
 * @param owner how errors name the operator
 * @param segmentRows build rows per segment (tests use few)
 */
record HashJoinSpec(
    OperatorContext context,
    JoinKind kind,
    Schema buildSchema,
    int[] buildKeys,
    Schema probeSchema,
    int[] probeKeys,
    JoinFilter filter,
    long segmentRows,
    String owner) {

  JoinType type() {
    return kind.type();
  }

  /**
   * Whether probe rows that match nothing are emitted (LEFT, FULL, anti and mark joins): otherwise
   * a probe row whose key is NULL or has no build row can be dropped before it is spilled.
   */
  boolean emitsUnmatchedProbeRows() {
    JoinType type = type();
    return type.padsLeft() || type == JoinType.LEFT_ANTI || type == JoinType.LEFT_MARK;
  }

  /** A null-aware anti join (NOT IN) whose build side has a NULL key emits nothing at all. */
  boolean emitsNothing(long buildRows, boolean buildHasNullKey) {
    return kind.nullAware() && type() == JoinType.LEFT_ANTI && buildRows > 0 && buildHasNullKey;
  }

  /**
   * The budget a spilling join keeps free while it builds a hash table: what the operators after it
   * (and its own probe side) need once it probes. Without it a build side that just fits would
   * leave them nothing, and they cannot spill for the join.
   */
  long headroom() {
    return context.budget().limit() / 8;
  }
}
