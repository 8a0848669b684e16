package dev.quiver.operators.hash;

import org.apache.arrow.memory.ArrowBuf;

/**
 * XXH64 (seed 0) of a byte range of an Arrow buffer, read 8 bytes at a time in place.
 *
 * <p>The standard algorithm, so its values can be checked against any other implementation; it
 * depends only on the bytes, never on where they sit in the buffer. Words are read in the platform
 * byte order; Quiver, like Arrow Java, runs on little-endian platforms, whose order XXH64 uses.
 */
final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  static long hash(ArrowBuf buffer, long offset, long length) {
    long end = offset + length;
    long p = offset;
    long hash;
    if (length >= 32) {
      // Four independent lanes keep the multipliers busy on long strings.
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      long limit = end - 32;
      do {
        v1 = round(v1, buffer.getLong(p));
        v2 = round(v2, buffer.getLong(p + 8));
        v3 = round(v3, buffer.getLong(p + 16));
        v4 = round(v4, buffer.getLong(p + 24));
        p += 32;
      } while (p <= limit);
      hash =
          Long.rotateLeft(v1, 1)
              + Long.rotateLeft(v2, 7)
              + Long.rotateLeft(v3, 12)
              + Long.rotateLeft(v4, 18);
      hash = merge(hash, v1);
      hash = merge(hash, v2);
      hash = merge(hash, v3);
      hash = merge(hash, v4);
    } else {
      hash = P5;
    }
    hash += length;
    for (; p + 8 <= end; p += 8) {
      hash ^= round(0, buffer.getLong(p));
      hash = Long.rotateLeft(hash, 27) * P1 + P4;
    }
    if (p + 4 <= end) {
      hash ^= (buffer.getInt(p) & 0xFFFF_FFFFL) * P1;
      hash = Long.rotateLeft(hash, 23) * P2 + P3;
      p += 4;
    }
    for (; p < end; p++) {
      hash ^= (buffer.getByte(p) & 0xFFL) * P5;
      hash = Long.rotateLeft(hash, 11) * P1;
    }
    hash ^= hash >>> 33;
    hash *= P2;
    hash ^= hash >>> 29;
    hash *= P3;
    hash ^= hash >>> 32;
    return hash;
  }

  private static long round(long accumulator, long input) {
    return Long.rotateLeft(accumulator + input * P2, 31) * P1;
  }

  private static long merge(long hash, long lane) {
    return (hash ^ round(0, lane)) * P1 + P4;
  }
}
