package dev.quiver.operators.sort;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import dev.quiver.operators.spill.SpillSpace;
import dev.quiver.operators.spill.SpillWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The external half of a {@link SortOperator}: when the budget refuses a batch, the buffered rows
 * are sorted and written to the task's {@link SpillSpace} as one sorted run; {@link #finish} merges
 * the runs and the sorted in-memory remainder.
 *
 * <pre>
 *   add ─► budget refuses? ─► sort the buffer ─► run i: a spill file of sorted batches ─► keep adding
 *   finish ─► more runs than one batch of each fits in the budget? ─► spill the remainder too, then
 *             merge groups of consecutive runs into longer runs until they fit
 *          ─► k-way merge of the runs (+ the remainder) ─► sink, one batch per run in memory
 * </pre>
 *
 * <p>Stable: run i holds input rows that all came before those of run i + 1, the remainder came
 * last, groups merged early are consecutive and replace their runs in place, and a merge breaks
 * ties by input index, then by position in the input.
 *
 * <p>Memory: a spilled batch holds at most 1/{@value #BATCHES_PER_BUDGET} of the budget (at least
 * one row, at most the target batch size), so a merge of many runs fits; the merge reserves every
 * batch it reads. The one batch in flight while a run is written is not reserved: it is a small
 * fraction of the budget by construction, and the rows it copies are released as it is written.
 */
final class SpillingRuns implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SpillingRuns.class);
  private static final long BATCHES_PER_BUDGET = 16;

  /** At most this many runs are read at once: one open file each. */
  private static final int MAX_FAN_IN = 64;

  private static final String PURPOSE = "sort-run";

  private final RowComparator comparator;
  private final OperatorContext context;
  private final SpillSpace space;
  private final String owner;
  private final List<Run> runs = new ArrayList<>();
  private int mergeRows; // rows per batch of a run written by a merge: the smallest spill size
  private long rowsSpilled;
  private boolean warned;

  /** A sorted run on disk and the bytes of its largest batch once in memory. */
  private record Run(SpillFile file, long maxBatchBytes) {}

  SpillingRuns(RowComparator comparator, OperatorContext context, String owner) {
    this.comparator = comparator;
    this.context = context;
    this.space = context.spillSpace();
    this.owner = owner;
    this.mergeRows = context.targetBatchRows();
  }

  /** Whether any run was spilled: then {@link #finish} must merge. */
  boolean spilled() {
    return !runs.isEmpty();
  }

  /** Keeps {@code batch} in {@code buffer}, spilling the buffer first when the budget refuses. */
  void add(SortBuffer buffer, VectorSchemaRoot batch) {
    if (buffer.tryAdd(batch)) {
      return;
    }
    boolean kept;
    try {
      spill(buffer);
      kept = buffer.tryAdd(batch);
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
    if (!kept) {
      // More than the budget has free with nothing buffered: sorted and written on its own at
      // once, so the memory its producer already allocated is never kept across calls.
      if (!warned) {
        warned = true;
        LOG.warn(
            "{} got a batch of {} rows that does not fit in its memory budget even after spilling:"
                + " it spills such batches on their own",
            owner,
            batch.getRowCount());
      }
      try (SortBuffer alone = new SortBuffer(comparator, MemoryBudget.unlimited(owner), owner)) {
        alone.add(batch);
        spill(alone);
      }
    }
  }

  /** Merges the runs and the rows left in {@code remainder} into {@code sink}, in key order. */
  void finish(SortBuffer remainder, BatchSink sink) {
    boolean keep = remainder.rowCount() > 0;
    if (keep && fanIn() < runs.size() + 1) {
      spill(remainder);
      keep = false;
    }
    int passes = 0;
    for (int fanIn = checkedFanIn(); runs.size() > fanIn; fanIn = checkedFanIn()) {
      mergePass(fanIn);
      passes++;
    }
    LOG.info(
        "{} merges {} spilled rows in {} runs{} after {} intermediate passes",
        owner,
        rowsSpilled,
        runs.size(),
        keep ? " and " + remainder.rowCount() + " rows in memory" : "",
        passes);
    List<RunMerge.Source> sources = new ArrayList<>();
    runs.forEach(run -> sources.add(new RunSource(run)));
    if (keep) {
      SortBuffer.Drain drain = remainder.drain(context.allocator(), batchRows(remainder));
      sources.add(drain::next);
    }
    runs.clear(); // the sources own the runs now: each is deleted as soon as it is read
    RunMerge.merge(context, comparator, sources, sink);
  }

  /** Deletes every run not merged yet. Idempotent. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (Run run : runs) {
      try {
        run.file().close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    runs.clear();
    if (failure != null) {
      throw failure;
    }
  }

  /** Writes the rows of {@code buffer} in key order as a new run and empties the buffer. */
  private void spill(SortBuffer buffer) {
    int rows = buffer.rowCount();
    if (rows == 0) {
      return;
    }
    int batchRows = batchRows(buffer);
    mergeRows = Math.min(mergeRows, batchRows);
    SortBuffer.Drain drain = buffer.drain(context.allocator(), batchRows);
    try (RunWriter writer = new RunWriter()) {
      for (VectorSchemaRoot batch = drain.next(); batch != null; batch = drain.next()) {
        writer.accept(batch);
      }
      runs.add(writer.finish());
    }
    rowsSpilled += rows;
    LOG.debug("{} spilled run {} of {} rows", owner, runs.size(), rows);
  }

  /**
   * Rows per spilled batch: about 1/16 of the budget at most, and at most the target batch size.
   */
  private int batchRows(SortBuffer buffer) {
    long bytesPerRow = Math.max(1, buffer.dataBytes() / Math.max(1, buffer.rowCount()));
    long rows = context.budget().limit() / BATCHES_PER_BUDGET / bytesPerRow;
    return (int) Math.max(1, Math.min(context.targetBatchRows(), rows));
  }

  /** How many runs fit in one merge: one batch of each (with a margin) plus the output's. */
  private int fanIn() {
    long largest = 1;
    for (Run run : runs) {
      largest = Math.max(largest, run.maxBatchBytes());
    }
    long perRun = largest + largest / 4; // a batch read back may be a little larger than written
    MemoryBudget budget = context.budget();
    long free = budget.limit() - budget.used();
    return (int) Math.max(0, Math.min(MAX_FAN_IN, free / perRun - 1));
  }

  private int checkedFanIn() {
    int fanIn = fanIn();
    if (fanIn < 2 && runs.size() > 1) {
      MemoryBudget budget = context.budget();
      throw new QuiverException(
          ErrorCode.MEMORY_BUDGET_EXCEEDED,
          owner
              + " cannot merge its "
              + runs.size()
              + " spilled runs: reading one batch of two runs at a time needs more than the "
              + (budget.limit() - budget.used())
              + " bytes free of its "
              + budget.limit()
              + "-byte memory budget; give the task more memory or use more tasks");
    }
    return Math.max(2, fanIn);
  }

  /** Merges groups of {@code fanIn} consecutive runs into one run each. */
  private void mergePass(int fanIn) {
    List<Run> merged = new ArrayList<>();
    OperatorContext mergeContext = context.withTargetBatchRows(mergeRows);
    try {
      while (!runs.isEmpty()) {
        List<Run> group = runs.subList(0, Math.min(fanIn, runs.size()));
        if (group.size() == 1) {
          merged.add(group.get(0));
          group.clear();
          continue;
        }
        try (RunWriter writer = new RunWriter()) {
          List<RunSource> sources = new ArrayList<>();
          group.forEach(run -> sources.add(new RunSource(run)));
          group.clear(); // the sources own these runs now: each is deleted once read
          RunMerge.merge(mergeContext, comparator, sources, writer);
          merged.add(writer.finish());
        }
      }
    } finally {
      runs.addAll(0, merged); // on failure, the runs left over are closed with this object
    }
  }

  /** A run read back batch by batch; closing it deletes its file. */
  private final class RunSource implements RunMerge.Source {
    private final Run run;
    private SpillReader reader;

    RunSource(Run run) {
      this.run = run;
    }

    @Override
    public VectorSchemaRoot next() {
      if (reader == null) {
        reader = run.file().open(context.allocator());
      }
      return reader.next();
    }

    @Override
    public void close() {
      try {
        if (reader != null) {
          reader.close();
        }
      } finally {
        run.file().close();
      }
    }
  }

  /** Writes one run, remembering its largest batch; a sink that closes what it is given. */
  private final class RunWriter implements BatchSink, AutoCloseable {
    private final SpillWriter writer = space.create(comparator.schema(), PURPOSE);
    private long maxBatchBytes;

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        maxBatchBytes = Math.max(maxBatchBytes, BatchTransfer.heldBytes(batch));
        writer.write(batch);
      }
    }

    Run finish() {
      return new Run(writer.finish(), maxBatchBytes);
    }

    @Override
    public void close() {
      writer.close();
    }
  }
}
