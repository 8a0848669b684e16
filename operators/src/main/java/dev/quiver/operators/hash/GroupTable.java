package dev.quiver.operators.hash;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A vectorized hash table that maps multi-column keys to dense group ids {@code 0..n-1}: the core
 * of hash aggregation and of a hash join's build side. The new keys of a batch get ids above all
 * earlier ones (within a batch, ids follow probing rounds, not strictly row order).
 *
 * <p>Keys are compared with NULL equal to NULL (GROUP BY semantics); callers that need SQL equality
 * drop rows with NULL keys before they probe. Floats compare as {@link VectorHasher} hashes them
 * ({@code -0.0 = 0.0}, NaN = NaN). Supported key types: boolean, integers, floats, decimal128,
 * dates, times, timestamps, durations, intervals, utf8 and binary. Without key columns every row
 * maps to group 0.
 *
 * <p>Layout: open addressing with linear probing over a power-of-two {@code long[]} of slots, each
 * {@code (high 32 bits of the hash) << 32 | (group id + 1)}, 0 when empty. The bucket is the LOW
 * bits of the hash ({@link HashPartitioner} uses the high ones, so every channel still spreads over
 * all buckets), and the stored high bits reject most non-equal keys without touching them. Keys are
 * stored column-wise in Arrow-layout buffers ({@link GroupTableColumn}); the table doubles at half
 * load. Every byte it keeps is reserved in the budget first ({@link #retainedBytes()}).
 *
 * <p>Batch at a time: each round walks all unresolved rows to their next candidate slot, compares
 * the candidates column by column in type-specialised loops, then claims empty slots for new keys
 * in row order; a row whose slot was claimed by an earlier row of the same batch is compared with
 * that key in the next round. Not thread-safe.
 */
public final class GroupTable implements AutoCloseable {
  private static final int INITIAL_SLOTS = 1024;
  private static final int MAX_SLOTS = 1 << 30;

  private final List<Field> keyFields;
  private final GroupTableMemory memory;
  private final GroupTableColumn[] columns;
  private final GroupTableProbe probe;
  private long[] slots;
  private long[] groupHashes; // by group id: rehashing never touches the keys
  private int mask;
  private int maxGroups; // groups allowed before the slots double: half of them
  private int groupCount;
  private boolean closed;

  public GroupTable(List<Field> keyFields, BufferAllocator allocator, MemoryBudget budget) {
    this(keyFields, allocator, budget, "hash table");
  }

  /** {@code purpose} names the table in budget errors, e.g. the operator that owns it. */
  public GroupTable(
      List<Field> keyFields, BufferAllocator allocator, MemoryBudget budget, String purpose) {
    this.keyFields = List.copyOf(requireNonNull(keyFields, "keyFields is null"));
    this.memory = new GroupTableMemory(budget, allocator, purpose);
    this.columns = new GroupTableColumn[keyFields.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = GroupTableColumn.create(keyFields.get(i), memory);
    }
    this.probe = new GroupTableProbe(memory);
    resize(INITIAL_SLOTS);
  }

  /**
   * Writes the group id of each row {@code [0, rows)} of {@code keys} to {@code groupIds}, adding
   * the keys not seen before as new groups. {@code hashes} are the rows' {@link VectorHasher}
   * hashes over {@code keys}. All or nothing: when it fails (the budget refuses to let the table
   * grow), the table holds exactly the groups it held before, so an operator can spill them.
   */
  public void insert(List<FieldVector> keys, int rows, long[] hashes, int[] groupIds) {
    int before = groupCount;
    try {
      lookup(keys, rows, hashes, groupIds, true);
    } catch (RuntimeException | Error e) {
      if (!closed) {
        truncate(before, before + rows);
      }
      throw e;
    }
  }

  /** Forgets the newest groups, from {@code groups} on: undoes inserts, as a refused one is. */
  public void truncate(int groups) {
    checkOpen();
    if (groups < 0 || groups > groupCount) {
      throw new IllegalArgumentException(groups + " groups of " + groupCount);
    }
    truncate(groups, groupCount);
  }

  /** Removes groups {@code groups ..} (ids below {@code end}, some maybe not counted yet). */
  private void truncate(int groups, int end) {
    // A key's probe chain only crosses slots that were full when it was inserted, all older
    // keys', so emptying the slots of the newest groups leaves every older chain whole.
    for (int slot = 0; slot < slots.length; slot++) {
      if ((int) slots[slot] - 1 >= groups) {
        slots[slot] = 0;
      }
    }
    for (GroupTableColumn column : columns) {
      column.truncate(groups, end);
    }
    groupCount = groups;
  }

  /** Writes the group id of each row's key to {@code groupIds}, or -1 where there is none. */
  public void find(List<FieldVector> keys, int rows, long[] hashes, int[] groupIds) {
    lookup(keys, rows, hashes, groupIds, false);
  }

  /**
   * Presizes the slots to hold {@code groups} groups without doubling, e.g. a join build that knows
   * its row count. Only grows (never shrinks), within the table's limit; reserved in the budget
   * like any resize.
   */
  public void ensureCapacity(long groups) {
    checkOpen();
    if (groups < maxGroups) {
      return;
    }
    // The table doubles when its group count reaches maxGroups, so room means maxGroups > groups.
    int wanted = (int) Math.min(groups, MAX_SLOTS / 2 - 1);
    int capacity = Integer.highestOneBit(wanted) << 1; // > wanted, at most MAX_SLOTS / 2
    if (capacity > maxGroups) {
      resize(capacity * 2);
    }
  }

  /**
   * Reserves the scratch of a lookup of {@code rows} rows now, so that {@link #find} of at most
   * that many rows never needs the budget (a join that must not fail for memory once it probes).
   */
  public void ensureLookupRows(int rows) {
    checkOpen();
    probe.ensureCapacity(rows);
  }

  public int groupCount() {
    return groupCount;
  }

  /** The key fields, in key order. */
  public List<Field> keyFields() {
    return keyFields;
  }

  /**
   * The keys of groups {@code fromGroup .. fromGroup + count)}, in id order, as a new batch with
   * the key fields, allocated from {@code allocator} and owned by the caller.
   */
  public VectorSchemaRoot keys(int fromGroup, int count, BufferAllocator allocator) {
    requireNonNull(allocator, "allocator is null");
    checkOpen();
    if (fromGroup < 0 || count < 0 || fromGroup > groupCount - count) {
      throw new IllegalArgumentException(
          "groups [" + fromGroup + ", +" + count + ") are outside the " + groupCount + " groups");
    }
    return output(null, fromGroup, count, allocator);
  }

  /**
   * The keys of groups {@code groupIds[0 .. count)}, in that order, as a new batch with the key
   * fields, allocated from {@code allocator} and owned by the caller.
   */
  public VectorSchemaRoot keys(int[] groupIds, int count, BufferAllocator allocator) {
    requireNonNull(allocator, "allocator is null");
    checkOpen();
    for (int i = 0; i < count; i++) { // also throws for a null or short groupIds
      if (groupIds[i] < 0 || groupIds[i] >= groupCount) {
        throw new IllegalArgumentException(
            "group " + groupIds[i] + " is outside the " + groupCount + " groups");
      }
    }
    return output(groupIds, 0, count, allocator);
  }

  private VectorSchemaRoot output(int[] ids, int from, int count, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>(columns.length);
    try {
      for (GroupTableColumn column : columns) {
        vectors.add(column.output(ids, from, count, allocator));
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
    return new VectorSchemaRoot(new Schema(keyFields), vectors, count);
  }

  /** Bytes the table keeps (slots, hashes, keys, scratch), all reserved in the budget. */
  public long retainedBytes() {
    return memory.reserved();
  }

  /** Frees the keys and returns every reservation to the budget. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (GroupTableColumn column : columns) {
      column.free();
    }
    slots = null;
    groupHashes = null;
    probe.free();
    memory.releaseAll();
  }

  private void lookup(
      List<FieldVector> keys, int rows, long[] hashes, int[] groupIds, boolean insert) {
    requireNonNull(keys, "keys is null");
    requireNonNull(hashes, "hashes is null");
    requireNonNull(groupIds, "groupIds is null");
    checkOpen();
    checkKeys(keys, rows);
    if (rows > hashes.length || rows > groupIds.length) {
      throw new IllegalArgumentException("hashes or groupIds hold fewer than " + rows + " rows");
    }
    GroupTableProbe p = probe;
    p.start(rows, hashes, mask);
    while (p.activeCount > 0) {
      p.walk(slots, hashes, mask);
      compare(keys, p);
      p.settleCompared(groupIds, mask);
      if (insert) {
        int added = p.claim(slots, hashes, groupIds, groupCount, maxGroups - groupCount);
        for (int c = 0; c < columns.length; c++) {
          columns[c].append(keys.get(c), p.newRows, added, groupCount);
        }
        for (int k = 0; k < added; k++) {
          groupHashes[groupCount + k] = hashes[p.newRows[k]];
        }
        groupCount += added;
        if (groupCount == maxGroups) {
          resize(slots.length * 2);
          p.restart(hashes, mask); // slot positions changed: remaining rows probe afresh
        }
      } else {
        p.settleMissing(groupIds);
      }
    }
  }

  /** Marks the compared rows whose key differs from their candidate group's key. */
  private void compare(List<FieldVector> keys, GroupTableProbe p) {
    for (int c = 0; c < columns.length; c++) {
      GroupTableColumn column = columns[c];
      FieldVector vector = keys.get(c);
      if (column.mayHaveNulls(vector)) {
        int count =
            column.splitNulls(
                vector, p.compareRows, p.compareCount, p.candidates, p.mismatch, p.valueRows);
        column.compareValues(vector, p.valueRows, count, p.candidates, p.mismatch);
      } else {
        column.compareValues(vector, p.compareRows, p.compareCount, p.candidates, p.mismatch);
      }
    }
  }

  /** Moves to {@code capacity} slots (a power of two) and re-inserts every group by its hash. */
  private void resize(int capacity) {
    if (capacity > MAX_SLOTS) {
      throw new IllegalStateException("a hash table holds at most " + MAX_SLOTS / 2 + " groups");
    }
    int groups = capacity / 2;
    long bytes = (long) capacity * Long.BYTES + (long) groups * Long.BYTES;
    memory.reserve(bytes);
    long[] newSlots = new long[capacity];
    long[] newHashes = new long[groups];
    int newMask = capacity - 1;
    for (int id = 0; id < groupCount; id++) {
      long hash = groupHashes[id];
      newHashes[id] = hash;
      int slot = (int) hash & newMask;
      while (newSlots[slot] != 0) {
        slot = (slot + 1) & newMask;
      }
      newSlots[slot] = (hash & 0xFFFF_FFFF_0000_0000L) | (id + 1);
    }
    if (slots != null) {
      memory.release((long) slots.length * Long.BYTES + (long) groupHashes.length * Long.BYTES);
    }
    slots = newSlots;
    groupHashes = newHashes;
    mask = newMask;
    maxGroups = groups;
  }

  private void checkKeys(List<FieldVector> keys, int rows) {
    if (keys.size() != columns.length) {
      throw new IllegalArgumentException(
          keys.size() + " key columns given, the table has " + columns.length);
    }
    if (rows < 0) {
      throw new IllegalArgumentException("rows is negative: " + rows);
    }
    for (int c = 0; c < columns.length; c++) {
      FieldVector key = requireNonNull(keys.get(c), "key column is null");
      if (!key.getField().getType().equals(keyFields.get(c).getType())) {
        throw new IllegalArgumentException(
            "key column " + c + " is " + key.getField() + ", expected " + keyFields.get(c));
      }
      if (key.getValueCount() < rows) {
        throw new IllegalArgumentException(
            "key column " + c + " has " + key.getValueCount() + " values, fewer than " + rows);
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("group table is closed");
    }
  }
}
