package dev.quiver.operators;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A push-based vectorized operator over Arrow record batches.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>An operator is created with an {@link OperatorContext} and the {@link BatchSink} that
 *       receives its output. It has {@link #inputs()} numbered inputs (0 for a single input).
 *   <li>{@link #add(int, VectorSchemaRoot)} pushes one batch of an input. The operator owns the
 *       batch from the call on, also when the call throws: it closes it, or keeps it (moving its
 *       buffers into its own accounting). It may emit output batches to the sink during the call.
 *   <li>{@link #finish(int)} says that an input has no more batches. Once every input is finished
 *       the operator has emitted all its output. Operators that need their inputs in an order say
 *       so (a hash join needs its build input finished before the first probe batch).
 *   <li>Every output batch has at most {@link OperatorContext#targetBatchRows()} rows and belongs
 *       to the sink; operators coalesce small outputs instead of emitting many tiny batches.
 *   <li>Memory an operator keeps across calls is reserved in the context's budget first; a
 *       reservation beyond the budget fails with a clear error, never an out-of-memory crash.
 *   <li>{@link #close()} releases everything the operator holds, whether or not it finished; it is
 *       idempotent.
 *   <li>{@link #toString()} describes the operator in one line, e.g. {@code Limit[offset=10,
 *       fetch=5]}.
 * </ul>
 *
 * Operators are single-threaded: one task drives an operator from one thread.
 */
public interface Operator extends AutoCloseable {
  /** Number of inputs: 1 for most operators, 2 for joins, n for unions and merges. */
  int inputs();

  /** Pushes one batch of {@code input}; the operator takes ownership of {@code batch}. */
  void add(int input, VectorSchemaRoot batch);

  /** Tells the operator that {@code input} has no more batches. */
  void finish(int input);

  /**
   * Emits now the rows the operator holds only to make fuller output batches (never output that
   * needs more input to be right, such as an aggregate's groups), so that no row waits for input
   * that may be long in coming: an unbounded (streaming) task calls it before a watermark or a
   * checkpoint barrier passes it. Does nothing once the operator is finished or closed. Most
   * operators hold no such rows.
   */
  default void flush() {}

  /** Releases everything the operator holds. Idempotent. */
  @Override
  void close();
}
