package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.keyrange.BuildKeyRanges;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An equi join: the build input is held in a hash table, the probe input streams through it; when
 * the build input does not fit in the budget and the task can spill, a grace hash join.
 *
 * <pre>
 *   build (input 0) ─► BuildBuffer ─finish(0)─► InMemoryJoin: segments, JoinHashTable
 *   probe (input 1) ─► InMemoryJoin.probe ─► JoinMatcher ─► JoinOutput ─► sink
 *
 *   the budget refuses a build batch (or the table) and the context has a spill space:
 *   build rows so far + the rest ─► GraceJoin: 32 hash partitions in spill files
 *   probe ─► the same partitions ─finish(1)─► each partition joined in memory, split if too big
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
 * flags are reserved in the budget. Exceeding it fails with {@code MEMORY_BUDGET_EXCEEDED} naming
 * this operator, unless the context has a {@linkplain OperatorContext#spillSpace() spill space}:
 * then the join spills ({@link GraceJoin}) and emits every row once the probe input is finished,
 * failing only when one key's build rows alone exceed the budget. Spill files are deleted as they
 * are read, and by {@link #close}.
 */
public final class HashJoinOperator extends BuildProbeJoin {
  private static final Logger LOG = LoggerFactory.getLogger(HashJoinOperator.class);

  /** Build rows per segment: large, so that probing gathers from few sources. */
  static final long SEGMENT_ROWS = 1 << 24;

  /** Build bytes per segment: keeps string columns far below the 2 GiB offset limit. */
  static final long SEGMENT_BYTES = 1L << 30;

  /** The probe rows a self-stopping filter checks before it judges what it passes. */
  static final long STOP_AFTER_ROWS = 1 << 16;

  /** The share of checked rows above which a self-stopping filter stops checking. */
  static final double STOP_ABOVE_SHARE = 0.9;

  private final JoinKind kind;
  private final JoinType type;
  private final int[] buildKeys;
  private final int[] probeKeys;
  private final JoinFilter filter;
  private final HashJoinSpec spec;
  private final boolean canSpill;
  private final JoinOutput output;
  private final BuildKeyRanges keyRanges;
  private final boolean selfStopping;
  private long probedRows;
  private long passedRows;
  private boolean stopped;
  private BuildBuffer build;
  private InMemoryJoin join;
  private GraceJoin grace;
  private long headroom; // reserved while the build side is read (see HashJoinSpec.headroom)
  private boolean headroomTried;

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
    this(
        context,
        kind,
        buildSchema,
        buildKeys,
        probeSchema,
        probeKeys,
        filter,
        sink,
        BuildKeyRanges.none(),
        false,
        SEGMENT_ROWS);
  }

  /**
   * As above, publishing the ranges of the build keys for the scans of the task once the build side
   * is complete ({@link BuildKeyRanges}); and, if {@code selfStopping} (a LEFT_SEMI join that is a
   * runtime filter: whatever it passes is checked again by the join it filters for), passing every
   * probe row on unchecked once it has found that it passes nearly all of them: more than {@value
   * #STOP_ABOVE_SHARE} of the first {@value #STOP_AFTER_ROWS} or more rows.
   */
  public HashJoinOperator(
      OperatorContext context,
      JoinKind kind,
      Schema buildSchema,
      int[] buildKeys,
      Schema probeSchema,
      int[] probeKeys,
      JoinFilter filter,
      BatchSink sink,
      BuildKeyRanges keyRanges,
      boolean selfStopping) {
    this(
        context,
        kind,
        buildSchema,
        buildKeys,
        probeSchema,
        probeKeys,
        filter,
        sink,
        keyRanges,
        selfStopping,
        SEGMENT_ROWS);
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
      BuildKeyRanges keyRanges,
      boolean selfStopping,
      long segmentRows) {
    super(buildSchema, probeSchema);
    this.keyRanges = requireNonNull(keyRanges, "keyRanges is null");
    this.selfStopping = selfStopping;
    requireNonNull(context, "context is null");
    this.kind = requireNonNull(kind, "kind is null");
    this.type = kind.type();
    requireNonNull(buildSchema, "buildSchema is null");
    requireNonNull(probeSchema, "probeSchema is null");
    this.buildKeys = requireNonNull(buildKeys, "buildKeys is null").clone();
    this.probeKeys = requireNonNull(probeKeys, "probeKeys is null").clone();
    this.filter = filter;
    JoinInputs.checkKeys(buildSchema, buildKeys, probeSchema, probeKeys);
    if (selfStopping && (kind.type() != JoinType.LEFT_SEMI || kind.nullAware())) {
      throw new IllegalArgumentException("only a LEFT_SEMI join can stop filtering: " + kind);
    }
    if (kind.nullAware() && (buildKeys.length != 1 || filter != null)) {
      throw new IllegalArgumentException(
          "a null-aware join takes exactly one key column and no filter: " + this);
    }
    this.spec =
        new HashJoinSpec(
            context,
            kind,
            buildSchema,
            this.buildKeys,
            probeSchema,
            this.probeKeys,
            filter,
            segmentRows,
            toString());
    this.canSpill = context.spillSpace().canSpill();
    this.build = new BuildBuffer(context.budget(), toString());
    this.output =
        new JoinOutput(
            type, probeSchema, buildSchema, context.allocator(), context.targetBatchRows(), sink);
  }

  /** The schema of the output batches. */
  public Schema outputSchema() {
    return output.schema();
  }

  /** Whether the join spilled its build side (tests). */
  boolean spilled() {
    return grace != null;
  }

  @Override
  void addBuild(VectorSchemaRoot batch) {
    keyRanges.add(batch);
    if (grace != null) {
      try (batch) {
        grace.addBuild(batch);
      }
    } else if (!canSpill) {
      build.add(batch);
    } else {
      reserveHeadroom();
      if (!build.tryAdd(batch)) {
        try (batch) {
          spill(build);
          grace.addBuild(batch);
        }
      }
    }
  }

  @Override
  void buildComplete() {
    keyRanges.publish();
    if (grace == null) {
      InMemoryJoin inMemory = new InMemoryJoin(spec, build, output);
      build = null; // the in-memory join owns it now
      QuiverException refused;
      try {
        refused = inMemory.tryBuild(null);
      } catch (RuntimeException | Error e) {
        inMemory.close();
        throw e;
      }
      releaseHeadroom();
      if (refused == null) {
        join = inMemory;
        return;
      }
      try (inMemory) {
        if (!canSpill) {
          throw refused;
        }
        spill(inMemory.build());
      }
    }
    grace.buildComplete();
  }

  /** Keeps the headroom free from the first build batch on, if the budget has it then. */
  private void reserveHeadroom() {
    if (!headroomTried && spec.context().budget().tryReserve(spec.headroom())) {
      headroom = spec.headroom();
    }
    headroomTried = true;
  }

  private void releaseHeadroom() {
    spec.context().budget().release(headroom);
    headroom = 0;
  }

  /** Turns to the grace hash join: the rows of {@code held} are spilled and released. */
  private void spill(BuildBuffer held) {
    releaseHeadroom();
    grace = new GraceJoin(spec, output);
    for (VectorSchemaRoot batch : held.batches()) {
      grace.addBuild(batch);
    }
    held.close();
  }

  /** Whether this self-stopping filter stopped checking its probe rows (tests). */
  boolean stopped() {
    return stopped;
  }

  private void judge(int probed, long passed) {
    probedRows += probed;
    passedRows += passed;
    if (probedRows >= STOP_AFTER_ROWS && passedRows > STOP_ABOVE_SHARE * probedRows) {
      stopped = true;
      LOG.debug(
          "{} passed {} of {} probe rows: passes the rest unchecked", this, passedRows, probedRows);
    }
  }

  @Override
  void flushOutput() {
    output.flush();
  }

  @Override
  void probeComplete() {
    if (grace != null) {
      grace.probeComplete();
    } else if (join != null) {
      join.finish();
    }
    output.flush();
  }

  @Override
  void probe(VectorSchemaRoot probe) {
    if (stopped) {
      output.passThrough(probe);
    } else if (grace != null) {
      grace.probe(probe);
    } else if (join != null) {
      long before = output.rowsEmitted();
      join.probe(probe);
      if (selfStopping) {
        judge(probe.getRowCount(), output.rowsEmitted() - before);
      }
    } else {
      throw new IllegalStateException(this + " failed to build its hash table: close it");
    }
  }

  @Override
  @SuppressWarnings("try") // the resources are named only to be closed, in order, also on failure
  void release() {
    releaseHeadroom();
    try (output;
        BuildBuffer b = build;
        InMemoryJoin j = join;
        GraceJoin g = grace) {
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
