package dev.quiver.operators.spill;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Where an operator puts what does not fit in its task's memory budget: spill files of Arrow
 * batches of one schema, written once, read back once (and reread, unchanged, for a checkpoint of
 * rows that stay spilled), deleted when closed.
 *
 * <p>Why an interface here: operators decide <em>when</em> to spill and never import the {@code
 * state} module that owns the files (or Flink, which owns the directories); the task hands them a
 * space through {@link dev.quiver.operators.OperatorContext#spillSpace()}. Without one ({@link
 * #NONE}), an operator whose budget refuses memory fails with {@code MEMORY_BUDGET_EXCEEDED} as
 * before.
 *
 * <pre>
 *   create(schema) ─► SpillWriter.write(batch)… ─► finish() ─► SpillFile ─► open(allocator)
 *                                                                 │          └► SpillReader.next()…
 *                                                                 ├► reread(allocator)…: the file stays
 *                                                                 └► close(): the file is deleted
 * </pre>
 *
 * <p>A space belongs to one task, lives as long as the task and deletes every file it created when
 * it is closed, also files whose writer or reader was never closed (a failed or cancelled task).
 * Operators still close what they create as soon as they are done with it, so disk use shrinks
 * while a task runs. The counters are totals over the space's life, for the task's metrics; they
 * may be read from another thread.
 */
public interface SpillSpace {
  /** A space that refuses to spill: operators keep today's in-memory behaviour. */
  SpillSpace NONE = new NoSpillSpace();

  /** Whether {@link #create} can be called; false for {@link #NONE}. */
  boolean canSpill();

  /**
   * A new, empty spill file for batches with {@code schema}'s column types, owned by the caller.
   *
   * @param purpose a short name of what is spilled (for example {@code "sort-run"}), for file names
   *     and logs
   * @throws IllegalStateException when this space {@linkplain #canSpill() cannot spill} or is
   *     closed
   */
  SpillWriter create(Schema schema, String purpose);

  /**
   * A new, empty keyed store owned by the caller, for state read back by key ({@link SpillStore});
   * closed by its owner or, at the latest, with the space.
   *
   * @param purpose a short name of what is kept (for example {@code "updating-aggregate"})
   * @throws IllegalStateException when this space {@linkplain #canSpill() cannot spill} or is
   *     closed
   */
  SpillStore openStore(String purpose);

  /** Bytes written to spill files so far (as stored, so after compression). */
  long spilledBytes();

  /** Rows written to spill files so far. */
  long spilledRows();

  /** Spill files created so far. */
  long spilledFiles();
}
