package dev.quiver.operators.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.Take;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.plan.sort.SortKey;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The first {@code k} rows after skipping {@code offset} rows in key order (ORDER BY … LIMIT k
 * OFFSET offset), without sorting the whole input. With {@code n = k + offset}, it keeps at most
 * {@code n + max(n, targetBatchRows)} rows plus the batch being added.
 *
 * <pre>
 *   batch ─► its rows that sort before the cut-off row ─► buffer ─► full? cut: sort the buffer,
 *            (all rows while there is none)                          keep its first n rows; the
 *                                                                    n-th is the cut-off row
 *   finish ─► sort the buffer ─► skip offset rows ─► emit up to k rows
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): one input; its batches have the schema's column types.
 * Nothing is emitted before {@link #finish}, which emits the result in batches of exactly {@link
 * OperatorContext#targetBatchRows()} rows except the last. Like {@link SortOperator} it is stable:
 * among rows with equal keys the earlier input rows win and come first. Kept rows are reserved in
 * the budget; while the buffer is cut down, the kept rows are copied into new batches before the
 * old ones are released. With {@code k == 0} every batch is closed at once.
 */
public final class TopKOperator implements Operator {
  private final List<SortKey> keys;
  private final long k;
  private final long offset;
  private final long keep;
  private final long cutAt;
  private final RowComparator comparator;
  private final BatchSink sink;
  private final BufferAllocator allocator;
  private final int targetRows;
  private final SortBuffer buffer;
  // The last kept row once the buffer holds exactly `keep` rows: later rows must sort before it.
  private RowComparator.KeyColumns cutOff;
  private int cutOffRow;
  private boolean finished;
  private boolean closed;

  public TopKOperator(
      OperatorContext context,
      Schema schema,
      List<SortKey> keys,
      long k,
      long offset,
      BatchSink sink) {
    requireNonNull(context, "context is null");
    requireNonNull(schema, "schema is null");
    if (k < 0 || offset < 0) {
      throw new IllegalArgumentException("k and offset must be >= 0: " + k + ", " + offset);
    }
    this.comparator = RowComparator.create(schema, keys);
    this.keys = comparator.keys();
    this.k = k;
    this.offset = offset;
    this.keep = k == 0 ? 0 : saturatedAdd(k, offset);
    this.targetRows = context.targetBatchRows();
    this.cutAt = saturatedAdd(keep, Math.max(keep, targetRows));
    this.sink = requireNonNull(sink, "sink is null");
    this.allocator = context.allocator();
    this.buffer = new SortBuffer(comparator, context.budget(), toString());
  }

  @Override
  public int inputs() {
    return 1;
  }

  /** Keeps the rows of {@code batch} that may still be among the first {@code k + offset}. */
  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    VectorSchemaRoot kept;
    try {
      checkInput(input);
      SortBuffer.checkSchema(comparator.schema(), batch);
      kept = keep == 0 || batch.getRowCount() == 0 ? null : beforeCutOff(batch);
    } finally {
      batch.close(); // the rows kept were moved or copied out of it
    }
    if (kept != null) {
      buffer.add(kept);
      if (buffer.rowCount() >= cutAt) {
        cut();
      }
    }
  }

  /** Sorts the kept rows and emits rows {@code [offset, offset + k)}. */
  @Override
  public void finish(int input) {
    checkInput(input);
    finished = true;
    int rows = buffer.rowCount();
    if (rows > offset) {
      long[] refs = buffer.sortedRefs();
      RowGather gather = buffer.gather(allocator);
      int end = (int) Math.min(rows, saturatedAdd(offset, k));
      for (int from = (int) offset; from < end; from += targetRows) {
        sink.accept(gather.gather(refs, from, Math.min(targetRows, end - from)));
      }
    }
    buffer.clear();
    cutOff = null;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      cutOff = null;
      buffer.close();
    }
  }

  /** For example {@code TopK[k=10, offset=0, keys=[#0 ASC NULLS LAST]]}. */
  @Override
  public String toString() {
    return "TopK[k=" + k + ", offset=" + offset + ", keys=" + keys + "]";
  }

  /**
   * The rows of {@code batch} that sort strictly before the cut-off row (a tie loses: the kept row
   * came first), as a new batch owned by the caller; null when there are none.
   */
  private VectorSchemaRoot beforeCutOff(VectorSchemaRoot batch) {
    int rows = batch.getRowCount();
    if (cutOff == null) {
      return BatchTransfer.move(batch, allocator);
    }
    RowComparator.KeyColumns columns = comparator.bind(batch);
    int[] survivors = new int[rows];
    int count = 0;
    for (int row = 0; row < rows; row++) {
      survivors[count] = row;
      count += comparator.compare(columns, row, cutOff, cutOffRow) < 0 ? 1 : 0;
    }
    if (count == 0) {
      return null;
    }
    return count == rows
        ? BatchTransfer.move(batch, allocator)
        : Take.take(batch, survivors, count, allocator);
  }

  /** Sorts the buffer and keeps only its first {@code keep} rows, copied into new batches. */
  private void cut() {
    long[] refs = buffer.sortedRefs();
    RowGather gather = buffer.gather(allocator);
    int kept = (int) Math.min(keep, buffer.rowCount());
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int from = 0; from < kept; from += targetRows) {
        batches.add(gather.gather(refs, from, Math.min(targetRows, kept - from)));
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, batches);
      throw e;
    }
    buffer.clear();
    cutOff = null;
    for (int b = 0; b < batches.size(); b++) {
      try {
        buffer.add(batches.get(b));
      } catch (RuntimeException | Error e) {
        AutoCloseables.close(e, batches.subList(b + 1, batches.size()));
        throw e;
      }
    }
    if (kept == keep) {
      int last = buffer.batchCount() - 1;
      cutOff = buffer.keys(last);
      cutOffRow = buffer.batch(last).getRowCount() - 1;
    }
  }

  private void checkInput(int input) {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    if (input != 0) {
      throw new IllegalArgumentException("input " + input + " is outside [0, 1)");
    }
    if (finished) {
      throw new IllegalStateException(this + " is already finished");
    }
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
