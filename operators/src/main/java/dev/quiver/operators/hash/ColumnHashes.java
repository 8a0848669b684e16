package dev.quiver.operators.hash;

import static dev.quiver.operators.hash.VectorHasher.NULL_VALUE;
import static dev.quiver.operators.hash.VectorHasher.combine;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;

/**
 * Per-type loops of {@link VectorHasher}: each folds one column into the running row hashes.
 *
 * <p>The type is dispatched once per column. Each loop receives the validity buffer, or {@code
 * null} when the column has no nulls, so the common no-null case runs without reading the bitmap.
 * Values of null rows may be garbage; they are read (cheaper than a branch) but never used.
 */
final class ColumnHashes {
  private ColumnHashes() {}

  static void combineInto(FieldVector vector, int rows, long[] hashes) {
    ArrowBuf validity = vector.getNullCount() == 0 ? null : vector.getValidityBuffer();
    if (vector instanceof BitVector) {
      bits(vector.getDataBuffer(), validity, rows, hashes);
    } else if (vector instanceof Float4Vector) {
      floats(vector.getDataBuffer(), validity, rows, hashes);
    } else if (vector instanceof Float8Vector) {
      doubles(vector.getDataBuffer(), validity, rows, hashes);
    } else if (vector instanceof DecimalVector) {
      decimals(vector.getDataBuffer(), validity, rows, hashes);
    } else if (vector instanceof BaseFixedWidthVector) {
      int width = ((BaseFixedWidthVector) vector).getTypeWidth();
      if (width == 1 || width == 2 || width == 4 || width == 8) {
        integers(vector.getDataBuffer(), width, validity, rows, hashes);
      } else {
        ByteHashes.fixedWidth(vector.getDataBuffer(), width, validity, rows, hashes);
      }
    } else if (vector instanceof BaseVariableWidthVector) {
      ByteHashes.variableWidth(
          vector.getOffsetBuffer(), vector.getDataBuffer(), validity, rows, hashes);
    } else {
      throw new IllegalArgumentException(
          "cannot hash " + vector.getField() + " (" + vector.getMinorType() + ")");
    }
  }

  static boolean isValid(ArrowBuf validity, int row) {
    return ((validity.getByte(row >>> 3) >>> (row & 7)) & 1) != 0;
  }

  private static void bits(ArrowBuf data, ArrowBuf validity, int rows, long[] hashes) {
    for (int i = 0; i < rows; i++) {
      long value = (data.getByte(i >>> 3) >>> (i & 7)) & 1;
      hashes[i] = combine(hashes[i], validity == null || isValid(validity, i) ? value : NULL_VALUE);
    }
  }

  /** Integers of every width, widened with their sign, so equal values of any width agree. */
  private static void integers(
      ArrowBuf data, int width, ArrowBuf validity, int rows, long[] hashes) {
    // One loop per width: the JIT then sees a fixed access size, and the null test is hoisted.
    switch (width) {
      case 1:
        for (int i = 0; i < rows; i++) {
          long value = data.getByte(i);
          hashes[i] = combine(hashes[i], nullOr(validity, i, value));
        }
        break;
      case 2:
        for (int i = 0; i < rows; i++) {
          long value = data.getShort((long) i << 1);
          hashes[i] = combine(hashes[i], nullOr(validity, i, value));
        }
        break;
      case 4:
        for (int i = 0; i < rows; i++) {
          long value = data.getInt((long) i << 2);
          hashes[i] = combine(hashes[i], nullOr(validity, i, value));
        }
        break;
      default:
        for (int i = 0; i < rows; i++) {
          long value = data.getLong((long) i << 3);
          hashes[i] = combine(hashes[i], nullOr(validity, i, value));
        }
    }
  }

  private static void floats(ArrowBuf data, ArrowBuf validity, int rows, long[] hashes) {
    for (int i = 0; i < rows; i++) {
      long value = canonical(data.getFloat((long) i << 2));
      hashes[i] = combine(hashes[i], nullOr(validity, i, value));
    }
  }

  private static void doubles(ArrowBuf data, ArrowBuf validity, int rows, long[] hashes) {
    for (int i = 0; i < rows; i++) {
      long value = canonical(data.getDouble((long) i << 3));
      hashes[i] = combine(hashes[i], nullOr(validity, i, value));
    }
  }

  /**
   * The bits of a double with {@code -0.0} turned into {@code 0.0} (IEEE: -0.0 + 0.0 = +0.0) and
   * every NaN into the canonical NaN ({@link Double#doubleToLongBits} collapses them).
   */
  static long canonical(double value) {
    return Double.doubleToLongBits(value + 0.0);
  }

  /**
   * Both little-endian halves of the 128-bit unscaled value. The high half is scrambled before it
   * is folded in, so that structured differences in the two halves do not cancel out.
   */
  private static void decimals(ArrowBuf data, ArrowBuf validity, int rows, long[] hashes) {
    for (int i = 0; i < rows; i++) {
      long at = (long) i << 4;
      long value = data.getLong(at) ^ VectorHasher.fmix64(data.getLong(at + 8));
      hashes[i] = combine(hashes[i], nullOr(validity, i, value));
    }
  }

  private static long nullOr(ArrowBuf validity, int row, long value) {
    return validity == null || isValid(validity, row) ? value : NULL_VALUE;
  }
}
