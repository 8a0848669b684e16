package dev.quiver.operators.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.hash.GroupTable;
import dev.quiver.operators.hash.VectorHasher;
import dev.quiver.operators.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The hash table of a hash join's build side: a {@link GroupTable} maps each distinct build key to
 * a dense group id, and per-group row chains list the build rows of each key.
 *
 * <pre>
 *   key ──GroupTable──► group g ──head[g]──► build row r ──next[r]──► row r' ──► … ──► -1
 * </pre>
 *
 * <p>Build rows are numbered globally across the build segments. Rows with a NULL in any key column
 * are inserted into the group table (it has no row selection) but never linked into a chain, so
 * under SQL equality they match nothing: a probe row with NULL keys finds their group, whose chain
 * is empty. The chain arrays are reserved in the budget; the group table reserves its own memory.
 */
final class JoinHashTable implements AutoCloseable {
  /** Build rows hashed and inserted per call: bounds the table's per-call scratch memory. */
  private static final int INSERT_ROWS = 1 << 16;

  private final int[] keyColumns;
  private final BufferAllocator allocator;
  private final MemoryBudget budget;
  private final String owner;
  private final GroupTable groups;
  private int[] head = new int[0];
  private int[] next = new int[0];
  private boolean[] probedGroups;
  private long reserved;
  private boolean hasNullKey;

  JoinHashTable(
      List<Field> keyFields,
      int[] keyColumns,
      BufferAllocator allocator,
      MemoryBudget budget,
      String owner) {
    this.keyColumns = keyColumns.clone();
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.budget = requireNonNull(budget, "budget is null");
    this.owner = requireNonNull(owner, "owner is null");
    this.groups = new GroupTable(keyFields, allocator, budget, "the hash table of " + owner);
  }

  /** Inserts every row of the build segments, numbered globally in order, and links the chains. */
  void build(List<VectorSchemaRoot> segments, long rowCount) {
    reserve(rowCount * Integer.BYTES);
    next = new int[Math.toIntExact(rowCount)];
    // At most one group per build row: one resize up front instead of one per doubling.
    groups.ensureCapacity(rowCount);
    long[] hashes = new long[(int) Math.min(INSERT_ROWS, rowCount)];
    int[] groupIds = new int[hashes.length];
    int base = 0;
    for (VectorSchemaRoot segment : segments) {
      int rows = segment.getRowCount();
      for (int from = 0; from < rows; from += INSERT_ROWS) {
        int count = Math.min(INSERT_ROWS, rows - from);
        List<FieldVector> keys = keys(segment, from, count);
        try {
          VectorHasher.hash(keys, count, hashes);
          groups.insert(keys, count, hashes, groupIds);
          link(keys, base + from, count, groupIds);
        } finally {
          keys.forEach(FieldVector::close);
        }
      }
      base += rows;
    }
  }

  /**
   * Writes the group id of each row's key into {@code groupIds[0 .. rows)}, -1 where no build row
   * has the key. {@code hashes} is scratch of at least {@code rows} entries.
   */
  void find(List<FieldVector> probeKeys, int rows, long[] hashes, int[] groupIds) {
    VectorHasher.hash(probeKeys, rows, hashes);
    groups.find(probeKeys, rows, hashes, groupIds);
  }

  /**
   * Records that the groups {@code groupIds[0 .. rows)} (-1 for none) were probed: what a right
   * semi or anti join without a filter needs to know, in O(1) per probe row however long the chain.
   */
  void markProbed(int[] groupIds, int rows) {
    boolean[] probed = probedGroups;
    for (int row = 0; row < rows; row++) {
      int group = groupIds[row];
      if (group >= 0) {
        probed[group] = true;
      }
    }
  }

  /** Reserves the lookup scratch of probe batches of up to {@code rows} rows. */
  void ensureProbeRows(int rows) {
    groups.ensureLookupRows(rows);
  }

  /**
   * Reserves and makes the flags {@link #markProbed} sets: before probing, so probing never fails.
   */
  void prepareProbedGroups() {
    reserve(groups.groupCount());
    probedGroups = new boolean[groups.groupCount()];
  }

  /** Reports every build row of a group recorded by {@link #markProbed} as matched. */
  void reportProbedRows(JoinMatcher matcher) {
    if (probedGroups == null) {
      return;
    }
    for (int group = 0; group < probedGroups.length; group++) {
      if (probedGroups[group]) {
        for (int row = head[group]; row >= 0; row = next[row]) {
          matcher.buildMatched(row);
        }
      }
    }
  }

  /** The first build row of each group's chain, -1 for an empty chain (NULL keys). */
  int[] head() {
    return head;
  }

  /** The next build row of each build row's chain, -1 at the end. */
  int[] next() {
    return next;
  }

  /** Whether some build row has a NULL in a key column. */
  boolean hasNullKey() {
    return hasNullKey;
  }

  /** The key columns of rows {@code [from, from + count)}, sharing the segment's buffers. */
  private List<FieldVector> keys(VectorSchemaRoot segment, int from, int count) {
    List<FieldVector> keys = new ArrayList<>(keyColumns.length);
    try {
      for (int column : keyColumns) {
        // A slice shares the segment's buffers (only string offsets of later chunks are rebased).
        TransferPair pair = segment.getVector(column).getTransferPair(allocator);
        pair.splitAndTransfer(from, count);
        keys.add((FieldVector) pair.getTo());
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, keys);
      throw e;
    }
    return keys;
  }

  /** Pushes rows {@code first .. first + count - 1} onto their groups' chains, skipping NULLs. */
  private void link(List<FieldVector> keys, int first, int count, int[] groupIds) {
    ensureHeads(groups.groupCount());
    boolean[] isNull = null;
    for (FieldVector key : keys) {
      if (key.getNullCount() > 0) {
        isNull = isNull == null ? new boolean[count] : isNull;
        ArrowBuf validity = key.getValidityBuffer();
        for (int i = 0; i < count; i++) {
          isNull[i] |= BitVectorHelper.get(validity, i) == 0;
        }
      }
    }
    int[] heads = head;
    int[] links = next;
    for (int i = 0; i < count; i++) {
      if (isNull != null && isNull[i]) {
        hasNullKey = true;
        links[first + i] = -1;
        continue;
      }
      int group = groupIds[i];
      links[first + i] = heads[group];
      heads[group] = first + i;
    }
  }

  private void ensureHeads(int groupCount) {
    if (head.length >= groupCount) {
      return;
    }
    int length = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(groupCount, head.length * 2L));
    reserve((long) (length - head.length) * Integer.BYTES);
    int old = head.length;
    head = Arrays.copyOf(head, length);
    Arrays.fill(head, old, length, -1);
  }

  private void reserve(long bytes) {
    budget.reserve(bytes, "the row chains of " + owner);
    reserved += bytes;
  }

  @Override
  public void close() {
    groups.close();
    budget.release(reserved);
    reserved = 0;
    head = new int[0];
    next = new int[0];
    probedGroups = null;
  }
}
