package dev.quiver.operators.expr;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VarCharVector;

/**
 * Writes string results into a {@link VarCharVector} row by row in ascending row order, straight
 * into its offset and data buffers: no {@code byte[]} per value. Rows skipped over become empty
 * NULLs. The data buffer doubles when full.
 */
public final class Utf8Writer {
  private final VarCharVector vector;
  private final ArrowBuf offsets;
  private final ArrowBuf validity;
  private ArrowBuf data;
  private int end;
  private int next;

  /** {@code vector} is freshly allocated for at least the rows to be written. */
  public Utf8Writer(VarCharVector vector) {
    this.vector = vector;
    this.offsets = vector.getOffsetBuffer();
    this.validity = vector.getValidityBuffer();
    this.data = vector.getDataBuffer();
    offsets.setInt(0, 0);
  }

  /** Skips to {@code row}: rows before it that were not written are NULL. */
  public void begin(int row) {
    for (int r = next; r < row; r++) {
      offsets.setInt((long) (r + 1) << 2, end);
    }
    next = row;
  }

  public void append(ArrowBuf source, long start, int length) {
    ensure(length);
    data.setBytes(end, source, start, length);
    end += length;
  }

  public void append(byte[] bytes, int from, int length) {
    ensure(length);
    data.setBytes(end, bytes, from, length);
    end += length;
  }

  public void appendByte(int b) {
    ensure(1);
    data.setByte(end++, b);
  }

  /** Appends a code point as UTF-8. */
  public void appendCodePoint(int cp) {
    ensure(4);
    if (cp < 0x80) {
      data.setByte(end++, cp);
    } else if (cp < 0x800) {
      data.setByte(end++, 0xC0 | cp >>> 6);
      data.setByte(end++, 0x80 | cp & 0x3F);
    } else if (cp < 0x10000) {
      data.setByte(end++, 0xE0 | cp >>> 12);
      data.setByte(end++, 0x80 | cp >>> 6 & 0x3F);
      data.setByte(end++, 0x80 | cp & 0x3F);
    } else {
      data.setByte(end++, 0xF0 | cp >>> 18);
      data.setByte(end++, 0x80 | cp >>> 12 & 0x3F);
      data.setByte(end++, 0x80 | cp >>> 6 & 0x3F);
      data.setByte(end++, 0x80 | cp & 0x3F);
    }
  }

  /** Ends the value of {@code row} (begun with {@link #begin}) as non-NULL. */
  public void commit(int row) {
    offsets.setInt((long) (row + 1) << 2, end);
    Bitmaps.set(validity, row);
    next = row + 1;
  }

  /** Ends {@code row} as NULL, dropping anything appended for it. */
  public void commitNull(int row) {
    begin(row);
    offsets.setInt((long) (row + 1) << 2, end);
    next = row + 1;
  }

  /** Completes the vector with {@code rows} rows. */
  public void finish(int rows) {
    begin(rows);
    vector.setLastSet(rows - 1);
    vector.setValueCount(rows);
  }

  private void ensure(long extra) {
    long needed = end + extra;
    if (needed > data.capacity()) {
      vector.reallocDataBuffer(Math.max(needed, data.capacity() * 2));
      data = vector.getDataBuffer();
    }
  }
}
