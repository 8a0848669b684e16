package dev.quiver.operators.expr;

import org.apache.arrow.memory.ArrowBuf;

/**
 * Bit-packed buffer helpers: validity bitmaps and boolean data, read and written 64 rows at a time
 * where possible, and the conversions between booleans and {@link Selection}s.
 */
public final class Bitmaps {
  private Bitmaps() {}

  public static boolean get(ArrowBuf bits, int index) {
    return (bits.getByte(index >>> 3) & (1 << (index & 7))) != 0;
  }

  public static void set(ArrowBuf bits, int index) {
    long at = index >>> 3;
    bits.setByte(at, bits.getByte(at) | (1 << (index & 7)));
  }

  public static void clear(ArrowBuf bits, int index) {
    long at = index >>> 3;
    bits.setByte(at, bits.getByte(at) & ~(1 << (index & 7)));
  }

  public static int words(int rows) {
    return (rows + 63) >>> 6;
  }

  /**
   * Bits {@code [64w, 64w + 64)} of {@code bits}, of which only those below {@code rows} are
   * meaningful. Reads a whole long only where the buffer certainly holds it: buffers of sliced or
   * received vectors may end at the last byte of the bitmap.
   */
  public static long word(ArrowBuf bits, int w, int rows) {
    long offset = (long) w << 3;
    if (offset + 8 <= bits.capacity()) {
      return bits.getLong(offset);
    }
    int bytes = (Math.min(rows - (w << 6), 64) + 7) >>> 3;
    long word = 0;
    for (int b = 0; b < bytes; b++) {
      word |= (bits.getByte(offset + b) & 0xFFL) << (b << 3);
    }
    return word;
  }

  public static void putWord(ArrowBuf bits, int w, long word, int rows) {
    long offset = (long) w << 3;
    if (offset + 8 <= bits.capacity()) {
      bits.setLong(offset, word);
      return;
    }
    int bytes = (Math.min(rows - (w << 6), 64) + 7) >>> 3;
    for (int b = 0; b < bytes; b++) {
      bits.setByte(offset + b, (byte) (word >>> (b << 3)));
    }
  }

  /** Word {@code w} of a column's validity: all ones without nulls, a constant's bit repeated. */
  public static long validWord(Col col, int w, int rows) {
    if (!col.mayBeNull) {
      return -1L;
    }
    if (col.constant) {
      return col.isNullConstant() ? 0L : -1L;
    }
    return word(col.validity, w, rows);
  }

  /** Word {@code w} of a boolean column's data (a constant's bit repeated). */
  public static long dataWord(Col col, int w, int rows) {
    if (col.constant) {
      return (col.data.getByte(0) & 1) != 0 ? -1L : 0L;
    }
    return word(col.data, w, rows);
  }

  /** Sets {@code out}'s validity to the AND of the inputs' validity, for all rows. */
  public static void validityAnd(ArrowBuf out, int rows, Col... inputs) {
    int words = words(rows);
    for (int w = 0; w < words; w++) {
      long word = -1L;
      for (Col input : inputs) {
        word &= validWord(input, w, rows);
      }
      putWord(out, w, word, rows);
    }
  }

  /** Rows of {@code selection} where the boolean column is TRUE. */
  public static Selection selectTrue(EvalContext ctx, Col col, Selection selection) {
    int[] rows = selection.rows();
    int n = selection.size();
    if (col.constant) {
      boolean value = !col.isNullConstant() && (col.data.getByte(0) & 1) != 0;
      return value ? selection : new Selection(rows, 0, false);
    }
    int[] out = ctx.ints(n);
    int count = 0;
    if (selection.isAll()) {
      int total = ctx.rows();
      for (int w = 0, words = words(total); w < words; w++) {
        long word = dataWord(col, w, total) & validWord(col, w, total);
        if (w == words - 1 && (total & 63) != 0) {
          word &= (1L << (total & 63)) - 1;
        }
        while (word != 0) {
          out[count++] = (w << 6) + Long.numberOfTrailingZeros(word);
          word &= word - 1;
        }
      }
      return new Selection(out, count, count == total);
    }
    for (int k = 0; k < n; k++) {
      int i = rows[k];
      boolean keep = get(col.data, i) && !col.isNull(i);
      out[count] = i;
      count += keep ? 1 : 0;
    }
    return new Selection(out, count, false);
  }

  /** Rows of {@code selection} where the column is NULL ({@code nulls}) or not NULL. */
  public static Selection selectNulls(
      EvalContext ctx, Col col, Selection selection, boolean nulls) {
    if (!col.mayBeNull) {
      return nulls ? new Selection(selection.rows(), 0, false) : selection;
    }
    int[] rows = selection.rows();
    int[] out = ctx.ints(selection.size());
    int count = 0;
    for (int k = 0; k < selection.size(); k++) {
      int i = rows[k];
      out[count] = i;
      count += col.isNull(i) == nulls ? 1 : 0;
    }
    return new Selection(out, count, count == selection.size() && selection.isAll());
  }

  /** Rows of {@code selection} with a non-zero {@code truth[row]}. */
  public static Selection selectTruth(EvalContext ctx, byte[] truth, Selection selection) {
    int[] rows = selection.rows();
    int[] out = ctx.ints(selection.size());
    int count = 0;
    for (int k = 0; k < selection.size(); k++) {
      int i = rows[k];
      out[count] = i;
      count += truth[i];
    }
    return new Selection(out, count, count == selection.size() && selection.isAll());
  }

  /** The rows of {@code all} that are not in {@code part} (a subset of it, both ascending). */
  public static Selection minus(EvalContext ctx, Selection all, Selection part) {
    if (part.isEmpty()) {
      return all;
    }
    int[] rows = all.rows();
    int[] removed = part.rows();
    int[] out = ctx.ints(all.size());
    int count = 0;
    int j = 0;
    for (int k = 0; k < all.size(); k++) {
      int i = rows[k];
      if (j < part.size() && removed[j] == i) {
        j++;
      } else {
        out[count++] = i;
      }
    }
    return new Selection(out, count, false);
  }

  /** Writes {@code truth[row] != 0} as bits of {@code data} for the selected rows. */
  public static void pack(byte[] truth, Selection selection, ArrowBuf data, int totalRows) {
    if (selection.isAll()) {
      for (int w = 0, words = words(totalRows); w < words; w++) {
        int base = w << 6;
        int end = Math.min(64, totalRows - base);
        long word = 0;
        for (int b = 0; b < end; b++) {
          word |= (long) (truth[base + b] & 1) << b;
        }
        putWord(data, w, word, totalRows);
      }
      return;
    }
    int[] rows = selection.rows();
    for (int k = 0; k < selection.size(); k++) {
      int i = rows[k];
      if (truth[i] != 0) {
        set(data, i);
      }
    }
  }
}
