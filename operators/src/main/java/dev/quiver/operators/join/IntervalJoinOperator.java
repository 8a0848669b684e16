package dev.quiver.operators.join;

import static dev.quiver.operators.join.IntervalJoinBounds.micros;
import static dev.quiver.operators.join.IntervalJoinBounds.minus;
import static dev.quiver.operators.join.IntervalJoinBounds.plus;
import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.StateStreams;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An event-time interval join of two unbounded inputs (Flink SQL's interval join, e.g. Nexmark q7):
 * build row b and probe row p match when their keys are equal, {@code b.t + lower ≤ p.t ≤ b.t +
 * upper} and the residual filter accepts the pair. Both inputs are held until the watermark says
 * what they can still meet.
 *
 * <pre>
 *   build (input 0) ─► drop late / NULL-time rows ─► held build batches [min t, max t]
 *   probe (input 1) ─► drop late / NULL-time rows ─► held probe batches [min t, max t]
 *   watermark(w), now = w · 1000 µs:
 *     build rows with b.t + upper < now (complete: no later probe row can match them)
 *       ─► HashJoinOperator ◄─ probe batches whose [min, max] meets [min b.t + lower, max b.t + upper]
 *       ─► sink; the joined build rows are dropped (RIGHT, FULL: the unmatched ones padded)
 *     probe batches with max p.t < now - max(upper, 0) + lower: dropped (dead)
 *     (LEFT, FULL: before that, the dead probe rows that never matched, padded with NULL build
 *      columns ─► sink, in every batch: also in one kept for its newer rows)
 *   finish(0) and finish(1) ─► every held build row joined with every held probe row
 * </pre>
 *
 * <p>Batches of the two inputs come in any order, interleaved, and either input may finish first.
 * {@code buildTime} and {@code probeTime} are the inputs' event times, TIMESTAMP (MICROSECOND, no
 * time zone). A row is late, dropped and counted ({@link #lateRows()}), when its time is before the
 * watermark when it comes, {@code t < w · 1000} µs (the rule of Flink's DataStream interval join;
 * Flink SQL's joins such a row with whatever it still caches, which depends on timing); a row
 * without time is dropped and counted apart ({@link #rowsWithoutTime()}). Later rows are never late
 * (a watermark promises that), so every match of a complete build row is held when it completes:
 * the output is the set Flink's join emits. A build row that is complete on arrival (possible when
 * {@code upper < 0}) is joined at the next watermark that advances. Output rows are probe columns
 * then build columns ({@link JoinType#outputSchema} of the kind), in no particular order; each
 * watermark's matches come out before the watermark passes on. The rows of a match may be older
 * than that watermark: a consumer that uses their event time needs its watermark held back by the
 * interval, as Flink does.
 *
 * <p>Each emission builds a fresh {@link HashJoinOperator} over the completed build rows and probes
 * it with the held probe batches within their reach: a pass over those rows per watermark, so the
 * plan should put the input with fewer rows per unit of time on the build side (q7's per-window
 * maxima, not the bids). The bounds are checked on every candidate pair before the residual filter
 * ({@link IntervalJoinBounds}): a filter that repeats them, as a plan's does, only confirms, and a
 * null filter still joins correctly. The filter {@link Supplier} is called once.
 *
 * <p>A probe row is dead once no build row, held or to come, can reach it: held ones are not
 * complete, {@code b.t ≥ now - upper}; later ones are on time, {@code b.t ≥ now}; so every such b
 * has {@code b.t ≥ now - max(upper, 0)} and needs {@code p.t ≥ b.t + lower}. A probe batch is
 * dropped once its newest row is dead; the dead rows of a batch that still has live ones stay (a
 * stream's batches are short in event time: few extra rows, and no copies).
 *
 * <p>Outer joins (LEFT, RIGHT, FULL; left is the probe side, right the build side, as in {@link
 * JoinType}) emit a preserved row without a match once, padded with NULLs, as soon as no match can
 * come any more, as Flink SQL's outer interval join does. A build row is joined once, when it is
 * complete, against every probe row that can still match it, so a hash join that keeps unmatched
 * build rows (RIGHT) decides it then; the bounds are part of that join's filter, so a build row
 * whose key matches only outside the interval comes out padded. A probe row may match build rows
 * completed at different watermarks: each held probe batch keeps a bit per row that a match set
 * ({@link ProbeMarks}: a hidden row id column through the hash join); once a row is dead (above),
 * or an input has ended, and it has no bit, it comes out padded and gets the bit, also when its
 * batch stays held for newer rows. A late row is dropped on either side, also a preserved one, as
 * Flink SQL's outer interval join drops it.
 *
 * <p>Memory: the held rows are reserved in the task's budget. When it refuses a batch and the task
 * has a {@linkplain OperatorContext#spillSpace() spill space}, held rows move to spill files until
 * half of the budget's use is free ({@link IntervalJoinBuffer#spillDownTo}): first the build rows
 * that complete last, each file read back once, when the watermark completes its first row; then
 * the probe rows that die first, each file reread by every join that reaches it until it is dead.
 * Joins happen at the same watermarks as in memory; an unmatched probe row in a file (LEFT, FULL)
 * comes out padded when every row of its file is dead, up to the file's span of event time later
 * than it would from memory. Without a spill space, exceeding the budget fails with
 * MEMORY_BUDGET_EXCEEDED naming this operator.
 *
 * <p>Limitations: semi, anti, mark and null-aware joins are refused. Checkpoints: {@link
 * #snapshotState()} holds the watermark, the counters, the finished inputs, the held rows and the
 * matched bits of the probe rows ({@link IntervalJoinSnapshot}). Not thread-safe.
 */
public final class IntervalJoinOperator implements Operator {
  private final OperatorContext context;
  private final JoinKind kind;
  private final Schema buildSchema;
  private final int[] buildKeys;
  private final Schema probeSchema;
  private final int[] probeKeys;
  private final long lower;
  private final long upper;
  private final int probeTimeColumn;
  private final BatchSink sink;
  private final Schema outputSchema;
  private final String description;
  private final IntervalJoinBounds bounds;
  private final IntervalJoinBuffer build;
  private final IntervalJoinBuffer probe;
  private final ProbePadding padding;
  private long watermark = Long.MIN_VALUE;
  private boolean buildFinished;
  private boolean probeFinished;
  private boolean started; // input, a watermark or a restore came
  private boolean closed;

  /**
   * @param kind the join kind: INNER, LEFT (preserves the probe rows), RIGHT (the build rows) or
   *     FULL
   * @param buildKeys the build key columns, equal to {@code probeKeys} in a match
   * @param filter supplies the residual condition over {@code [probe columns][build columns]}, or
   *     null for none; called once
   * @param buildTime the build input's event time column
   * @param probeTime the probe input's event time column
   * @param lowerMicros the lower bound of {@code probe.t - build.t}, at most {@code upperMicros}
   * @param upperMicros the upper bound of {@code probe.t - build.t}
   * @param sink receives the output batches
   */
  public IntervalJoinOperator(
      OperatorContext context,
      JoinKind kind,
      Schema buildSchema,
      int[] buildKeys,
      Schema probeSchema,
      int[] probeKeys,
      Supplier<JoinFilter> filter,
      int buildTime,
      int probeTime,
      long lowerMicros,
      long upperMicros,
      BatchSink sink) {
    this.context = requireNonNull(context, "context is null");
    this.kind = requireNonNull(kind, "kind is null");
    this.buildSchema = requireNonNull(buildSchema, "buildSchema is null");
    this.buildKeys = requireNonNull(buildKeys, "buildKeys is null").clone();
    this.probeSchema = requireNonNull(probeSchema, "probeSchema is null");
    this.probeKeys = requireNonNull(probeKeys, "probeKeys is null").clone();
    requireNonNull(filter, "filter is null");
    this.sink = requireNonNull(sink, "sink is null");
    this.lower = lowerMicros;
    this.upper = upperMicros;
    this.outputSchema = kind.type().outputSchema(probeSchema, buildSchema);
    if (!kind.type().emitsPairs() || kind.nullAware()) {
      throw new IllegalArgumentException(
          "an interval join can only be INNER, LEFT, RIGHT or FULL, not " + kind);
    }
    if (lowerMicros > upperMicros) {
      throw new IllegalArgumentException(
          "an interval join's lower bound " + lowerMicros + " µs is above its upper bound");
    }
    JoinInputs.checkKeys(buildSchema, this.buildKeys, probeSchema, this.probeKeys);
    checkTime(buildSchema, buildTime, "build");
    checkTime(probeSchema, probeTime, "probe");
    this.probeTimeColumn = probeTime;
    JoinFilter residual = filter.get();
    this.bounds = new IntervalJoinBounds(buildTime, probeTime, lower, upper, residual);
    this.description = describe(residual);
    this.build =
        new IntervalJoinBuffer(
            context.budget(),
            context.allocator(),
            context.spillSpace(),
            IntervalJoinBuffer.Order.LATEST_FIRST,
            buildTime,
            "build rows of " + description);
    this.probe =
        new IntervalJoinBuffer(
            context.budget(),
            context.allocator(),
            context.spillSpace(),
            IntervalJoinBuffer.Order.OLDEST_FIRST,
            probeTime,
            "probe rows of " + description);
    this.padding =
        new ProbePadding(
            kind.type(),
            probeSchema,
            buildSchema,
            probeTime,
            context.allocator(),
            context.targetBatchRows(),
            sink);
    build.room(this::makeRoom);
    probe.room(this::makeRoom);
  }

  /**
   * Before a join of {@code pieces}: when the budget has less room than twice their size (their
   * rows and the hash table over them), and at least half of the budget (the hash join's own
   * batches and table: a quarter was too little for a small budget's grace join), held rows move to
   * spill files, as {@link #makeRoom} moves them, until it has (beyond that the hash join spills
   * the pieces itself). Nothing moves without a spill space, or when the pieces fit beside the held
   * rows.
   */
  private void spillForJoin(List<VectorSchemaRoot> pieces) {
    long need = 0;
    for (VectorSchemaRoot piece : pieces) {
      need += 2 * BatchTransfer.heldBytes(piece);
    }
    MemoryBudget budget = context.budget();
    long goal = Math.max(0, budget.limit() - Math.max(need, budget.limit() / 2));
    if (budget.used() > goal && !(build.spillDownTo(goal) && budget.used() <= goal)) {
      probe.spillDownTo(goal);
    }
  }

  /**
   * Makes room for {@code bytes} the budget refused: moves held rows to spill files until half of
   * the budget's use before is free (and {@code bytes} fit under its limit), the build rows that
   * complete last first (each is read back once), then the probe rows that die first (each is
   * reread by every join that reaches it until it dies). Whether anything moved.
   */
  private boolean makeRoom(long bytes) {
    MemoryBudget budget = context.budget();
    long goal = Math.min(budget.used() / 2, budget.limit() - bytes);
    boolean spilled = build.spillDownTo(goal);
    if (budget.used() > goal) {
      spilled |= probe.spillDownTo(goal);
    }
    return spilled;
  }

  private static void checkTime(Schema schema, int column, String side) {
    if (column < 0 || column >= schema.getFields().size()) {
      throw new IllegalArgumentException(
          "the " + side + " time column " + column + " is outside the " + side + " schema");
    }
    Field field = schema.getFields().get(column);
    if (!(field.getType() instanceof ArrowType.Timestamp type)
        || type.getUnit() != TimeUnit.MICROSECOND
        || type.getTimezone() != null) {
      throw new IllegalArgumentException(
          "the " + side + " time must be a TIMESTAMP (microseconds, no zone): " + field);
    }
  }

  /**
   * The schema of the output batches: probe columns, then build columns ({@link
   * JoinType#outputSchema} of the join's type: nullable where padded).
   */
  public Schema outputSchema() {
    return outputSchema;
  }

  @Override
  public int inputs() {
    return 2;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    try {
      checkInput(input);
      if (input == 0 ? buildFinished : probeFinished) {
        throw new IllegalStateException(description + ": input " + input + " is finished");
      }
      Schema schema = input == 0 ? buildSchema : probeSchema;
      if (!BatchTransfer.sameTypes(batch, schema)) {
        throw new IllegalArgumentException(
            description + ": a batch of input " + input + " is " + batch.getSchema());
      }
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    started = true;
    try {
      (input == 0 ? build : probe).admit(batch, micros(watermark));
    } catch (QuiverException e) {
      throw explained(e);
    }
    dropUnmatchable();
  }

  /** Joins the build rows that the watermark completes, then drops the probe rows now dead. */
  @Override
  public void watermark(long millis) {
    started = true;
    if (closed || (buildFinished && probeFinished) || millis <= watermark) {
      return;
    }
    watermark = millis;
    long now = micros(millis);
    join(minus(now, upper));
    long dead = plus(minus(now, Math.max(upper, 0)), lower);
    padProbeRows(dead);
    probe.dropBefore(dead);
    dropUnmatchable();
  }

  @Override
  public boolean idle() {
    return closed || (build.rows() == 0 && probe.rows() == 0);
  }

  /** Finishing an input twice is a no-op: a restored task may finish an input the state has. */
  @Override
  public void finish(int input) {
    checkInput(input);
    started = true;
    if (input == 0) {
      buildFinished = true;
    } else {
      probeFinished = true;
    }
    if (buildFinished && probeFinished) {
      try {
        join(Long.MAX_VALUE);
        padProbeRows(Long.MAX_VALUE);
      } finally {
        build.close(); // return the memory now; the counters stay for a snapshot
        probe.close();
      }
    } else {
      dropUnmatchable();
    }
  }

  /**
   * Without rows on one side that has ended, the other side's rows can never match: they are
   * dropped, and those of a preserved side emitted padded with NULLs.
   */
  private void dropUnmatchable() {
    if (buildFinished && build.rows() == 0 && probe.rows() > 0) {
      padProbeRows(Long.MAX_VALUE);
      probe.close();
    }
    if (probeFinished && probe.rows() == 0 && build.rows() > 0) {
      if (kind.type().padsRight()) {
        join(Long.MAX_VALUE); // against no probe rows: each build row comes out padded
      }
      build.close();
    }
  }

  /**
   * LEFT and FULL joins: emits the held probe rows with an event time before {@code deadBelow} (µs;
   * {@code Long.MAX_VALUE}: all of them) that never matched, padded with NULL build columns, and
   * marks them so that they come out once. The caller has joined every build row that can reach
   * them: they are dead (no build row, held or to come, can match them) or an input has ended. So
   * each comes out at the first watermark that kills it, also when its batch stays for newer rows.
   */
  private void padProbeRows(long deadBelow) {
    if (kind.type().padsLeft()) {
      padding.pad(probe.held(), deadBelow);
    }
  }

  /**
   * Joins the build rows not joined yet with an event time before {@code below} (µs; {@code
   * Long.MAX_VALUE}: all of them) against the probe batches within their reach, and drops them.
   */
  private void join(long below) {
    List<VectorSchemaRoot> pieces = new ArrayList<>();
    try {
      long[] span = build.takeBefore(below, pieces);
      if (!pieces.isEmpty()) {
        spillForJoin(pieces);
        run(pieces, plus(span[0], lower), plus(span[1], upper));
      }
    } catch (QuiverException e) {
      throw explained(e);
    } finally {
      for (VectorSchemaRoot piece : pieces) {
        if (piece != null) {
          piece.close(); // not handed on: the join failed before it took them
        }
      }
    }
  }

  /**
   * Joins {@code pieces} (set to null as the hash join takes them) with the probe batches that have
   * rows in {@code [from, to]}.
   */
  private void run(List<VectorSchemaRoot> pieces, long from, long to) {
    JoinType type = kind.type();
    // The build rows are complete: whether one is unmatched is known now (RIGHT, FULL). Whether a
    // probe row is (LEFT, FULL) is known only when it is dead: this join marks its matches.
    JoinKind hashKind = JoinKind.of(type.padsRight() ? JoinType.RIGHT : JoinType.INNER);
    List<HeldRows> probed = new ArrayList<>();
    for (HeldRows held : probe.held()) {
      if (held.max >= from && held.min <= to) {
        probed.add(held);
      }
    }
    boolean marks = type.padsLeft();
    Schema hashProbe = marks ? ProbeMarks.withRowId(probeSchema) : probeSchema;
    BatchSink out =
        marks
            ? new ProbeMarks(probed, probeSchema.getFields().size(), outputSchema, sink)
            : batch -> sink.accept(BatchTransfer.withSchema(batch, outputSchema));
    try (HashJoinOperator join =
        new HashJoinOperator(
            context, hashKind, buildSchema, buildKeys, hashProbe, probeKeys, bounds, out)) {
      for (int i = 0; i < pieces.size(); i++) {
        VectorSchemaRoot piece = pieces.set(i, null);
        join.add(0, piece);
      }
      join.finish(0);
      for (int i = 0; i < probed.size(); i++) {
        int ordinal = i;
        probed
            .get(i)
            .forEachBatch(
                context.allocator(),
                (rows, first) -> {
                  VectorSchemaRoot shared = BatchTransfer.share(rows, context.allocator());
                  join.add(
                      1, marks ? ProbeMarks.addRowIds(shared, ordinal, first, hashProbe) : shared);
                });
      }
      join.finish(1);
    }
  }

  private QuiverException explained(QuiverException e) {
    if (e.code() != ErrorCode.MEMORY_BUDGET_EXCEEDED) {
      return e;
    }
    String why =
        context.spillSpace().canSpill()
            ? " holds the rows of both inputs until the watermark passes their interval and a batch"
                + " does not fit even after its held rows spilled"
            : " holds the rows of both inputs until the watermark passes their interval and cannot"
                + " spill them";
    return new QuiverException(
        e.code(),
        description
            + why
            + ": give the task more memory, use more tasks, narrow the interval or let"
            + " the watermark lag less ("
            + e.getMessage()
            + ")",
        e);
  }

  /** Rows dropped because their event time was before the watermark when they came. */
  @Override
  public long lateRows() {
    return build.late() + probe.late();
  }

  /** Rows dropped because their event time was NULL. */
  public long rowsWithoutTime() {
    return build.withoutTime() + probe.withoutTime();
  }

  /** Build rows held (tests). */
  long heldBuildRows() {
    return build.rows();
  }

  /** Probe rows held (tests). */
  long heldProbeRows() {
    return probe.rows();
  }

  /** Probe batches and files held (tests). */
  int heldProbeBatches() {
    return probe.held().size();
  }

  /** How often held rows were moved to spill files. */
  public long spills() {
    return build.spills() + probe.spills();
  }

  /** Spill files held now. */
  public int spilledFiles() {
    return build.spilledFiles() + probe.spilledFiles();
  }

  /** Rows held in spill files now: build rows, probe rows. */
  long[] spilledRows() {
    return new long[] {build.spilledRows(), probe.spilledRows()};
  }

  @Override
  public boolean isStateful() {
    return true;
  }

  /**
   * The state ({@link IntervalJoinSnapshot}), assembled from {@link #snapshotState(OutputStream)}.
   */
  @Override
  public byte[] snapshotState() {
    return StateStreams.toBytes(this);
  }

  /** Writes the watermark and counters, then the held rows batch by batch as they are held. */
  @Override
  public void snapshotState(OutputStream out) throws IOException {
    if (closed) {
      throw new IllegalStateException(description + " is closed: it has no state to snapshot");
    }
    IntervalJoinSnapshot.Header header =
        new IntervalJoinSnapshot.Header(watermark, buildFinished, probeFinished);
    IntervalJoinSnapshot.write(out, header, buildSchema, build, probeSchema, probe);
  }

  @Override
  public void restoreState(byte[] state) {
    requireNonNull(state, "state is null");
    StateStreams.fromBytes(this, state);
  }

  @Override
  public void restoreState(InputStream in) throws IOException {
    requireNonNull(in, "in is null");
    if (started || closed) {
      throw new IllegalStateException(description + " restores its state before any input");
    }
    started = true;
    try {
      IntervalJoinSnapshot.Header header =
          IntervalJoinSnapshot.read(
              in, buildSchema, build, probeSchema, probe, context.allocator());
      watermark = header.watermark();
      buildFinished = header.buildFinished();
      probeFinished = header.probeFinished();
    } catch (QuiverException e) {
      throw explained(e);
    }
  }

  @Override
  @SuppressWarnings("try") // the buffers are named only to be closed, also when one close fails
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try (IntervalJoinBuffer b = build;
        IntervalJoinBuffer p = probe) {
      // closes both
    }
  }

  private void checkInput(int input) {
    if (closed) {
      throw new IllegalStateException(description + " is closed");
    }
    if (input != 0 && input != 1) {
      throw new IllegalArgumentException(
          description + " has inputs 0 (build) and 1 (probe), not " + input);
    }
  }

  /**
   * One line: {@code IntervalJoin[INNER, build=[#0], probe=[#2], probe.#3 in [build.#1 - 10 s,
   * build.#1 + 0 s], filter=...]}.
   */
  @Override
  public String toString() {
    return description;
  }

  private String describe(JoinFilter residual) {
    return "IntervalJoin["
        + kind
        + ", build="
        + JoinInputs.describe(buildKeys)
        + ", probe="
        + JoinInputs.describe(probeKeys)
        + ", "
        + bounds.describe()
        + (residual == null ? "" : ", filter=" + residual)
        + "]";
  }
}
