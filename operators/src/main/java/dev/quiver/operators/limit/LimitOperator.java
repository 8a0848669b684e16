package dev.quiver.operators.limit;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Skips the first {@code offset} rows of its input and passes on the next {@code fetch} rows (LIMIT
 * fetch OFFSET offset), in input order.
 *
 * <pre>
 *   batches: [ skipped ][ skip | pass ][ pass ][ pass | drop ][ dropped ] ...
 *                closed    a slice      as is     a slice       closed; isFinished() is true
 * </pre>
 *
 * <p>Contract (beyond {@link Operator}'s): one input. Rows are never copied: a batch that lies
 * wholly inside the window is passed on as it is, one that straddles an edge (or has more than
 * {@link OperatorContext#targetBatchRows()} rows) is passed on as zero-copy slices sharing its
 * buffers, and batches or parts outside the window are closed. Empty batches are closed, never
 * passed on. Once {@code fetch} rows have been passed on, {@link #isFinished()} is true: a caller
 * may stop feeding the input; batches that still arrive are closed. (Quiver's stage tasks keep
 * reading their inputs to the end and rely on this closing: a Flink task cannot stop the stages
 * that produce its input.) The operator keeps nothing between calls, so it reserves no memory.
 */
public final class LimitOperator implements Operator {
  /** A fetch without limit: every row after the offset. */
  public static final long ALL = Long.MAX_VALUE;

  private final long offset;
  private final long fetch;
  private final int targetRows;
  private final BatchSink sink;
  private long toSkip;
  private long toFetch;
  private boolean inputFinished;
  private boolean closed;

  /** Skips {@code offset} rows, then passes on {@code fetch} rows ({@link #ALL} for all). */
  public LimitOperator(OperatorContext context, long offset, long fetch, BatchSink sink) {
    requireNonNull(context, "context is null");
    if (offset < 0 || fetch < 0) {
      throw new IllegalArgumentException(
          "offset and fetch must be >= 0: offset=" + offset + ", fetch=" + fetch);
    }
    this.offset = offset;
    this.fetch = fetch;
    this.toSkip = offset;
    this.toFetch = fetch;
    this.targetRows = context.targetBatchRows();
    this.sink = requireNonNull(sink, "sink is null");
  }

  @Override
  public int inputs() {
    return 1;
  }

  /** Passes on the rows of {@code batch} inside the window and closes the rest. */
  @Override
  public void add(int input, VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    int rows = batch.getRowCount();
    try {
      checkInput(input);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    if (toFetch == 0 || rows == 0 || toSkip >= rows) {
      toSkip -= Math.min(toSkip, rows);
      batch.close();
      return;
    }
    int start = (int) toSkip;
    int count = (int) Math.min(rows - start, toFetch);
    toSkip = 0;
    if (fetch != ALL) {
      toFetch -= count;
    }
    if (start == 0 && count == rows && rows <= targetRows) {
      sink.accept(batch);
      return;
    }
    try (batch) {
      for (int from = start; from < start + count; from += targetRows) {
        sink.accept(slice(batch, from, Math.min(targetRows, start + count - from)));
      }
    }
  }

  @Override
  public void finish(int input) {
    checkInput(input);
    inputFinished = true;
  }

  /**
   * Whether the operator needs no more input: all {@code fetch} rows were passed on, or the input
   * is finished. Batches added afterwards (before {@link #finish}) are closed.
   */
  public boolean isFinished() {
    return toFetch == 0 || inputFinished;
  }

  @Override
  public void close() {
    closed = true; // nothing is kept between calls
  }

  /** For example {@code Limit[offset=10, fetch=5]}, or {@code fetch=ALL}. */
  @Override
  public String toString() {
    return "Limit[offset=" + offset + ", fetch=" + (fetch == ALL ? "ALL" : fetch) + "]";
  }

  /**
   * Rows {@code [from, from + count)} of {@code batch} sharing its buffers, owned by the caller.
   */
  static VectorSchemaRoot slice(VectorSchemaRoot batch, int from, int count) {
    VectorSchemaRoot slice = batch.slice(from, count);
    if (slice.getFieldVectors().isEmpty()) {
      slice.setRowCount(count); // a batch without columns only counts rows
    }
    return slice;
  }

  private void checkInput(int input) {
    if (closed) {
      throw new IllegalStateException(this + " is closed");
    }
    if (input != 0) {
      throw new IllegalArgumentException("input " + input + " is outside [0, 1)");
    }
    if (inputFinished) {
      throw new IllegalStateException(this + " is already finished");
    }
  }
}
