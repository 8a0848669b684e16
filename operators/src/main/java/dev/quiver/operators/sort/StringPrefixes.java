package dev.quiver.operators.sort;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * Prefixes of utf8 and binary values (unsigned byte order, code point order for UTF-8), 7 bytes per
 * part: part {@code p} holds bytes {@code [7p, 7p + 7)} big-endian in its top 7 bytes (zero padded)
 * and in its lowest byte how many bytes the value has from {@code 7p} on, capped at 8.
 *
 * <p>The count makes a value that ends inside the part sort before its longer extensions ({@code
 * "ab" < "ab\0"}), and a count below 8 means the value ends here: equal prefixes with a count below
 * 8 are equal values ({@link #exact}). A count of 8 means more bytes follow, ordered by the next
 * part. Values sharing a prefix longer than {@link #parts()} × 7 bytes are left to the row
 * comparator.
 */
final class StringPrefixes extends PrefixEncoder {
  private static final int BYTES = 7;
  private static final int MORE = 8;
  private final ArrowBuf[] offsets;

  StringPrefixes(List<FieldVector> columns) {
    super(columns);
    offsets = new ArrowBuf[columns.size()];
    for (int b = 0; b < offsets.length; b++) {
      offsets[b] = columns.get(b).getOffsetBuffer();
    }
  }

  @Override
  void encode(long[] refs, int from, int to, int part, long[] out) {
    int skip = BYTES * part;
    for (int i = from; i < to; i++) {
      int batch = batch(refs[i]);
      long at = 4L * row(refs[i]);
      ArrowBuf offsetBuffer = offsets[batch];
      int start = offsetBuffer.getInt(at) + skip;
      int available = offsetBuffer.getInt(at + 4) - start;
      ArrowBuf bytes = data[batch];
      if (available <= 0) {
        out[i] = 0;
      } else if (start + (long) Long.BYTES <= bytes.capacity()) {
        // One read of 8 bytes, byte-reversed into big-endian; the bytes past the value are masked.
        long word = Long.reverseBytes(bytes.getLong(start));
        out[i] =
            available >= MORE
                ? (word & ~0xFFL) | MORE
                : (word & (-1L << (Long.SIZE - Byte.SIZE * available))) | available;
      } else {
        out[i] = tail(bytes, start, Math.min(available, BYTES));
      }
    }
  }

  /** The prefix of a value whose last bytes sit at the very end of the data buffer. */
  private static long tail(ArrowBuf bytes, int start, int available) {
    long word = 0;
    for (int k = 0; k < available; k++) {
      word |= (bytes.getByte(start + k) & 0xFFL) << (Long.SIZE - Byte.SIZE * (k + 1));
    }
    return word | available;
  }

  @Override
  boolean exact(long prefix, int part) {
    return (prefix & 0xFF) != MORE;
  }

  @Override
  int parts() {
    return 64;
  }
}
