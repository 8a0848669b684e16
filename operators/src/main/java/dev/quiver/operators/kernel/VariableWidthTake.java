package dev.quiver.operators.kernel;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;

/** Take kernel for variable-width vectors with 32-bit offsets (utf8, binary). */
final class VariableWidthTake {
  private static final int OFFSET_WIDTH = BaseVariableWidthVector.OFFSET_WIDTH;

  /** Values up to this many bytes are copied byte by byte. */
  private static final int SHORT = 8;

  private VariableWidthTake() {}

  static void take(
      BaseVariableWidthVector source,
      int[] indices,
      int from,
      int count,
      BaseVariableWidthVector target) {
    ArrowBuf inOffsets = source.getOffsetBuffer();
    // Pass 1 sizes the data buffer exactly, so it is allocated once and never grown.
    long bytes = 0;
    for (int i = from, end = from + count; i < end; i++) {
      long at = (long) indices[i] * OFFSET_WIDTH;
      bytes += inOffsets.getInt(at + OFFSET_WIDTH) - inOffsets.getInt(at);
    }
    allocate(source, indices, from, count, bytes, target);

    // Pass 2 copies the bytes of each value with one memory copy and writes the offsets.
    ArrowBuf in = source.getDataBuffer();
    ArrowBuf out = target.getDataBuffer();
    ArrowBuf outOffsets = target.getOffsetBuffer();
    int position = 0; // offset 0 is already zero in the fresh buffer
    for (int i = 0; i < count; i++) {
      long at = (long) indices[from + i] * OFFSET_WIDTH;
      int start = inOffsets.getInt(at);
      int length = inOffsets.getInt(at + OFFSET_WIDTH) - start;
      if (length <= SHORT) { // flags and codes: a call to copy memory costs more than the bytes
        for (int b = 0; b < length; b++) {
          out.setByte(position + b, in.getByte(start + b));
        }
      } else {
        out.setBytes(position, in, start, length);
      }
      position += length;
      outOffsets.setInt((long) (i + 1) * OFFSET_WIDTH, position);
    }
    // Without lastSet, setValueCount would "fill holes" and overwrite the offsets just written.
    target.setLastSet(count - 1);
    target.setValueCount(count);
  }

  /** Allocates {@code target} for {@code count} rows of {@code bytes} and takes their validity. */
  private static void allocate(
      BaseVariableWidthVector source,
      int[] indices,
      int from,
      int count,
      long bytes,
      BaseVariableWidthVector target) {
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "take of "
              + count
              + " rows of "
              + source.getField()
              + " needs "
              + bytes
              + " bytes, more than a vector with 32-bit offsets can hold");
    }
    target.allocateNew(bytes, count);
    Bits.takeValidity(source, indices, from, count, target.getValidityBuffer());
  }

  /**
   * As {@link #take}, for indices that come in long ascending {@code runs}: the bytes of a run are
   * one block, its offsets the source's shifted by where the run lands.
   */
  static void takeRuns(
      BaseVariableWidthVector source,
      int[] indices,
      int from,
      int count,
      Runs runs,
      BaseVariableWidthVector target) {
    ArrowBuf inOffsets = source.getOffsetBuffer();
    long bytes = 0;
    for (int r = 0; r < runs.count; r++) {
      bytes +=
          offset(inOffsets, runs.starts[r] + runs.lengths[r]) - offset(inOffsets, runs.starts[r]);
    }
    allocate(source, indices, from, count, bytes, target);
    ArrowBuf in = source.getDataBuffer();
    ArrowBuf out = target.getDataBuffer();
    ArrowBuf outOffsets = target.getOffsetBuffer();
    int position = 0;
    long row = 0;
    for (int r = 0; r < runs.count; r++) {
      int start = runs.starts[r];
      int length = runs.lengths[r];
      int first = offset(inOffsets, start);
      int last = offset(inOffsets, start + length);
      if (last > first) {
        out.setBytes(position, in, first, last - first);
      }
      int shift = position - first;
      for (int j = 1; j <= length; j++) {
        outOffsets.setInt((row + j) * OFFSET_WIDTH, offset(inOffsets, start + j) + shift);
      }
      row += length;
      position += last - first;
    }
    target.setLastSet(count - 1);
    target.setValueCount(count);
  }

  private static int offset(ArrowBuf offsets, int index) {
    return offsets.getInt((long) index * OFFSET_WIDTH);
  }
}
