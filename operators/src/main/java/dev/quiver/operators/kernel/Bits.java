package dev.quiver.operators.kernel;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** Bit-packed buffer kernels shared by the take kernels (validity bitmaps and boolean data). */
final class Bits {
  private Bits() {}

  /**
   * Writes the validity of the gathered rows into {@code target}, a zeroed bitmap for {@code count}
   * rows. The work is proportional to {@code count}, not to the source: a source at most {@link
   * #COUNT_FACTOR} times the output (a filtered batch) has its bitmap counted, and without nulls
   * (the common case) the bits are set without reading it; a larger source (a join build segment
   * gathered batch by batch) has just the taken rows' bits gathered, since counting its whole
   * bitmap for every output batch would cost the source's size each time. Same bits either way.
   */
  static void takeValidity(
      FieldVector source, int[] indices, int from, int count, ArrowBuf target) {
    int values = source.getValueCount();
    ArrowBuf validity = source.getValidityBuffer();
    // (A vector may lack a bitmap, e.g. one without nulls read from elsewhere: count it then.)
    if ((long) values > (long) count * COUNT_FACTOR && validity.capacity() * 8 >= values) {
      gather(validity, indices, from, count, target);
      return;
    }
    int nulls = source.getNullCount();
    if (nulls == 0) {
      setAll(target, count);
    } else if (nulls < values) {
      gather(validity, indices, from, count, target);
    } // all null: the freshly allocated bitmap is already all zero
  }

  /**
   * Counting a bitmap reads a long per 64 rows; gathering reads a byte per taken row: counting is
   * cheaper while the source has at most this many rows per taken row.
   */
  static final int COUNT_FACTOR = 16;

  /**
   * Gathers the bits {@code indices[from .. from + count)} of {@code source} into the first {@code
   * count} bits of {@code target}. Bits are packed 64 at a time into a register and stored with one
   * write; the trailing bytes are written whole, so bits past {@code count} become zero.
   */
  static void gather(ArrowBuf source, int[] indices, int from, int count, ArrowBuf target) {
    int words = count >>> 6;
    for (int w = 0; w < words; w++) {
      target.setLong((long) w << 3, gatherWord(source, indices, from + (w << 6), 64));
    }
    int rest = count & 63;
    if (rest != 0) {
      long word = gatherWord(source, indices, from + (words << 6), rest);
      long offset = (long) words << 3;
      int bytes = (rest + 7) >>> 3;
      for (int b = 0; b < bytes; b++) {
        target.setByte(offset + b, (byte) (word >>> (b << 3)));
      }
    }
  }

  private static long gatherWord(ArrowBuf source, int[] indices, int start, int bits) {
    long word = 0;
    for (int b = 0; b < bits; b++) {
      int index = indices[start + b];
      long bit = (source.getByte(index >>> 3) >>> (index & 7)) & 1;
      word |= bit << b;
    }
    return word;
  }

  /** Sets the first {@code count} bits of {@code target} and clears the rest of the last byte. */
  static void setAll(ArrowBuf target, int count) {
    int fullBytes = count >>> 3;
    if (fullBytes > 0) {
      target.setOne(0L, (long) fullBytes);
    }
    int rest = count & 7;
    if (rest != 0) {
      target.setByte(fullBytes, (1 << rest) - 1);
    }
  }
}
