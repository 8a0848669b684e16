package dev.quiver.operators.spill;

/**
 * Keyed state on local disk for an operator that reads it back by key: what a {@link SpillSpace}
 * offers beside its spill files when the state is not read once front to back but looked up a few
 * keys at a time (an updating aggregate's groups that did not fit in memory).
 *
 * <pre>
 *   putAll(keys, values, n)   one atomic write of n entries (a key not stored before, or replaced)
 *   getAll(keys, n, values)   values[i] = the value of keys[i], or null: one batched lookup
 *   deleteAll(keys, n)        one atomic write
 *   forEach(visitor)          every entry, in key order (checkpoints)
 *   close()                   the store and its files are gone
 * </pre>
 *
 * <p>Keys and values are byte strings the operator encodes ({@link
 * dev.quiver.operators.kernel.RowCodec}); equal keys must be equal bytes. Arrays, not Arrow
 * buffers: every implementation worth having copies through its own API anyway, and a store is only
 * touched on the cold path (the groups that left memory), batch by batch. Nothing here is durable:
 * a store lives and dies with its task, and a checkpoint copies its entries out. Not thread-safe.
 */
public interface SpillStore extends AutoCloseable {
  /** Visits stored entries. */
  @FunctionalInterface
  interface Visitor {
    void visit(byte[] key, byte[] value);
  }

  /** Writes {@code keys[i] -> values[i]} for {@code i < count}, as one write. */
  void putAll(byte[][] keys, byte[][] values, int count);

  /** Sets {@code values[i]} to the value of {@code keys[i]}, or null, for {@code i < count}. */
  void getAll(byte[][] keys, int count, byte[][] values);

  /** Removes {@code keys[0, count)} (absent keys are ignored), as one write. */
  void deleteAll(byte[][] keys, int count);

  /** Visits every entry in key order. */
  void forEach(Visitor visitor);

  /** Bytes this store holds on disk (approximate; for metrics and logs). */
  long diskBytes();

  /** Closes the store and deletes its files. Idempotent. */
  @Override
  void close();
}
