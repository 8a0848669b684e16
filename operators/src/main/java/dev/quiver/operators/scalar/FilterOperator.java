package dev.quiver.operators.scalar;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.expr.CompiledExpression;
import dev.quiver.operators.expr.ExpressionCompiler;
import dev.quiver.operators.expr.Selection;
import dev.quiver.operators.kernel.CoalescingOutput;
import dev.quiver.operators.kernel.Take;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Keeps the rows for which a BOOLEAN predicate is TRUE (FALSE and NULL rows are dropped).
 *
 * <pre>
 *   batch ─► predicate.select: conjunct 1 on all rows, conjunct 2 on the survivors, ...
 *         ─► every row kept, batch of a good size ─► emitted untouched
 *         ─► many rows kept                       ─► Take (gather) ─► emitted
 *         ─► few rows kept                        ─► Take ─► coalesced with later survivors
 * </pre>
 *
 * <p>Output batches hold at most {@link OperatorContext#targetBatchRows()} rows. Survivors of a
 * batch that would make an output batch smaller than half the target are copied into a pending
 * batch, which is emitted when it is full or when the input finishes; the pending rows are reserved
 * in the memory budget. Columns are copied once, at the end, for the surviving rows only.
 */
public final class FilterOperator implements Operator {
  private final CompiledExpression predicate;
  private final BufferAllocator allocator;
  private final int targetRows;
  private final CoalescingOutput output;
  private boolean finished;
  private boolean closed;

  public FilterOperator(OperatorContext context, Expr predicate, BatchSink sink) {
    requireNonNull(context, "context is null");
    requireNonNull(predicate, "predicate is null");
    if (!predicate.sqlType().equals(SqlType.BOOLEAN)) {
      throw new IllegalArgumentException("filter predicate is not BOOLEAN: " + predicate);
    }
    this.predicate = ExpressionCompiler.compile(predicate);
    this.allocator = context.allocator();
    this.targetRows = context.targetBatchRows();
    this.output = new CoalescingOutput(context, requireNonNull(sink, "sink is null"), this);
  }

  @Override
  public int inputs() {
    return 1;
  }

  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    boolean handedOver = false;
    try {
      checkInput(input);
      int rows = batch.getRowCount();
      if (rows == 0) {
        return;
      }
      Selection kept = predicate.select(batch, allocator);
      int n = kept.size();
      if (n == rows && rows <= targetRows && output.emitsDirectly(rows)) {
        handedOver = true;
        output.emit(batch); // every row survives: pass the batch through untouched
        return;
      }
      emit(batch, kept, n == rows);
    } finally {
      if (!handedOver) {
        batch.close();
      }
    }
  }

  private void emit(VectorSchemaRoot batch, Selection kept, boolean all) {
    int n = kept.size();
    int from = 0;
    while (from < n) {
      int remaining = n - from;
      if (output.emitsDirectly(remaining)) {
        int count = Math.min(targetRows, remaining);
        output.emit(
            all
                ? Slices.slice(batch, from, count, allocator)
                : Take.take(batch, kept.rows(), from, count, allocator));
        from += count;
        continue;
      }
      int count = Math.min(output.room(), remaining);
      long bytes = Slices.bytes(batch) * count / batch.getRowCount();
      if (all) {
        output.append(batch, from, count, bytes);
      } else {
        try (VectorSchemaRoot part = Take.take(batch, kept.rows(), from, count, allocator)) {
          output.append(part, 0, count, bytes);
        }
      }
      from += count;
    }
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    finished = true;
    output.flush();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    output.close();
  }

  private void checkInput(int input) {
    if (closed || finished) {
      throw new IllegalStateException(this + " is " + (closed ? "closed" : "finished"));
    }
    if (input != 0) {
      throw new IllegalArgumentException("filter has one input, not input " + input);
    }
  }

  /** For example {@code Filter[(#4 >= DATE '1994-01-01')]}. */
  @Override
  public void flush() {
    if (!closed && !finished) {
      output.flush();
    }
  }

  @Override
  public String toString() {
    return "Filter[" + predicate.expression() + "]";
  }
}
