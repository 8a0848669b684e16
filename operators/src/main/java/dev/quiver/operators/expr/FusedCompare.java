package dev.quiver.operators.expr;

import org.apache.arrow.memory.ArrowBuf;

/**
 * Comparison loops that write a selection directly: each row's index is stored and the count
 * advanced by its truth ({@code mask >>> (c + 1) & 1}), so there is no branch per row. Integers and
 * dates are read as ints ({@code shift} 2); BIGINT, timestamps ({@code shift} 3) and decimals that
 * fit 64 bits by their type (the low word of a 16-byte slot, {@code shift} 4) as longs. The shape
 * of a filter — a column against a constant over all rows or over the survivors of earlier
 * conjuncts — gets loops with the constant in a register and, for all rows, no index indirection.
 */
final class FusedCompare {
  private FusedCompare() {}

  static int againstConstant(
      ArrowBuf u, int shift, ArrowBuf constant, int m, Selection selection, int[] out) {
    int[] rows = selection.rows();
    int n = selection.size();
    int count = 0;
    if (shift == 2) {
      int cv = constant.getInt(0);
      if (selection.isAll()) {
        for (int i = 0; i < n; i++) {
          out[count] = i;
          count += (m >>> (Integer.compare(u.getInt((long) i << 2), cv) + 1)) & 1;
        }
      } else {
        for (int k = 0; k < n; k++) {
          int i = rows[k];
          out[count] = i;
          count += (m >>> (Integer.compare(u.getInt((long) i << 2), cv) + 1)) & 1;
        }
      }
      return count;
    }
    long cv = constant.getLong(0);
    if (selection.isAll()) {
      for (int i = 0; i < n; i++) {
        out[count] = i;
        count += (m >>> (Long.compare(u.getLong((long) i << shift), cv) + 1)) & 1;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        out[count] = i;
        count += (m >>> (Long.compare(u.getLong((long) i << shift), cv) + 1)) & 1;
      }
    }
    return count;
  }

  static int columns(
      ArrowBuf u, int am, ArrowBuf v, int shift, int m, Selection selection, int[] out) {
    int[] rows = selection.rows();
    int n = selection.size();
    int count = 0;
    if (shift == 2) {
      for (int k = 0; k < n; k++) {
        int i = rows[k];
        int c = Integer.compare(u.getInt((long) (i & am) << 2), v.getInt((long) i << 2));
        out[count] = i;
        count += (m >>> (c + 1)) & 1;
      }
      return count;
    }
    for (int k = 0; k < n; k++) {
      int i = rows[k];
      int c = Long.compare(u.getLong((long) (i & am) << shift), v.getLong((long) i << shift));
      out[count] = i;
      count += (m >>> (c + 1)) & 1;
    }
    return count;
  }
}
