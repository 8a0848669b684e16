package dev.quiver.operators.kernel;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;

/** Take kernels for bit-packed and fixed-width vectors; one loop per value width. */
final class FixedWidthTake {
  private FixedWidthTake() {}

  static void takeBits(BitVector source, int[] indices, int from, int count, BitVector target) {
    target.allocateNew(count);
    Bits.takeValidity(source, indices, from, count, target.getValidityBuffer());
    Bits.gather(source.getDataBuffer(), indices, from, count, target.getDataBuffer());
    target.setValueCount(count);
  }

  static void take(
      BaseFixedWidthVector source,
      int[] indices,
      int from,
      int count,
      BaseFixedWidthVector target) {
    target.allocateNew(count);
    Bits.takeValidity(source, indices, from, count, target.getValidityBuffer());
    ArrowBuf in = source.getDataBuffer();
    ArrowBuf out = target.getDataBuffer();
    // Values of null rows are copied too: cheaper than a branch, and they are never read.
    switch (source.getTypeWidth()) {
      case 1:
        for (int i = 0; i < count; i++) {
          out.setByte(i, in.getByte(indices[from + i]));
        }
        break;
      case 2:
        for (int i = 0; i < count; i++) {
          out.setShort((long) i << 1, in.getShort((long) indices[from + i] << 1));
        }
        break;
      case 4:
        for (int i = 0; i < count; i++) {
          out.setInt((long) i << 2, in.getInt((long) indices[from + i] << 2));
        }
        break;
      case 8:
        for (int i = 0; i < count; i++) {
          out.setLong((long) i << 3, in.getLong((long) indices[from + i] << 3));
        }
        break;
      case 16:
        for (int i = 0; i < count; i++) {
          long to = (long) i << 4;
          long at = (long) indices[from + i] << 4;
          out.setLong(to, in.getLong(at));
          out.setLong(to + 8, in.getLong(at + 8));
        }
        break;
      default:
        copyWide(in, out, source.getTypeWidth(), indices, from, count);
    }
    target.setValueCount(count);
  }

  /** As {@link #take}, for indices that come in long ascending {@code runs}: a block per run. */
  static void takeRuns(
      BaseFixedWidthVector source,
      int[] indices,
      int from,
      int count,
      Runs runs,
      BaseFixedWidthVector target) {
    target.allocateNew(count);
    Bits.takeValidity(source, indices, from, count, target.getValidityBuffer());
    ArrowBuf in = source.getDataBuffer();
    ArrowBuf out = target.getDataBuffer();
    long width = source.getTypeWidth();
    long to = 0;
    for (int r = 0; r < runs.count; r++) {
      long bytes = runs.lengths[r] * width;
      out.setBytes(to, in, runs.starts[r] * width, bytes);
      to += bytes;
    }
    target.setValueCount(count);
  }

  /** Other widths (decimal256, fixed-size binary, intervals) copy each value as a memory block. */
  private static void copyWide(
      ArrowBuf in, ArrowBuf out, int width, int[] indices, int from, int count) {
    for (int i = 0; i < count; i++) {
      out.setBytes((long) i * width, in, (long) indices[from + i] * width, width);
    }
  }
}
