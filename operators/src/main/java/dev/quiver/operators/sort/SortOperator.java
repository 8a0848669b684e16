package dev.quiver.operators.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.plan.sort.SortKey;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sorts its whole input by several {@link SortKey}s (ORDER BY without LIMIT), in memory, or
 * spilling sorted runs to the task's spill space when the budget is full.
 *
 * <pre>
 *   batches ─► kept as they are (reserved) ─► finish: sort row references ─► gather ─► sink
 *                                              (normalized key prefixes,   ≤ targetBatchRows
 *                                               primitive sort, comparator   rows per batch
 *                                               only on ties)
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): one input; its batches have the schema's column types.
 * Nothing is emitted before {@link #finish}, which emits every row in key order in batches of
 * exactly {@link OperatorContext#targetBatchRows()} rows except the last. The sort is
 * <b>stable</b>: rows with equal keys come out in input order. Input batches are kept without
 * copying, reserved in the budget together with {@link SortBuffer#ROW_BYTES} bytes per row for the
 * sort's index arrays (a reservation beyond the budget fails with {@code MEMORY_BUDGET_EXCEEDED}),
 * and each is released once its last row has been emitted. Values order as {@link RowComparator}
 * says for every type it supports.
 *
 * <p>When the context has a {@linkplain OperatorContext#spillSpace() spill space}, a batch the
 * budget refuses does not fail: the buffered rows are sorted and written as one sorted run, and
 * {@link #finish} merges the runs with the rows still in memory, with the same order, stability and
 * batch sizes (see {@link SpillingRuns}). Spill files are deleted as they are merged, and by {@link
 * #close} whatever happened.
 *
 * <p>Rows are never moved while sorting: the sort orders references ({@code batch << 32 | row}) by
 * order-preserving 64-bit prefixes of the keys and compares whole rows only where prefixes tie
 * without deciding (see {@link IndexSort}); output rows are then gathered from all batches at once.
 */
public final class SortOperator implements Operator {
  private final List<SortKey> keys;
  private final BatchSink sink;
  private final BufferAllocator allocator;
  private final int targetRows;
  private final SortBuffer buffer;
  private final SpillingRuns spill; // null without a spill space
  private boolean finished;
  private boolean closed;

  public SortOperator(OperatorContext context, Schema schema, List<SortKey> keys, BatchSink sink) {
    requireNonNull(context, "context is null");
    requireNonNull(schema, "schema is null");
    RowComparator comparator = RowComparator.create(schema, keys);
    this.keys = comparator.keys();
    this.sink = requireNonNull(sink, "sink is null");
    this.allocator = context.allocator();
    this.targetRows = context.targetBatchRows();
    this.buffer = new SortBuffer(comparator, context.budget(), toString());
    this.spill =
        context.spillSpace().canSpill() ? new SpillingRuns(comparator, context, toString()) : null;
  }

  @Override
  public int inputs() {
    return 1;
  }

  /** Keeps {@code batch} until {@link #finish}, spilling what it kept when the budget is full. */
  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    try {
      checkInput(input);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    if (batch.getRowCount() == 0) {
      batch.close();
    } else if (spill == null) {
      buffer.add(batch);
    } else {
      spill.add(buffer, batch);
    }
  }

  /** Sorts everything kept and emits it. */
  @Override
  public void finish(int input) {
    checkInput(input);
    finished = true;
    if (spill != null && spill.spilled()) {
      spill.finish(buffer, sink);
      return;
    }
    if (buffer.rowCount() == 0) {
      return;
    }
    SortBuffer.Drain drain = buffer.drain(allocator, targetRows);
    for (VectorSchemaRoot out = drain.next(); out != null; out = drain.next()) {
      sink.accept(out);
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      try {
        buffer.close();
      } finally {
        if (spill != null) {
          spill.close();
        }
      }
    }
  }

  /** For example {@code Sort[#1 ASC NULLS LAST, #0 DESC NULLS FIRST]}. */
  @Override
  public String toString() {
    return keys.stream().map(SortKey::toString).collect(Collectors.joining(", ", "Sort[", "]"));
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
}
