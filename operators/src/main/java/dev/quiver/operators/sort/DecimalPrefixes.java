package dev.quiver.operators.sort;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** Prefix encoders of decimals: two's-complement little-endian words, highest word signed. */
final class DecimalPrefixes {
  private static final long SMALL = 1L << 62;

  private DecimalPrefixes() {}

  /**
   * Decimal128 in up to three parts. Part 0 is exact for values in [-2^62, 2^62) (precision 18 and
   * below always): they map to themselves, shifted into unsigned order, strictly between the two
   * clamp prefixes 0 (smaller values) and -1 (larger ones). Values in a clamp group are ordered by
   * part 1, the high word (signed), then part 2, the low word (unsigned, exact).
   */
  static final class Decimal128 extends PrefixEncoder {
    Decimal128(List<FieldVector> columns) {
      super(columns);
    }

    @Override
    void encode(long[] refs, int from, int to, int part, long[] out) {
      for (int i = from; i < to; i++) {
        ArrowBuf buffer = data[batch(refs[i])];
        long at = 16L * row(refs[i]);
        long low = buffer.getLong(at);
        long high = buffer.getLong(at + 8);
        if (part == 0) {
          boolean small = high == (low >> 63) && low >= -SMALL && low < SMALL;
          out[i] = small ? low ^ Long.MIN_VALUE : high < 0 ? 0 : -1L;
        } else {
          out[i] = part == 1 ? high ^ Long.MIN_VALUE : low;
        }
      }
    }

    @Override
    boolean exact(long prefix, int part) {
      return part == 0 ? prefix != 0 && prefix != -1L : part == 2;
    }

    @Override
    int parts() {
      return 3;
    }
  }

  /** Decimal256 word by word from the highest (signed) to the lowest; only the last is exact. */
  static final class Decimal256 extends PrefixEncoder {
    Decimal256(List<FieldVector> columns) {
      super(columns);
    }

    @Override
    void encode(long[] refs, int from, int to, int part, long[] out) {
      long offset = 8L * (3 - part);
      long flip = part == 0 ? Long.MIN_VALUE : 0;
      for (int i = from; i < to; i++) {
        out[i] = data[batch(refs[i])].getLong(32L * row(refs[i]) + offset) ^ flip;
      }
    }

    @Override
    boolean exact(long prefix, int part) {
      return part == 3;
    }

    @Override
    int parts() {
      return 4;
    }
  }
}
