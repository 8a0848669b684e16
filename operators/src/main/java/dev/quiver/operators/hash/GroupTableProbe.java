package dev.quiver.operators.hash;

/**
 * The per-batch probing state of a {@link GroupTable}, in scratch arrays indexed by row (or listing
 * rows) that are reused across batches and reserved in the table's memory.
 *
 * <pre>
 *   active rows ──walk──► slot empty ────────────► insertRows ──claim──► new group, or active again
 *                    └──► same hash bits ─────────► compareRows ─compare─► group id, or active again
 * </pre>
 */
final class GroupTableProbe {
  private static final int BYTES_PER_ROW = 7 * Integer.BYTES + 1;

  private final GroupTableMemory memory;
  private int capacity;

  /** The slot each row looks at next. */
  private int[] slot = new int[0];

  int[] active = new int[0];
  int activeCount;
  int[] compareRows = new int[0];
  int compareCount;
  private int[] insertRows = new int[0];
  private int insertCount;

  /** The group a compared row's slot points to. */
  int[] candidates = new int[0];

  boolean[] mismatch = new boolean[0];
  int[] valueRows = new int[0];
  int[] newRows = new int[0];

  GroupTableProbe(GroupTableMemory memory) {
    this.memory = memory;
  }

  /** Makes every row of a new batch active, at its home slot. */
  void start(int rows, long[] hashes, int mask) {
    ensureCapacity(rows);
    for (int row = 0; row < rows; row++) {
      active[row] = row;
      slot[row] = (int) hashes[row] & mask;
    }
    activeCount = rows;
  }

  /** Sends the active rows back to their home slots (after the table was resized). */
  void restart(long[] hashes, int mask) {
    for (int k = 0; k < activeCount; k++) {
      int row = active[k];
      slot[row] = (int) hashes[row] & mask;
    }
  }

  /**
   * Walks each active row to the first slot that is empty or holds the same high hash bits, and
   * splits the rows into {@link #compareRows} (with their {@link #candidates}) and insert rows.
   */
  void walk(long[] slots, long[] hashes, int mask) {
    int compared = 0;
    int inserted = 0;
    for (int k = 0; k < activeCount; k++) {
      int row = active[k];
      int tag = (int) (hashes[row] >>> 32);
      int at = slot[row];
      long entry;
      while ((entry = slots[at]) != 0 && (int) (entry >>> 32) != tag) {
        at = (at + 1) & mask;
      }
      slot[row] = at;
      if (entry == 0) {
        insertRows[inserted++] = row;
      } else {
        candidates[row] = (int) entry - 1;
        mismatch[row] = false;
        compareRows[compared++] = row;
      }
    }
    compareCount = compared;
    insertCount = inserted;
    activeCount = 0;
  }

  /** Gives matched rows their group; mismatched rows move one slot on and stay active. */
  void settleCompared(int[] groupIds, int mask) {
    for (int k = 0; k < compareCount; k++) {
      int row = compareRows[k];
      if (mismatch[row]) {
        slot[row] = (slot[row] + 1) & mask;
        active[activeCount++] = row;
      } else {
        groupIds[row] = candidates[row];
      }
    }
  }

  /**
   * Claims the empty slot of each insert row, in row order, for a new group numbered from {@code
   * firstId}, at most {@code room} of them; lists the claiming rows in {@link #newRows} and returns
   * their number. A row whose slot an earlier row just claimed, or that found no room, stays
   * active.
   */
  int claim(long[] slots, long[] hashes, int[] groupIds, int firstId, int room) {
    int added = 0;
    for (int k = 0; k < insertCount; k++) {
      int row = insertRows[k];
      int at = slot[row];
      if (slots[at] == 0 && added < room) {
        int id = firstId + added;
        slots[at] = (hashes[row] & 0xFFFF_FFFF_0000_0000L) | (id + 1);
        groupIds[row] = id;
        newRows[added++] = row;
      } else {
        active[activeCount++] = row;
      }
    }
    return added;
  }

  /** For a find: the rows that reached an empty slot have no group. */
  void settleMissing(int[] groupIds) {
    for (int k = 0; k < insertCount; k++) {
      groupIds[insertRows[k]] = -1;
    }
  }

  void free() {
    memory.release((long) capacity * BYTES_PER_ROW);
    capacity = 0;
    slot = active = compareRows = insertRows = candidates = valueRows = newRows = new int[0];
    mismatch = new boolean[0];
  }

  void ensureCapacity(int rows) {
    if (rows <= capacity) {
      return;
    }
    int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(rows, capacity * 3L / 2));
    memory.reserve((long) grown * BYTES_PER_ROW);
    memory.release((long) capacity * BYTES_PER_ROW);
    capacity = grown;
    slot = new int[grown];
    active = new int[grown];
    compareRows = new int[grown];
    insertRows = new int[grown];
    candidates = new int[grown];
    valueRows = new int[grown];
    newRows = new int[grown];
    mismatch = new boolean[grown];
  }
}
