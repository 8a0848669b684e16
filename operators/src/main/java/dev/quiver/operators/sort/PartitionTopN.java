package dev.quiver.operators.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.kernel.KeyChanges;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.plan.window.WindowFunction;
import dev.quiver.plan.window.WindowTopN;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Keeps the rows of a set of batches that a ranking function numbers at most {@code n} within their
 * partition ({@code ROW_NUMBER}, {@code RANK} or {@code DENSE_RANK} {@code OVER (PARTITION BY ...
 * ORDER BY ...) <= n}): what a window top-N has to hold of its rows before it can run, instead of
 * every row.
 *
 * <pre>
 *   batches ─► IndexSort by (partition keys ASC, order keys), stable ─► row refs in order
 *           ─► the key columns gathered in that order ─► KeyChanges: partition and peer starts
 *           ─► one loop per function: the row's rank ≤ n? its ref is kept
 *           ─► RowGather of the kept refs ─► new batches in that order, ≤ batchRows rows each
 * </pre>
 *
 * <p>The rows kept are a prefix of each partition in the window operator's order (the sort below it
 * orders rows as this does; NULLs and ties alike), so every ranking function gives each kept row
 * the value it has among all rows. Ties: the sort is stable, so among rows equal on the order keys
 * the first given are kept first, and the kept rows come out in that order; a later stable sort of
 * the kept rows followed by rows given later numbers them as it would number all rows. For RANK
 * every row tied with the n-th is kept, for DENSE_RANK every row of the first n peer groups.
 *
 * <p>Memory: the sort's per-row arrays and the gathered key columns are reserved in the budget
 * while a prune runs; the batches it returns are the caller's to reserve. Immutable: prunes share
 * nothing, so one may serve every operator of a pipeline.
 */
public final class PartitionTopN {
  /** Per row: a reference, the sort's two scratch longs, three flags and a kept reference. */
  static final long ROW_BYTES = SortBuffer.ROW_BYTES + 3 + Long.BYTES;

  private final Schema schema;
  private final WindowFunction function;
  private final long n;
  private final RowComparator comparator;
  private final int[] keyColumns; // the distinct key columns, gathered in sorted order
  private final Schema keySchema;
  private final int[] partitionKeys; // of keySchema
  private final int[] orderKeys; // of keySchema

  /**
   * A prune of rows of {@code schema} to those {@code topN}'s function (ROW_NUMBER, RANK or
   * DENSE_RANK) numbers at most its n when partitioned by {@code partitionKeys} and ordered by
   * {@code orderKeys}.
   */
  public PartitionTopN(
      Schema schema, List<Integer> partitionKeys, List<SortKey> orderKeys, WindowTopN topN) {
    this.schema = requireNonNull(schema, "schema is null");
    requireNonNull(topN, "topN is null");
    this.function = topN.function();
    this.n = topN.n();
    RowGather.checkSupported(schema);
    List<SortKey> keys = new ArrayList<>();
    partitionKeys.forEach(column -> keys.add(SortKey.asc(column)));
    keys.addAll(orderKeys);
    this.comparator = RowComparator.create(schema, keys);
    Map<Integer, Integer> gathered = new LinkedHashMap<>();
    for (SortKey key : keys) {
      gathered.putIfAbsent(key.column(), gathered.size());
    }
    this.keyColumns = gathered.keySet().stream().mapToInt(Integer::intValue).toArray();
    List<Field> fields = new ArrayList<>();
    for (int column : keyColumns) {
      fields.add(schema.getFields().get(column));
    }
    this.keySchema = new Schema(fields);
    this.partitionKeys = partitionKeys.stream().mapToInt(gathered::get).toArray();
    this.orderKeys = orderKeys.stream().mapToInt(key -> gathered.get(key.column())).toArray();
  }

  /** The largest rank kept. */
  public long n() {
    return n;
  }

  /**
   * The rows of {@code batches} (of the schema's types; read during the call, still the caller's)
   * ranked at most n, as new batches of at most {@code batchRows} rows from {@code allocator},
   * sorted by (partition keys, order keys); or null when every row is kept (nothing to drop).
   */
  public List<VectorSchemaRoot> prune(
      List<VectorSchemaRoot> batches,
      BufferAllocator allocator,
      MemoryBudget budget,
      int batchRows) {
    long total = 0;
    for (VectorSchemaRoot batch : batches) {
      SortBuffer.checkSchema(schema, batch);
      total += batch.getRowCount();
    }
    if (total <= n) {
      return null; // no partition has more than n rows
    }
    if (total > SortBuffer.MAX_ROWS) {
      throw new IllegalArgumentException("cannot prune " + total + " rows at once");
    }
    int rows = (int) total;
    long heap = ROW_BYTES * rows;
    budget.reserve(heap, "the top-n prune of " + this);
    try {
      long[] refs = sorted(batches, rows);
      int kept = keep(batches, refs, rows, allocator, budget);
      return kept == rows ? null : gather(batches, refs, kept, allocator, batchRows);
    } finally {
      budget.release(heap);
    }
  }

  /** References {@code batch << 32 | row} to every row, sorted stably. */
  private long[] sorted(List<VectorSchemaRoot> batches, int rows) {
    List<RowComparator.KeyColumns> bound = new ArrayList<>(batches.size());
    long[] refs = new long[rows];
    int at = 0;
    for (int b = 0; b < batches.size(); b++) {
      VectorSchemaRoot batch = batches.get(b);
      bound.add(comparator.bind(batch));
      for (int row = 0; row < batch.getRowCount(); row++) {
        refs[at++] = (long) b << 32 | row;
      }
    }
    new IndexSort(comparator, batches, bound).sort(refs, rows);
    return refs;
  }

  /**
   * Moves the refs of the rows to keep to the front of {@code refs}, in order; returns how many.
   * The key columns are gathered in sorted order, so that partition and peer starts are one
   * vectorized pass per key column.
   */
  private int keep(
      List<VectorSchemaRoot> batches,
      long[] refs,
      int rows,
      BufferAllocator allocator,
      MemoryBudget budget) {
    boolean[] partitionStarts = new boolean[rows];
    boolean[] peerStarts = new boolean[rows];
    boolean[] scratch = new boolean[rows];
    List<VectorSchemaRoot> keyViews = new ArrayList<>(batches.size());
    for (VectorSchemaRoot batch : batches) {
      List<FieldVector> vectors = new ArrayList<>(keyColumns.length);
      for (int column : keyColumns) {
        vectors.add(batch.getVector(column));
      }
      // A view of the batch's own vectors: never closed here.
      keyViews.add(new VectorSchemaRoot(keySchema.getFields(), vectors, batch.getRowCount()));
    }
    try (VectorSchemaRoot keys =
        new RowGather(keySchema, keyViews, allocator).gather(refs, 0, rows)) {
      long bytes = BatchTransfer.heldBytes(keys);
      budget.reserve(bytes, "the top-n prune of " + this);
      try {
        for (int key : partitionKeys) {
          KeyChanges.mark(keys.getVector(key), rows, partitionStarts, scratch);
        }
        System.arraycopy(partitionStarts, 0, peerStarts, 0, rows);
        for (int key : orderKeys) {
          KeyChanges.mark(keys.getVector(key), rows, peerStarts, scratch);
        }
      } finally {
        budget.release(bytes);
      }
    }
    partitionStarts[0] = true;
    peerStarts[0] = true;
    return switch (function) {
      case ROW_NUMBER -> keepRowNumbers(refs, rows, partitionStarts);
      case RANK -> keepRanks(refs, rows, partitionStarts, peerStarts);
      default -> keepDenseRanks(refs, rows, partitionStarts, peerStarts);
    };
  }

  private int keepRowNumbers(long[] refs, int rows, boolean[] partitionStarts) {
    int kept = 0;
    long number = 0;
    for (int i = 0; i < rows; i++) {
      number = partitionStarts[i] ? 1 : number + 1;
      if (number <= n) {
        refs[kept++] = refs[i];
      }
    }
    return kept;
  }

  private int keepRanks(long[] refs, int rows, boolean[] partitionStarts, boolean[] peerStarts) {
    int kept = 0;
    long number = 0;
    long rank = 0;
    for (int i = 0; i < rows; i++) {
      number = partitionStarts[i] ? 1 : number + 1;
      rank = peerStarts[i] ? number : rank;
      if (rank <= n) {
        refs[kept++] = refs[i];
      }
    }
    return kept;
  }

  private int keepDenseRanks(
      long[] refs, int rows, boolean[] partitionStarts, boolean[] peerStarts) {
    int kept = 0;
    long rank = 0;
    for (int i = 0; i < rows; i++) {
      rank = partitionStarts[i] ? 1 : rank + (peerStarts[i] ? 1 : 0);
      if (rank <= n) {
        refs[kept++] = refs[i];
      }
    }
    return kept;
  }

  /** The rows of {@code refs[0, count)} as new batches of at most {@code batchRows} rows. */
  private List<VectorSchemaRoot> gather(
      List<VectorSchemaRoot> batches,
      long[] refs,
      int count,
      BufferAllocator allocator,
      int batchRows) {
    RowGather gather = new RowGather(schema, batches, allocator);
    List<VectorSchemaRoot> out = new ArrayList<>();
    try {
      for (int from = 0; from < count; from += batchRows) {
        out.add(gather.gather(refs, from, Math.min(batchRows, count - from)));
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, out);
      throw e;
    }
    return out;
  }

  /** {@code row_number() <= 3 per partition}. */
  @Override
  public String toString() {
    return function.sqlName() + "() <= " + n + " per partition";
  }
}
