package dev.quiver.operators.aggregate;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.kernel.RowCodec;
import dev.quiver.operators.spill.SpillStore;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The groups of an {@link UpdatingAggregateOperator} that left memory: keys and partial states in
 * the task's {@link SpillStore} (RocksDB in a Flink task), one entry per group, so that a group is
 * either in memory or here, never in both.
 *
 * <pre>
 *   budget refuses a batch ─► evict: every group in memory ─► putAll(key → states) ─► groups cleared
 *   a batch's new groups   ─► load: getAll(their keys) ─► found: states decoded, reserved
 *                          ─► fold: merged into their (new) groups before the batch; old values
 *                          ─► forget: deleteAll(their keys) once the batch is folded
 *   checkpoint             ─► writeEntries: every entry, straight from the store to the stream
 *   restore                ─► restore: a chunk of a snapshot's entries, putAll
 * </pre>
 *
 * <p>Only the groups a batch creates in memory are looked up, one batched lookup per batch (piece),
 * so groups that stay in memory cost nothing here. Keys and states are encoded by {@link RowCodec}
 * (equal keys, equal bytes). The decoded states of a batch are reserved in the task's budget until
 * it is folded; the store's own memory (RocksDB's write buffers and block cache) is not the task's
 * budget but a fixed amount per store. Not thread-safe.
 */
final class ColdGroups implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ColdGroups.class);

  private static final String PURPOSE = "updating-aggregate"; // names the store's directory

  private final OperatorContext context;
  private final Schema schema; // keys, then states
  private final int keys;
  private final int[] stateCounts; // per call
  private final RowCodec keyCodec;
  private final RowCodec valueCodec;
  private final Schema valueSchema;
  private final Reservation reservation;
  private final Object owner; // the operator, as logs name it
  private SpillStore store; // opened at the first eviction
  private long entries;
  private long evictions; // times every group left memory
  private long evicted; // groups written, over all evictions
  private byte[][] keyBytes = new byte[0][];
  private byte[][] valueBytes = new byte[0][];
  private int[] loadedIds = new int[0];
  private int loaded;
  private VectorSchemaRoot loadedStates; // the loaded groups' states: valueSchema

  private ColdGroups(
      OperatorContext context, Schema schema, int keys, int[] stateCounts, Object owner) {
    this.context = context;
    this.schema = schema;
    this.keys = keys;
    this.stateCounts = stateCounts;
    List<Field> fields = schema.getFields();
    this.keyCodec = RowCodec.forKeys(fields.subList(0, keys));
    this.valueCodec = RowCodec.forValues(fields.subList(keys, fields.size()));
    this.valueSchema = new Schema(fields.subList(keys, fields.size()));
    this.owner = owner;
    this.reservation = new Reservation(context.budget(), owner + " cold groups");
  }

  /**
   * Cold groups for groups of {@code schema} (its first {@code keys} fields the keys, then every
   * call's {@code stateCounts[c]} states), or null when they cannot leave memory: a global
   * aggregate, a task without a spill space, or a type {@link RowCodec} does not encode.
   */
  static ColdGroups forGroups(
      OperatorContext context, Schema schema, int keys, int[] stateCounts, Object owner) {
    if (keys == 0 || !context.spillSpace().canSpill() || !RowCodec.supports(schema.getFields())) {
      return null;
    }
    return new ColdGroups(context, schema, keys, stateCounts, owner);
  }

  /** Groups held here. */
  long entries() {
    return entries;
  }

  /** Moves every group of {@code groups} here; the caller clears them. */
  void evict(GroupStates groups) {
    if (store == null) {
      store = context.spillSpace().openStore(PURPOSE);
    }
    int count = groups.groupCount();
    evictions++;
    evicted += count;
    if (evictions == 1) {
      LOG.info("{} moves its groups to a spill store: {} did not fit its budget", owner, count);
    } else {
      LOG.debug("{} moves {} groups to its spill store ({} there)", owner, count, entries);
    }
    int target = context.targetBatchRows();
    for (int from = 0; from < count; from += target) {
      int rows = Math.min(target, count - from);
      try (VectorSchemaRoot states =
          AggregateOutput.states(
              schema,
              groups.table(),
              groups.accumulators(),
              stateCounts,
              from,
              rows,
              context.allocator())) {
        ensureRows(rows);
        List<FieldVector> vectors = states.getFieldVectors();
        keyCodec.encode(vectors.subList(0, keys), rows, keyBytes);
        valueCodec.encode(vectors.subList(keys, vectors.size()), rows, valueBytes);
        store.putAll(keyBytes, valueBytes, rows);
        entries += rows;
      }
    }
    Arrays.fill(keyBytes, null);
    Arrays.fill(valueBytes, null);
  }

  /**
   * Looks up the new groups {@code [groupsBefore, groups)} of {@code states} here and reserves the
   * states of those found; returns how many were found. On a refusal the caller calls {@link
   * #release}.
   */
  int load(GroupStates states, int groupsBefore, int groups) {
    release();
    int count = groups - groupsBefore;
    if (entries == 0 || count == 0) {
      return 0;
    }
    ensureRows(count);
    try (VectorSchemaRoot newKeys = states.table().keys(groupsBefore, count, context.allocator())) {
      keyCodec.encode(newKeys.getFieldVectors(), count, keyBytes);
    }
    store.getAll(keyBytes, count, valueBytes);
    int found = 0;
    for (int i = 0; i < count; i++) {
      if (valueBytes[i] != null) {
        loadedIds[found] = groupsBefore + i;
        keyBytes[found] = keyBytes[i];
        valueBytes[found++] = valueBytes[i];
      }
    }
    loaded = found;
    if (found == 0) {
      return 0;
    }
    loadedStates = VectorSchemaRoot.create(valueSchema, context.allocator());
    valueCodec.decode(valueBytes, found, loadedStates.getFieldVectors());
    loadedStates.setRowCount(found);
    long bytes = 0;
    for (FieldVector vector : loadedStates.getFieldVectors()) {
      bytes += vector.getBufferSize();
    }
    reservation.reserve(bytes);
    Accumulator[] accumulators = states.accumulators();
    int column = 0;
    for (int c = 0; c < accumulators.length; c++) {
      if (stateCounts[c] == 0) {
        continue;
      }
      FieldVector second = stateCounts[c] >= 2 ? loadedStates.getVector(column + 1) : null;
      accumulators[c].reserveValues(loadedStates.getVector(column), second, found);
      column += stateCounts[c];
    }
    return found;
  }

  /** The group id of the {@code i}-th group {@link #load} found. */
  int loadedGroup(int i) {
    return loadedIds[i];
  }

  /** Merges the loaded states into their groups: they hold their old values again. */
  void fold(GroupStates states) {
    if (loaded == 0) {
      return;
    }
    Accumulator[] accumulators = states.accumulators();
    List<FieldVector> vectors = loadedStates.getFieldVectors();
    int column = 0;
    for (int c = 0; c < accumulators.length; c++) {
      if (stateCounts[c] == 0) {
        continue;
      }
      accumulators[c].addStates(
          vectors.subList(column, column + stateCounts[c]), loadedIds, loaded);
      column += stateCounts[c];
    }
  }

  /** The loaded groups are in memory for good: deletes them here and releases their states. */
  void forget() {
    if (loaded > 0) {
      store.deleteAll(keyBytes, loaded);
      entries -= loaded;
    }
    release();
  }

  /** Lets go of the states {@link #load} reserved (a refused batch). */
  void release() {
    Arrays.fill(keyBytes, 0, Math.min(loaded, keyBytes.length), null);
    Arrays.fill(valueBytes, 0, Math.min(loaded, valueBytes.length), null);
    loaded = 0;
    if (loadedStates != null) {
      loadedStates.close();
      loadedStates = null;
    }
    reservation.releaseAll();
  }

  /**
   * Writes every group held here to {@code out} as the store holds it, entry by entry straight from
   * {@link SpillStore#forEach}: per entry int32 key length, key, int32 value length, value ({@link
   * UpdatingSnapshot}). Nothing is decoded and nothing is collected: the snapshot of a store larger
   * than memory streams through.
   */
  void writeEntries(DataOutputStream out) throws IOException {
    if (entries == 0) {
      return;
    }
    try {
      store.forEach(
          (key, value) -> {
            try {
              out.writeInt(key.length);
              out.write(key);
              out.writeInt(value.length);
              out.write(value);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * Puts {@code count} entries of a snapshot ({@link #writeEntries}) back into the store, as one
   * write: a restore brings the cold groups back cold, a chunk at a time.
   */
  void restore(byte[][] keyRows, byte[][] valueRows, int count) {
    if (count == 0) {
      return;
    }
    if (store == null) {
      store = context.spillSpace().openStore(PURPOSE);
    }
    store.putAll(keyRows, valueRows, count);
    entries += count;
  }

  /**
   * Decodes {@code count} entries of a snapshot into a batch of {@code schema} (its first {@code
   * keys} fields the keys), in {@code allocator}: for a restore where groups cannot leave memory.
   */
  static VectorSchemaRoot decode(
      Schema schema,
      int keys,
      byte[][] keyRows,
      byte[][] valueRows,
      int count,
      BufferAllocator allocator) {
    List<Field> fields = schema.getFields();
    RowCodec keyCodec = RowCodec.forKeys(fields.subList(0, keys));
    RowCodec valueCodec = RowCodec.forValues(fields.subList(keys, fields.size()));
    VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
    try {
      List<FieldVector> vectors = batch.getFieldVectors();
      keyCodec.decode(keyRows, count, vectors.subList(0, keys));
      valueCodec.decode(valueRows, count, vectors.subList(keys, vectors.size()));
      batch.setRowCount(count);
      return batch;
    } catch (RuntimeException | Error e) {
      batch.close();
      throw e;
    }
  }

  private void ensureRows(int rows) {
    if (keyBytes.length < rows) {
      keyBytes = new byte[rows][];
      valueBytes = new byte[rows][];
      loadedIds = new int[rows];
    }
  }

  @Override
  public void close() {
    if (evictions > 0) {
      LOG.info(
          "{} moved groups to its spill store {} times ({} groups written, {} there at the end)",
          owner,
          evictions,
          evicted,
          entries);
    }
    List<AutoCloseable> owned = new ArrayList<>();
    owned.add(this::release);
    owned.add(store);
    store = null;
    entries = 0;
    AutoCloseables.closeNoChecked(() -> AutoCloseables.close(owned));
  }
}
