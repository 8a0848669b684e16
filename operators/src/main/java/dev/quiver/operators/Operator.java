package dev.quiver.operators;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * <p>Unbounded (streaming) tasks add event time and checkpoints:
 *
 * <ul>
 *   <li>{@link #watermark(long)} says that no later row has an event time at or before the given
 *       millisecond (Flink's watermark). The operator emits what that completes (a window
 *       aggregate: the windows that have ended) and what it holds only to fill batches, before the
 *       task passes the watermark on. Watermarks never go back; one that does not advance completes
 *       nothing.
 *   <li>An operator whose output depends on rows it received in earlier calls beyond what {@link
 *       #flush()} emits is {@linkplain #isStateful() stateful}. Its {@link #snapshotState()} is an
 *       opaque byte array that holds everything it needs to continue; {@link #restoreState(byte[])}
 *       on a freshly created operator of the same plan, before any input, makes it continue exactly
 *       where the snapshot was taken: the same remaining input gives the same output rows at the
 *       same points (their order within one emission may differ where it carries no meaning). The
 *       task snapshots at a checkpoint barrier, after a {@link #flush()}. Operators that hold rows
 *       but only ever run over bounded inputs (a hash aggregate, a sort, a join's build side) keep
 *       the default, not stateful: a streaming plan must not put them over an unbounded input.
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

  /**
   * The event-time watermark passes: no row after this call has an event time (milliseconds since
   * the epoch) at or before {@code millis}. Emits what the watermark completes, and at least what
   * {@link #flush()} emits, which is all most operators do. Does nothing once the operator is
   * finished or closed.
   */
  default void watermark(long millis) {
    flush();
  }

  /**
   * The task's event-time input has gone idle (Flink: no rows for the source's idle timeout, so the
   * watermarks downstream stop waiting for this task): emits what it can without completing
   * anything, as {@link #flush()} does, and answers whether it still holds rows that a later
   * watermark would emit, which downstream must not overtake (then the task stays active for
   * downstream). A partial window aggregate emits its open windows' partial states here (the final
   * aggregate merges them) and holds nothing. Does nothing once finished or closed.
   *
   * @return true if the operator holds no rows waiting for a watermark
   */
  default boolean idle() {
    flush();
    return true;
  }

  /**
   * Rows dropped so far because their event-time window had already been emitted when they arrived
   * (late data); 0 for operators without event-time windows. May be read from another thread (a
   * metrics reporter), so a slightly stale value is acceptable.
   */
  default long lateRows() {
    return 0;
  }

  /** Whether {@link #snapshotState()} holds anything: false for operators that keep no rows. */
  default boolean isStateful() {
    return false;
  }

  /**
   * Everything the operator needs to continue after a restore, as an opaque, versioned byte array.
   * Only called on {@linkplain #isStateful() stateful} operators, between calls (never during one).
   *
   * @throws UnsupportedOperationException if the operator is not stateful
   */
  default byte[] snapshotState() {
    throw new UnsupportedOperationException(this + " keeps no state to snapshot");
  }

  /**
   * Continues from {@code state}, a {@link #snapshotState()} of an operator made from the same
   * plan; called on a freshly created operator before any input.
   *
   * @throws UnsupportedOperationException if the operator is not stateful
   */
  default void restoreState(byte[] state) {
    throw new UnsupportedOperationException(this + " keeps no state to restore");
  }

  /**
   * Writes the state to {@code out} as it goes, without assembling it first: the same content as
   * {@link #snapshotState()} (an operator that overrides this overrides both, {@link
   * StateStreams#toBytes} gives the array). {@code out} is not closed, and nothing but this state
   * is written to it. The default writes {@link #snapshotState()}'s array: operators whose state is
   * small keep it.
   *
   * @throws IOException if {@code out} fails (the checkpoint fails, the operator is unchanged)
   * @throws UnsupportedOperationException if the operator is not stateful
   */
  default void snapshotState(OutputStream out) throws IOException {
    out.write(snapshotState());
  }

  /**
   * Continues from a state {@link #snapshotState(OutputStream)} wrote, read from {@code in} up to
   * its end (the caller bounds {@code in} to this one state); as {@link #restoreState(byte[])}, on
   * a freshly created operator before any input. An operator reads what it restores batch by batch
   * and holds no more of the stream at once than a batch (or a bounded chunk of entries). The
   * default reads the whole stream into an array for {@link #restoreState(byte[])}.
   *
   * @throws IOException if {@code in} fails
   * @throws UnsupportedOperationException if the operator is not stateful
   */
  default void restoreState(InputStream in) throws IOException {
    restoreState(in.readAllBytes());
  }

  /** Releases everything the operator holds. Idempotent. */
  @Override
  void close();
}
