package dev.quiver.operators.hash;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A fixed-width key column: integers, dates, times, timestamps and decimals compare their bytes;
 * floats compare canonically ({@code -0.0 = 0.0}, all NaNs equal), as {@link VectorHasher} hashes.
 */
final class GroupTableFixedColumn extends GroupTableColumn {
  /** Bytes per value; negative for floating point: -4 float32, -8 float64. */
  private final int kind;

  private final int width;
  private ArrowBuf data;

  GroupTableFixedColumn(Field field, GroupTableMemory memory, int kind) {
    super(field, memory);
    this.kind = kind;
    this.width = Math.abs(kind);
  }

  @Override
  void appendValues(FieldVector source, ArrowBuf sourceValidity, int[] rows, int count, int at) {
    data = memory.grow(data, (long) (at + count) * width, (long) at * width);
    ArrowBuf values = source.getDataBuffer();
    // Null rows keep the zeros the buffer was grown with.
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      if (sourceValidity == null || isSet(sourceValidity, row)) {
        data.setBytes((long) (at + k) * width, values, (long) row * width, width);
      }
    }
  }

  @Override
  void truncateValues(int groups, int end) {
    if (data != null) {
      long from = (long) groups * width;
      long to = Math.min(data.capacity(), (long) end * width);
      if (to > from) {
        data.setZero(from, to - from); // null keys' values are zeros
      }
    }
  }

  @Override
  void compareValues(
      FieldVector source, int[] rows, int count, int[] candidates, boolean[] mismatch) {
    ArrowBuf values = source.getDataBuffer();
    // One loop per width so that each is a fixed-size load and compare.
    switch (kind) {
      case 1:
        for (int k = 0; k < count; k++) {
          int row = rows[k];
          if (values.getByte(row) != data.getByte(candidates[row])) {
            mismatch[row] = true;
          }
        }
        break;
      case 2:
        for (int k = 0; k < count; k++) {
          int row = rows[k];
          if (values.getShort((long) row << 1) != data.getShort((long) candidates[row] << 1)) {
            mismatch[row] = true;
          }
        }
        break;
      case 4:
        for (int k = 0; k < count; k++) {
          int row = rows[k];
          if (values.getInt((long) row << 2) != data.getInt((long) candidates[row] << 2)) {
            mismatch[row] = true;
          }
        }
        break;
      case 8:
        for (int k = 0; k < count; k++) {
          int row = rows[k];
          if (values.getLong((long) row << 3) != data.getLong((long) candidates[row] << 3)) {
            mismatch[row] = true;
          }
        }
        break;
      case 16:
        for (int k = 0; k < count; k++) {
          int row = rows[k];
          long at = (long) row << 4;
          long group = (long) candidates[row] << 4;
          if (values.getLong(at) != data.getLong(group)
              || values.getLong(at + 8) != data.getLong(group + 8)) {
            mismatch[row] = true;
          }
        }
        break;
      case -4:
        for (int k = 0; k < count; k++) {
          int row = rows[k];
          float value = values.getFloat((long) row << 2);
          float group = data.getFloat((long) candidates[row] << 2);
          if (canonical(value) != canonical(group)) {
            mismatch[row] = true;
          }
        }
        break;
      case -8:
        for (int k = 0; k < count; k++) {
          int row = rows[k];
          double value = values.getDouble((long) row << 3);
          double group = data.getDouble((long) candidates[row] << 3);
          if (ColumnHashes.canonical(value) != ColumnHashes.canonical(group)) {
            mismatch[row] = true;
          }
        }
        break;
      default:
        throw new IllegalStateException("unexpected width " + kind);
    }
  }

  /** The bits of a float with -0.0 folded into 0.0 and every NaN into the canonical NaN. */
  private static int canonical(float value) {
    return Float.floatToIntBits(value + 0.0f);
  }

  @Override
  void outputValues(int from, int count, BufferAllocator allocator, ArrowBuf[] buffers) {
    long bytes = (long) count * width;
    buffers[1] = allocator.buffer(bytes);
    if (bytes > 0) {
      buffers[1].setBytes(0, data, (long) from * width, bytes);
    }
  }

  @Override
  void gatherValues(int[] groups, int count, BufferAllocator allocator, ArrowBuf[] buffers) {
    buffers[1] = allocator.buffer((long) count * width);
    for (int i = 0; i < count; i++) {
      buffers[1].setBytes((long) i * width, data, (long) groups[i] * width, width);
    }
  }

  @Override
  void free() {
    super.free();
    data = memory.free(data);
  }
}
