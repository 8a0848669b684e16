package dev.quiver.operators.expr;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * The result of evaluating an expression over a batch: an Arrow vector with a slot for every row,
 * or a constant (a one-row vector read at every row).
 *
 * <p>Kernels read row {@code i} at slot {@code i & mask}: the mask is -1 for vectors and 0 for
 * constants, so one loop serves both without a branch. The buffers are captured once: kernels never
 * go through the vector's accessors.
 */
public final class Col {
  public final FieldVector vector;
  public final boolean constant;
  public final int mask;
  public final ArrowBuf data;
  public final ArrowBuf validity;
  public final ArrowBuf offsets;

  /** False when no row is NULL: kernels then skip reading the validity bitmap. */
  public final boolean mayBeNull;

  private Col(FieldVector vector, boolean constant) {
    this.vector = vector;
    this.constant = constant;
    this.mask = constant ? 0 : -1;
    this.validity = vector.getValidityBuffer();
    this.data = vector.getDataBuffer();
    this.offsets = vector instanceof BaseVariableWidthVector ? vector.getOffsetBuffer() : null;
    this.mayBeNull = vector.getNullCount() > 0;
  }

  public static Col of(FieldVector vector) {
    return new Col(vector, false);
  }

  /** A constant: row 0 of {@code oneRow} stands for every row. */
  public static Col constant(FieldVector oneRow) {
    if (oneRow.getValueCount() != 1) {
      throw new IllegalArgumentException("a constant has one row, not " + oneRow.getValueCount());
    }
    return new Col(oneRow, true);
  }

  /** Whether the constant is NULL (always false for vectors). */
  public boolean isNullConstant() {
    return constant && mayBeNull;
  }

  public boolean isNull(int row) {
    if (!mayBeNull) {
      return false;
    }
    int slot = row & mask;
    return (validity.getByte(slot >>> 3) & (1 << (slot & 7))) == 0;
  }

  /** Start offset in {@link #data} of a string at {@code row}. */
  public int start(int row) {
    return offsets.getInt((long) (row & mask) << 2);
  }

  /** End offset in {@link #data} of a string at {@code row}. */
  public int end(int row) {
    return offsets.getInt(((long) (row & mask) + 1) << 2);
  }
}
