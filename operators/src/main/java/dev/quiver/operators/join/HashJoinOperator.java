package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An equi join: the build input is held in a hash table, the probe input streams through it.
 *
 * <pre>
 *   build (input 0) ─► BuildBuffer ─finish(0)─► segments ─► JoinHashTable (key → group → row chain)
 *   probe (input 1) ─► hash, find group, walk chains ─► (build row, probe row) pairs, ≤ target
 *                      at a time ─► residual filter ─► JoinMatcher ─► JoinOutput ─► sink
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): input 0 is the build side, input 1 the probe side, and
 * the build input is finished before the first probe batch. Left means probe, right means build
 * (see {@link JoinType}, which also defines the output schema). Rows match when their key columns
 * ({@code buildKeys[i]} of the build side, {@code probeKeys[i]} of the probe side, of equal types)
 * are equal under SQL equality (a NULL key matches nothing) and the optional {@link JoinFilter}
 * accepts the pair. Null-aware joins (NOT IN / IN) take exactly one key and no filter. Output rows
 * come in no particular order, in batches of at most {@link OperatorContext#targetBatchRows()} rows
 * however large a key's fan-out. The build batches, the hash table, the row chains and the matched
 * flags are reserved in the budget; exceeding it fails with {@code MEMORY_BUDGET_EXCEEDED} naming
 * this operator.
 */
public final class HashJoinOperator extends BuildProbeJoin {
  /** Build rows per segment: large, so that probing gathers from few sources. */
  static final long SEGMENT_ROWS = 1 << 24;

  /** Build bytes per segment: keeps string columns far below the 2 GiB offset limit. */
  static final long SEGMENT_BYTES = 1L << 30;

  private final JoinKind kind;
  private final JoinType type;
  private final int[] buildKeys;
  private final int[] probeKeys;
  private final JoinFilter filter;
  private final BufferAllocator allocator;
  private final MemoryBudget budget;
  private final int targetRows;
  private final long segmentRows;
  private final BuildBuffer build;
  private final JoinOutput output;
  private final JoinMatcher matcher;
  private final ProbeScratch scratch;
  private JoinHashTable table;

  /**
   * A hash join of {@code kind} on {@code buildKeys} = {@code probeKeys} (column indices of the two
   * inputs) with the residual condition {@code filter}, or null for none.
   */
  public HashJoinOperator(
      OperatorContext context,
      JoinKind kind,
      Schema buildSchema,
      int[] buildKeys,
      Schema probeSchema,
      int[] probeKeys,
      JoinFilter filter,
      BatchSink sink) {
    this(context, kind, buildSchema, buildKeys, probeSchema, probeKeys, filter, sink, SEGMENT_ROWS);
  }

  /** As above, with build segments of at most {@code segmentRows} rows (tests use few). */
  HashJoinOperator(
      OperatorContext context,
      JoinKind kind,
      Schema buildSchema,
      int[] buildKeys,
      Schema probeSchema,
      int[] probeKeys,
      JoinFilter filter,
      BatchSink sink,
      long segmentRows) {
    super(buildSchema, probeSchema);
    requireNonNull(context, "context is null");
    this.kind = requireNonNull(kind, "kind is null");
    this.type = kind.type();
    requireNonNull(buildSchema, "buildSchema is null");
    requireNonNull(probeSchema, "probeSchema is null");
    this.buildKeys = requireNonNull(buildKeys, "buildKeys is null").clone();
    this.probeKeys = requireNonNull(probeKeys, "probeKeys is null").clone();
    this.filter = filter;
    JoinInputs.checkKeys(buildSchema, buildKeys, probeSchema, probeKeys);
    if (kind.nullAware() && (buildKeys.length != 1 || filter != null)) {
      throw new IllegalArgumentException(
          "a null-aware join takes exactly one key column and no filter: " + this);
    }
    this.allocator = context.allocator();
    this.budget = context.budget();
    this.targetRows = context.targetBatchRows();
    this.segmentRows = segmentRows;
    this.build = new BuildBuffer(budget, toString());
    this.output = new JoinOutput(type, probeSchema, buildSchema, allocator, targetRows, sink);
    this.matcher = new JoinMatcher(kind, filter, output, budget, toString(), targetRows);
    this.scratch = new ProbeScratch(targetRows);
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
    build.compact(buildSchema(), allocator, segmentRows, SEGMENT_BYTES);
    JoinHashTable built =
        new JoinHashTable(
            JoinInputs.fields(buildSchema(), buildKeys), buildKeys, allocator, budget, toString());
    try {
      built.build(build.batches(), build.rowCount());
    } catch (RuntimeException | Error e) {
      built.close();
      throw e;
    }
    table = built;
    matcher.buildComplete(build.rowCount(), table.hasNullKey());
    scratch.segments(build.batches());
  }

  @Override
  void probeComplete() {
    if (table != null) {
      table.reportProbedRows(matcher);
    }
    matcher.emitBuildRows(build.batches());
    output.flush();
  }

  @Override
  void probe(VectorSchemaRoot probe) {
    if (table == null) {
      throw new IllegalStateException(this + " failed to build its hash table: close it");
    }
    int rows = probe.getRowCount();
    matcher.startProbe(probe);
    boolean nothingQualifies = kind.nullAware() && type == JoinType.LEFT_ANTI && table.hasNullKey();
    if (rows == 0 || build.rowCount() == 0 || nothingQualifies) {
      matcher.endProbe(nothingQualifies ? null : scratch.keyIsNull(probe, probeKeys, kind));
      return;
    }
    List<FieldVector> keys = new ArrayList<>(probeKeys.length);
    for (int column : probeKeys) {
      keys.add(probe.getVector(column));
    }
    scratch.ensure(rows);
    int[] groupIds = scratch.groupIds;
    table.find(keys, rows, scratch.hashes, groupIds);
    int[] head = table.head();
    if (type.isRightSemiOrAnti() && filter == null) {
      table.markProbed(groupIds, rows); // build rows are marked once, at the end
    } else if (!type.emitsPairs() && !type.tracksRightMatches() && filter == null) {
      // Semi, anti and mark joins without a filter only ask whether a key has a build row.
      for (int row = 0; row < rows; row++) {
        int group = groupIds[row];
        if (group >= 0 && head[group] >= 0) {
          matcher.probeMatched(row);
        }
      }
    } else {
      walkChains(rows, groupIds, head, table.next());
    }
    matcher.endProbe(scratch.keyIsNull(probe, probeKeys, kind));
  }

  /**
   * Lists the (build row, probe row) pairs of every probe row's chain, handing them on whenever
   * {@code targetRows} are collected, so a key with a huge fan-out never builds a huge batch.
   */
  private void walkChains(int rows, int[] groupIds, int[] head, int[] next) {
    int[] buildRows = scratch.buildRows;
    int[] probeRows = scratch.probeRows;
    int count = 0;
    int row = 0;
    int current = -1;
    while (row < rows) {
      if (current < 0) {
        int group = groupIds[row];
        current = group < 0 ? -1 : head[group];
        if (current < 0) {
          row++;
          continue;
        }
      }
      buildRows[count] = current;
      probeRows[count] = row;
      current = next[current];
      if (current < 0) {
        row++;
      }
      if (++count == targetRows) {
        scratch.handOn(matcher, count);
        count = 0;
      }
    }
    scratch.handOn(matcher, count);
  }

  @Override
  void release() {
    try (output;
        build;
        matcher;
        JoinHashTable t = table) {
      // closes everything, also when one close fails
    }
  }

  @Override
  public String toString() {
    return "HashJoin[type="
        + kind
        + ", build="
        + JoinInputs.describe(buildKeys)
        + ", probe="
        + JoinInputs.describe(probeKeys)
        + (filter == null ? "" : ", filter=" + filter)
        + "]";
  }
}
