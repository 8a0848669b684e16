package dev.quiver.operators.hash;

import static dev.quiver.operators.hash.VectorHasher.NULL_VALUE;
import static dev.quiver.operators.hash.VectorHasher.combine;

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
    for (int i = 0; i < rows; i++) {
      long value = NULL_VALUE;
      if (validity == null || ColumnHashes.isValid(validity, i)) {
        long at = (long) i << 2;
        int start = offsets.getInt(at);
        value = XxHash64.hash(data, start, offsets.getInt(at + 4) - start);
      }
      hashes[i] = combine(hashes[i], value);
    }
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
