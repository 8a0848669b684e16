package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.plan.join.JoinKind;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Joins every probe row with every build row and keeps the pairs the {@link JoinFilter} accepts:
 * cross joins (no filter) and joins on conditions without equi keys, for a small build side.
 *
 * <pre>
 *   build (input 0) ──► buffered batches ─┐
 *   probe (input 1) ──► batch ────────────┴─► probe row × build rows, ≤ targetBatchRows pairs
 *                                             at a time ─► filter ─► JoinMatcher ─► sink
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): input 0 is the build side, input 1 the probe side, and
 * the build input is finished before the first probe batch. Left means probe, right means build
 * (see {@link dev.quiver.plan.join.JoinType}); every join type is supported, none null-aware.
 * Output rows follow {@link dev.quiver.plan.join.JoinType#outputSchema}, in no particular order, in
 * batches of at most {@link OperatorContext#targetBatchRows()} rows. The buffered build batches are
 * reserved in the budget. The cost is proportional to probe rows × build rows.
 */
public final class NestedLoopJoinOperator extends BuildProbeJoin {
  private final JoinKind kind;
  private final JoinFilter filter;
  private final int targetRows;
  private final BufferAllocator allocator;
  private final BuildBuffer build;
  private final JoinOutput output;
  private final JoinMatcher matcher;
  private final int[] buildRows;
  private final int[] probeRows;

  /**
   * A nested loop join of {@code kind} over inputs of the given schemas; {@code filter} is the join
   * condition, or null for a cross join.
   */
  public NestedLoopJoinOperator(
      OperatorContext context,
      JoinKind kind,
      Schema buildSchema,
      Schema probeSchema,
      JoinFilter filter,
      BatchSink sink) {
    super(buildSchema, probeSchema);
    requireNonNull(context, "context is null");
    this.kind = requireNonNull(kind, "kind is null");
    if (kind.nullAware()) {
      throw new IllegalArgumentException("a nested loop join cannot be null-aware: " + kind);
    }
    requireNonNull(buildSchema, "buildSchema is null");
    requireNonNull(probeSchema, "probeSchema is null");
    this.filter = filter;
    this.targetRows = context.targetBatchRows();
    this.allocator = context.allocator();
    this.build = new BuildBuffer(context.budget(), toString());
    this.output =
        new JoinOutput(
            kind.type(), probeSchema, buildSchema, context.allocator(), targetRows, sink);
    this.matcher = new JoinMatcher(kind, filter, output, context.budget(), toString(), targetRows);
    this.buildRows = new int[targetRows];
    this.probeRows = new int[targetRows];
  }

  /** The schema of the output batches. */
  public Schema outputSchema() {
    return output.schema();
  }

  @Override
  void addBuild(VectorSchemaRoot batch) {
    build.add(batch);
  }

  @Override
  void buildComplete() {
    // Few large build batches make few, full batches of pairs for the filter.
    QuiverException refused =
        build.compact(
            buildSchema(),
            allocator,
            HashJoinOperator.SEGMENT_ROWS,
            HashJoinOperator.SEGMENT_BYTES);
    if (refused != null) {
      throw refused;
    }
    matcher.buildComplete(build.rowCount(), build.rowCount(), false);
  }

  @Override
  void flushOutput() {
    output.flush();
  }

  @Override
  void probeComplete() {
    matcher.emitBuildRows(build.batches());
    output.flush();
  }

  @Override
  void probe(VectorSchemaRoot probe) {
    matcher.startProbe(probe);
    int probeCount = probe.getRowCount();
    List<VectorSchemaRoot> segments = build.batches();
    int base = 0;
    for (VectorSchemaRoot segment : segments) {
      int buildCount = segment.getRowCount();
      int count = 0;
      for (int p = 0; p < probeCount; p++) {
        for (int b = 0; b < buildCount; b++) {
          buildRows[count] = b;
          probeRows[count] = p;
          if (++count == targetRows) {
            matcher.candidates(segment, base, buildRows, probeRows, count);
            count = 0;
          }
        }
      }
      matcher.candidates(segment, base, buildRows, probeRows, count);
      base += buildCount;
    }
    matcher.endProbe(null);
  }

  @Override
  void release() {
    try (output;
        build;
        matcher) {
      // closes all three, also when one fails
    }
  }

  @Override
  public String toString() {
    return "NestedLoopJoin[type=" + kind + ", filter=" + (filter == null ? "none" : filter) + "]";
  }
}
