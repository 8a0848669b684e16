package dev.quiver.operators.aggregate;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.hash.GroupTable;
import dev.quiver.operators.hash.VectorHasher;
import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillWriter;
import dev.quiver.plan.aggregate.AggregateCall;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * One level of hash partitions a spilling aggregate writes its groups to, 32 of them, each a states
 * file plus one pairs file per DISTINCT call, appended to at every spill and read back once.
 *
 * <pre>
 *   spill(groups) ─► per chunk of groups: keys + partial states ─┐  partition of a row: 5 bits
 *                    per chunk of DISTINCT pairs: keys + argument ┴► of its keys' hash ─► files
 * </pre>
 *
 * <p>Rows with equal keys always meet in one partition, so the partitions merge independently.
 * Level {@code L} takes bits {@code [32 + 5L, 37 + 5L)} of the {@link VectorHasher} hash: above the
 * low bits a {@link GroupTable} buckets by, below the high bits the shuffle's channels use (all
 * rows of a task share those), and disjoint from every other level's, so a partition too large to
 * merge splits again ({@link #child()}) up to {@value #LEVELS} levels: about a million ways.
 */
final class SpillingGroups implements AutoCloseable {
  static final int PARTITION_BITS = 5;
  static final int PARTITIONS = 1 << PARTITION_BITS;
  static final int LEVELS = 4;

  /** What one partition wrote: [0] states, [1 + c] the pairs of DISTINCT call c; null if empty. */
  record Partition(SpillFile[] files) implements AutoCloseable {
    @Override
    public void close() {
      AutoCloseables.closeNoChecked(() -> AutoCloseables.close(files));
    }
  }

  private final OperatorContext context;
  private final GroupStates shape; // only for its key fields, calls and DISTINCT arguments
  private final int level;
  private final String owner;
  private final Schema[] schemas; // per stream
  private final int[] stateCounts;
  private final SpillWriter[][] writers; // [partition][stream]
  private final Deque<Partition> partitions = new ArrayDeque<>();
  private final int[] starts = new int[PARTITIONS + 1];
  private long[] hashes = new long[0];
  private int[] order = new int[0];
  private long spilledGroups;

  SpillingGroups(OperatorContext context, GroupStates shape, int level, String owner) {
    if (level >= LEVELS) {
      throw new QuiverException(
          ErrorCode.MEMORY_BUDGET_EXCEEDED,
          owner
              + " cannot merge one of its spilled partitions within its "
              + context.budget().limit()
              + "-byte memory budget even split "
              + (1L << (PARTITION_BITS * LEVELS))
              + " ways by key hash: a few groups hold too much (many distinct values of a"
              + " DISTINCT call, long strings); give the task more memory or use more tasks");
    }
    this.context = context;
    this.shape = shape;
    this.level = level;
    this.owner = owner;
    List<Field> keys = shape.layout().keyFields;
    List<AggregateCall> calls = shape.calls();
    this.schemas = new Schema[1 + calls.size()];
    this.stateCounts = new int[calls.size()];
    List<Field> states = new ArrayList<>(keys);
    for (int c = 0; c < calls.size(); c++) {
      if (calls.get(c).hasPartialState()) {
        List<Field> fields = AggregateCall.stateFields(calls.get(c));
        stateCounts[c] = fields.size();
        states.addAll(fields);
      } else {
        List<Field> pairs = new ArrayList<>(keys);
        pairs.add(shape.distinctArgument(c));
        schemas[1 + c] = new Schema(pairs);
      }
    }
    schemas[0] = new Schema(states);
    this.writers = new SpillWriter[PARTITIONS][schemas.length];
  }

  /** The next level down, to split one of this level's partitions that is too large to merge. */
  SpillingGroups child() {
    return new SpillingGroups(context, shape, level + 1, owner);
  }

  int level() {
    return level;
  }

  /** Groups written so far, counted once per spill. */
  long spilledGroups() {
    return spilledGroups;
  }

  /** Appends every group of {@code groups} to the partitions; the caller clears them after. */
  void spill(GroupStates groups) {
    GroupTable table = groups.table();
    int count = table.groupCount();
    int target = context.targetBatchRows();
    for (int from = 0; from < count; from += target) {
      int rows = Math.min(target, count - from);
      try (VectorSchemaRoot states =
          AggregateOutput.states(
              schemas[0],
              table,
              groups.accumulators(),
              stateCounts,
              from,
              rows,
              context.allocator())) {
        write(states, 0);
      }
    }
    for (int c = 0; c < stateCounts.length; c++) {
      DistinctFilter filter = groups.distinctFilter(c);
      for (int from = 0; filter != null && from < filter.pairCount(); from += target) {
        try (VectorSchemaRoot pairs = withKeys(table, filter, from, target, schemas[1 + c])) {
          write(pairs, 1 + c);
        }
      }
    }
    spilledGroups += count;
  }

  /** Pairs {@code [from, from + target)} of {@code filter} with their group keys instead of ids. */
  private VectorSchemaRoot withKeys(
      GroupTable table, DistinctFilter filter, int from, int target, Schema schema) {
    int rows = Math.min(target, filter.pairCount() - from);
    try (VectorSchemaRoot pairs = filter.pairs(from, rows)) {
      IntVector ids = (IntVector) pairs.getVector(0);
      int[] groupIds = new int[rows];
      Arrays.setAll(groupIds, i -> ids.get(i));
      List<FieldVector> vectors =
          new ArrayList<>(table.keys(groupIds, rows, context.allocator()).getFieldVectors());
      try {
        TransferPair argument = pairs.getVector(1).getTransferPair(context.allocator());
        argument.transfer();
        vectors.add((FieldVector) argument.getTo());
      } catch (RuntimeException | Error e) {
        AutoCloseables.close(e, vectors);
        throw e;
      }
      return new VectorSchemaRoot(schema, vectors, rows);
    }
  }

  /** Writes the rows of {@code batch} to the files of stream {@code stream} of their partitions. */
  private void write(VectorSchemaRoot batch, int stream) {
    int rows = batch.getRowCount();
    hashes = VectorHasher.ensureCapacity(hashes, rows);
    int[] keyColumns = new int[shape.layout().keyFields.size()];
    Arrays.setAll(keyColumns, i -> i);
    VectorHasher.hash(batch, keyColumns, hashes);
    if (order.length < rows) {
      order = new int[Math.max(rows, order.length * 2)];
    }
    // A counting sort of the rows by partition, stable.
    Arrays.fill(starts, 0);
    int shift = 32 + PARTITION_BITS * level;
    for (int i = 0; i < rows; i++) {
      starts[partition(hashes[i], shift) + 1]++;
    }
    for (int p = 0; p < PARTITIONS; p++) {
      starts[p + 1] += starts[p];
    }
    int[] cursor = Arrays.copyOf(starts, PARTITIONS);
    for (int i = 0; i < rows; i++) {
      order[cursor[partition(hashes[i], shift)]++] = i;
    }
    for (int p = 0; p < PARTITIONS; p++) {
      int count = starts[p + 1] - starts[p];
      if (count == rows) {
        writer(p, stream).write(batch); // one partition only: no need to copy
      } else if (count > 0) {
        try (VectorSchemaRoot part =
            Take.take(batch, order, starts[p], count, context.allocator())) {
          writer(p, stream).write(part);
        }
      }
    }
  }

  private static int partition(long hash, int shift) {
    return (int) (hash >>> shift) & (PARTITIONS - 1);
  }

  private SpillWriter writer(int partition, int stream) {
    SpillWriter writer = writers[partition][stream];
    if (writer == null) {
      String purpose = stream == 0 ? "aggregate-states" : "aggregate-distinct";
      writer = context.spillSpace().create(schemas[stream], purpose);
      writers[partition][stream] = writer;
    }
    return writer;
  }

  /** Ends every file: the partitions that got rows are then read with {@link #next}. */
  void finishWriting() {
    for (SpillWriter[] streams : writers) {
      SpillFile[] files = new SpillFile[streams.length];
      boolean any = false;
      try {
        for (int s = 0; s < streams.length; s++) {
          if (streams[s] != null) {
            files[s] = streams[s].finish();
            streams[s] = null;
            any = true;
          }
        }
      } finally {
        if (any) {
          partitions.add(new Partition(files));
        }
      }
    }
  }

  /** The next partition to merge, owned by the caller (closing it deletes its files), or null. */
  Partition next() {
    return partitions.poll();
  }

  /** Abandons unfinished files and deletes every partition not taken. Idempotent. */
  @Override
  public void close() {
    List<AutoCloseable> owned = new ArrayList<>();
    for (SpillWriter[] streams : writers) {
      owned.addAll(Arrays.asList(streams));
      Arrays.fill(streams, null);
    }
    owned.addAll(partitions);
    partitions.clear();
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
