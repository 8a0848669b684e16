package dev.quiver.operators.kernel;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.BatchTransfer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * An operator's output where small pieces are coalesced into batches of the target size.
 *
 * <pre>
 *   piece of n rows ─► nothing pending and n ≥ target / 2 ─► emitted as a batch of its own
 *                   ─► otherwise ─► appended to the pending batch (its bytes reserved in the
 *                                   budget) ─► emitted when it holds the target, or on flush()
 * </pre>
 *
 * <p>Operators that shrink or regroup their input (filter, repeat-rows) share this so that their
 * consumers see batches of a useful size and the rows held back count against the task's budget.
 * The caller decides with {@link #emitsDirectly} whether a piece goes straight to the sink, never
 * appends more than {@link #room()} rows at once, and calls {@link #flush()} when its input ends.
 */
public final class CoalescingOutput implements AutoCloseable {
  private final OperatorContext context;
  private final BatchSink sink;
  private final Object owner;
  private final int targetRows;
  private BatchAppender pending;
  private long reserved;

  /** {@code owner} names the operator in budget errors ("rows pending in Filter[...]"). */
  public CoalescingOutput(OperatorContext context, BatchSink sink, Object owner) {
    this.context = requireNonNull(context, "context is null");
    this.sink = requireNonNull(sink, "sink is null");
    this.owner = requireNonNull(owner, "owner is null");
    this.targetRows = context.targetBatchRows();
  }

  /** The most rows an output batch holds. */
  public int targetRows() {
    return targetRows;
  }

  /** Whether a piece of {@code rows} rows goes straight to the sink rather than being appended. */
  public boolean emitsDirectly(int rows) {
    return pendingRows() == 0 && rows >= Math.max(1, targetRows / 2);
  }

  /** How many rows the pending batch can still take. */
  public int room() {
    return targetRows - pendingRows();
  }

  /** Emits {@code batch} as an output batch of its own; the sink owns it. */
  public void emit(VectorSchemaRoot batch) {
    sink.accept(batch);
  }

  /**
   * Copies rows {@code [from, from + count)} of {@code batch} (still the caller's) into the pending
   * batch, reserving {@code bytes} for them, and emits the pending batch once it is full.
   */
  public void append(VectorSchemaRoot batch, int from, int count, long bytes) {
    if (count > room()) {
      throw new IllegalArgumentException(count + " rows do not fit the " + room() + " left");
    }
    context.budget().reserve(bytes, "rows pending in " + owner);
    reserved += bytes;
    if (pending == null) {
      BufferAllocator allocator = context.allocator();
      pending = new BatchAppender(batch.getSchema(), allocator, targetRows);
    }
    pending.append(batch, from, count);
    if (pendingRows() == targetRows) {
      flush();
    }
  }

  /**
   * Takes {@code batch} (the caller's no more), whatever its size: emitted as it is when {@link
   * #emitsDirectly}, else appended in pieces of at most {@link #room()} rows and closed. For an
   * operator that runs one inner operator after the other (one per window) and passes their output
   * on.
   */
  public void add(VectorSchemaRoot batch) {
    int rows = batch.getRowCount();
    if (rows > 0 && emitsDirectly(rows)) {
      emit(batch);
      return;
    }
    try (batch) {
      long bytes = BatchTransfer.heldBytes(batch);
      for (int from = 0; from < rows; ) {
        int count = Math.min(rows - from, room());
        append(batch, from, count, bytes * count / rows);
        from += count;
      }
    }
  }

  /** Emits the pending rows, if any, and releases their reservation. */
  public void flush() {
    if (pendingRows() > 0) {
      VectorSchemaRoot out = pending.build();
      context.budget().release(reserved);
      reserved = 0;
      sink.accept(out);
    }
  }

  /** Rows appended and not yet emitted. */
  public int pendingRows() {
    return pending == null ? 0 : pending.rowCount();
  }

  /** Drops the pending rows (never emitted) and releases their reservation. Idempotent. */
  @Override
  public void close() {
    if (pending != null) {
      pending.close();
      pending = null;
    }
    context.budget().release(reserved);
    reserved = 0;
  }
}
