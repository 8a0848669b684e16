package dev.quiver.operators.hash;

import static dev.quiver.operators.hash.VectorHasher.NULL_VALUE;
import static dev.quiver.operators.hash.VectorHasher.combine;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Hash loops over values hashed as byte strings with {@link XxHash64}, where they lie in the data
 * buffer: variable-width columns and fixed-width columns that are not 1-8 byte numbers.
 */
final class ByteHashes {
  private ByteHashes() {}

  /** Utf8 and binary with 32-bit offsets. */
  static void variableWidth(
      ArrowBuf offsets, ArrowBuf data, ArrowBuf validity, int rows, long[] hashes) {
    int from = rows >= TRIAL_ROWS ? memoized(offsets, data, validity, rows, hashes) : 0;
    for (int i = from; i < rows; i++) {
      long value = NULL_VALUE;
      if (validity == null || ColumnHashes.isValid(validity, i)) {
        long at = (long) i << 2;
        int start = offsets.getInt(at);
        value = XxHash64.hash(data, start, offsets.getInt(at + 4) - start);
      }
      hashes[i] = combine(hashes[i], value);
    }
  }

  /** Rows of a batch that try the memo before it is kept or given up. */
  private static final int TRIAL_ROWS = 256;

  /** Direct-mapped memo slots: a power of two. */
  private static final int MEMO_SLOTS = 64;

  /**
   * Few distinct short values (flags, status codes, country codes) hash once per batch each: values
   * of at most 7 bytes, packed with their length into one word, look their XXH64 up in a small
   * direct-mapped memo. Same hashes as without it. Returns the row it stopped at: all rows, or the
   * end of the trial when too many values missed (many distinct or long values: plain loop then).
   */
  private static int memoized(
      ArrowBuf offsets, ArrowBuf data, ArrowBuf validity, int rows, long[] hashes) {
    long[] keys = new long[MEMO_SLOTS];
    long[] values = new long[MEMO_SLOTS];
    Arrays.fill(keys, -1L); // a length byte of 0xFF: never a packed value
    long wordEnd = data.capacity() - Long.BYTES;
    int misses = 0;
    for (int i = 0; i < rows; i++) {
      if (i == TRIAL_ROWS && misses > TRIAL_ROWS / 4) {
        return i;
      }
      long value = NULL_VALUE;
      if (validity == null || ColumnHashes.isValid(validity, i)) {
        long at = (long) i << 2;
        int start = offsets.getInt(at);
        int length = offsets.getInt(at + 4) - start;
        if (length < Long.BYTES && start <= wordEnd) {
          long packed = (data.getLong(start) & ~(-1L << (length << 3))) | ((long) length << 56);
          int slot = (int) ((packed * 0x9E37_79B9_7F4A_7C15L) >>> 58); // MEMO_SLOTS = 2^6
          if (keys[slot] == packed) {
            value = values[slot];
          } else {
            misses++;
            value = XxHash64.hash(data, start, length);
            keys[slot] = packed;
            values[slot] = value;
          }
        } else {
          misses++;
          value = XxHash64.hash(data, start, length);
        }
      }
      hashes[i] = combine(hashes[i], value);
    }
    return rows;
  }

  /** Decimal256, fixed-size binary, month-day-nano intervals. */
  static void fixedWidth(ArrowBuf data, int width, ArrowBuf validity, int rows, long[] hashes) {
    for (int i = 0; i < rows; i++) {
      long value = NULL_VALUE;
      if (validity == null || ColumnHashes.isValid(validity, i)) {
        value = XxHash64.hash(data, (long) i * width, width);
      }
      hashes[i] = combine(hashes[i], value);
    }
  }
}
