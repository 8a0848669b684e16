package dev.quiver.operators.hash;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Group ids of few, small keys without hashing or probing a {@link GroupTable}: a GROUP BY on
 * flags, status codes, small integers or dates that has at most {@link #MAX_GROUPS} groups.
 *
 * <pre>
 *   batch ─► pack every key value into a word ─► all rows' keys in the cache? ─yes─► group ids
 *                                                                           └no──► hash + table,
 *                                                                                  then learn
 * </pre>
 *
 * <p>A key column packs a value into one long that identifies it exactly: a utf8 or binary value of
 * at most 7 bytes is its bytes with its length in the top byte, an integer or date of at most 4
 * bytes its value. Anything else in a row (NULL, a longer string) packs to {@link #NONE}, which
 * misses. The cache maps the packed words of a row's key columns to the group id the table gave
 * that key, in a small open-addressing table; it only learns what the table answered, so a hit is
 * the table's own answer. Once the table holds more than {@link #MAX_GROUPS} groups the cache turns
 * itself off for good. It must be {@link #clear}ed when the table forgets groups. Not thread-safe.
 */
public final class SmallKeyCache {
  /** The most groups the cache follows; beyond them the table is used alone. */
  static final int MAX_GROUPS = 256;

  /** A word no packed value has (top byte 0xFF): a value the cache cannot hold. */
  static final long NONE = -1L;

  private static final int SLOTS = 4 * MAX_GROUPS; // a power of two; load at most a quarter
  private static final int SLOT_BITS = Integer.numberOfTrailingZeros(SLOTS);
  private static final int MAX_KEYS = 4;

  private final int keyCount;
  private final int[] widths; // per key column: 0 for variable width, else bytes per value
  private final long[] slotKeys; // SLOTS x keyCount words
  private final int[] slotIds = new int[SLOTS]; // -1 for an empty slot
  private long[] words = new long[0]; // keyCount x capacity words of the current batch
  private int capacity;
  private boolean off;

  private SmallKeyCache(int[] widths) {
    this.keyCount = widths.length;
    this.widths = widths;
    this.slotKeys = new long[SLOTS * keyCount];
    Arrays.fill(slotIds, -1);
  }

  /** A cache for these key columns, or null when some key type cannot be packed. */
  public static SmallKeyCache forKeys(List<Field> keyFields) {
    if (keyFields.isEmpty() || keyFields.size() > MAX_KEYS) {
      return null;
    }
    int[] widths = new int[keyFields.size()];
    for (int c = 0; c < widths.length; c++) {
      ArrowType type = keyFields.get(c).getType();
      switch (type.getTypeID()) {
        case Utf8:
        case Binary:
          widths[c] = 0;
          break;
        case Int:
          widths[c] = ((ArrowType.Int) type).getBitWidth() / 8;
          break;
        case Date:
          widths[c] = ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8;
          break;
        default:
          return null;
      }
      if (widths[c] > 4) {
        return null;
      }
    }
    return new SmallKeyCache(widths);
  }

  /** Bytes of Java heap the cache keeps per row of scratch, for budget reservations. */
  public int bytesPerRow() {
    return keyCount * Long.BYTES;
  }

  /** Bytes of Java heap the cache keeps besides its per-row scratch. */
  public static long fixedBytes(int keyCount) {
    return (long) SLOTS * (keyCount * Long.BYTES + Integer.BYTES);
  }

  /**
   * Writes the group of every row {@code [0, rows)} to {@code groupIds} and returns true if the
   * cache knows every row's key; false otherwise (then {@code groupIds} is garbage, and after the
   * table has answered, {@link #learn} should see the same batch). Its scratch grows to {@code
   * groupIds.length} rows, {@link #bytesPerRow} each.
   */
  public boolean find(List<FieldVector> keys, int rows, int[] groupIds) {
    if (off) {
      return false;
    }
    pack(keys, rows, groupIds.length);
    long[] words = this.words;
    long[] slotKeys = this.slotKeys;
    int[] slotIds = this.slotIds;
    int stride = capacity;
    if (keyCount == 1) {
      for (int i = 0; i < rows; i++) {
        long w = words[i];
        int slot = slotOf(w * 0x9E37_79B9_7F4A_7C15L);
        while (slotIds[slot] >= 0 && slotKeys[slot] != w) {
          slot = (slot + 1) & (SLOTS - 1);
        }
        if (slotIds[slot] < 0 || w == NONE) {
          return false;
        }
        groupIds[i] = slotIds[slot];
      }
      return true;
    }
    if (keyCount == 2) { // the loop below, with the two words in registers
      for (int i = 0; i < rows; i++) {
        long w0 = words[i];
        long w1 = words[stride + i];
        int slot = slotOf((w0 * 0x9E37_79B9_7F4A_7C15L ^ w1) * 0x9E37_79B9_7F4A_7C15L);
        int id;
        while ((id = slotIds[slot]) >= 0
            && (slotKeys[slot << 1] != w0 || slotKeys[(slot << 1) + 1] != w1)) {
          slot = (slot + 1) & (SLOTS - 1);
        }
        if (id < 0) {
          return false;
        }
        groupIds[i] = id;
      }
      return true;
    }
    for (int i = 0; i < rows; i++) {
      int slot = slotOf(mix(words, i, stride));
      int id;
      while ((id = slotIds[slot]) >= 0 && !matches(slotKeys, slot, words, i, stride)) {
        slot = (slot + 1) & (SLOTS - 1);
      }
      if (id < 0) {
        return false; // (a row with a NONE word never matches: no slot holds NONE)
      }
      groupIds[i] = id;
    }
    return true;
  }

  /**
   * Learns the groups {@code groupIds[0 .. rows)} the table gave the rows of the batch last given
   * to {@link #find}; {@code groups} is the table's group count, which may turn the cache off.
   */
  public void learn(int rows, int[] groupIds, int groups) {
    if (off) {
      return;
    }
    if (groups > MAX_GROUPS) {
      off = true; // too many groups: the table alone is cheaper from now on
      words = new long[0];
      capacity = 0;
      return;
    }
    int stride = capacity;
    for (int i = 0; i < rows; i++) {
      if (hasNone(i, stride)) {
        continue;
      }
      int slot = slotOf(mix(words, i, stride));
      while (slotIds[slot] >= 0 && !matches(slotKeys, slot, words, i, stride)) {
        slot = (slot + 1) & (SLOTS - 1);
      }
      if (slotIds[slot] < 0) {
        for (int c = 0; c < keyCount; c++) {
          slotKeys[slot * keyCount + c] = words[c * stride + i];
        }
        slotIds[slot] = groupIds[i];
      }
    }
  }

  /** Forgets every key: the table forgot some of its groups. */
  public void clear() {
    Arrays.fill(slotIds, -1);
  }

  /** Whether the cache has turned itself off (too many groups). */
  public boolean isOff() {
    return off;
  }

  private static int slotOf(long hash) {
    return (int) (hash >>> (64 - SLOT_BITS));
  }

  private long mix(long[] words, int row, int stride) {
    long hash = 0;
    for (int c = 0; c < keyCount; c++) {
      hash = (hash ^ words[c * stride + row]) * 0x9E37_79B9_7F4A_7C15L;
    }
    return hash;
  }

  private boolean matches(long[] slotKeys, int slot, long[] words, int row, int stride) {
    for (int c = 0; c < keyCount; c++) {
      if (slotKeys[slot * keyCount + c] != words[c * stride + row]) {
        return false;
      }
    }
    return true;
  }

  private boolean hasNone(int row, int stride) {
    for (int c = 0; c < keyCount; c++) {
      if (words[c * stride + row] == NONE) {
        return true;
      }
    }
    return false;
  }

  /** Packs every key value of rows {@code [0, rows)} into {@link #words}, column after column. */
  private void pack(List<FieldVector> keys, int rows, int rowCapacity) {
    if (rows > capacity) {
      capacity = Math.max(rows, rowCapacity);
      words = new long[capacity * keyCount];
    }
    for (int c = 0; c < keyCount; c++) {
      FieldVector key = keys.get(c);
      ArrowBuf validity = key.getNullCount() == 0 ? null : key.getValidityBuffer();
      int at = c * capacity;
      if (widths[c] == 0) {
        packStrings(key.getOffsetBuffer(), key.getDataBuffer(), validity, rows, words, at);
      } else {
        packInts(key.getDataBuffer(), widths[c], validity, rows, words, at);
      }
    }
  }

  private static void packStrings(
      ArrowBuf offsets, ArrowBuf data, ArrowBuf validity, int rows, long[] out, int at) {
    long wordEnd = data.capacity() - Long.BYTES;
    for (int i = 0; i < rows; i++) {
      int start = offsets.getInt((long) i << 2);
      int length = offsets.getInt(((long) i + 1) << 2) - start;
      long word = NONE;
      if (length < Long.BYTES && (validity == null || ColumnHashes.isValid(validity, i))) {
        // (The last values of a buffer have no whole word left: read them byte by byte.)
        long bytes = start <= wordEnd ? data.getLong(start) : GroupTableVarColumn.word(data, start);
        word = (bytes & ~(-1L << (length << 3))) | ((long) length << 56);
      }
      out[at + i] = word;
    }
  }

  private static void packInts(
      ArrowBuf data, int width, ArrowBuf validity, int rows, long[] out, int at) {
    // One loop per width; the values zero-extended (an exact, never NONE, word).
    if (width == 1) {
      for (int i = 0; i < rows; i++) {
        out[at + i] = data.getByte(i) & 0xFFL;
      }
    } else if (width == 2) {
      for (int i = 0; i < rows; i++) {
        out[at + i] = data.getShort((long) i << 1) & 0xFFFFL;
      }
    } else {
      for (int i = 0; i < rows; i++) {
        out[at + i] = data.getInt((long) i << 2) & 0xFFFF_FFFFL;
      }
    }
    if (validity != null) {
      for (int i = 0; i < rows; i++) {
        if (!ColumnHashes.isValid(validity, i)) {
          out[at + i] = NONE;
        }
      }
    }
  }
}
