package dev.quiver.operators.hash;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A utf8 or binary key column: 32-bit offsets and bytes, as Arrow stores them. Keys compare by
 * length first, then bytes eight at a time.
 */
final class GroupTableVarColumn extends GroupTableColumn {
  private ArrowBuf offsets;
  private ArrowBuf data;

  GroupTableVarColumn(Field field, GroupTableMemory memory) {
    super(field, memory);
  }

  @Override
  void appendValues(FieldVector source, ArrowBuf sourceValidity, int[] rows, int count, int at) {
    ArrowBuf sourceOffsets = source.getOffsetBuffer();
    ArrowBuf values = source.getDataBuffer();
    long added = 0;
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      if (sourceValidity == null || isSet(sourceValidity, row)) {
        added += offset(sourceOffsets, row + 1) - offset(sourceOffsets, row);
      }
    }
    offsets = memory.grow(offsets, (long) (at + count + 1) * 4, (long) (at + 1) * 4);
    int base = offset(offsets, at);
    if (base + added > Integer.MAX_VALUE) {
      throw new IllegalStateException("the keys of " + field + " exceed 2 GiB in one hash table");
    }
    data = memory.grow(data, Math.max(1, base + added), base);
    int end = base;
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      if (sourceValidity == null || isSet(sourceValidity, row)) {
        int start = offset(sourceOffsets, row);
        int length = offset(sourceOffsets, row + 1) - start;
        data.setBytes(end, values, start, length);
        end += length;
      }
      offsets.setInt((long) (at + k + 1) * 4, end);
    }
  }

  @Override
  void truncateValues(int groups, int end) {
    // Appends write offsets after the last group's and data from its end: nothing to clear.
  }

  @Override
  void compareValues(
      FieldVector source, int[] rows, int count, int[] candidates, boolean[] mismatch) {
    ArrowBuf sourceOffsets = source.getOffsetBuffer();
    ArrowBuf values = source.getDataBuffer();
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      int group = candidates[row];
      int start = offset(sourceOffsets, row);
      int length = offset(sourceOffsets, row + 1) - start;
      int groupStart = offset(offsets, group);
      if (length != offset(offsets, group + 1) - groupStart
          || (length <= SHORT
              ? !shortEqual(values, start, data, groupStart, length)
              : ByteFunctionHelpers.equal(
                      values, start, start + length, data, groupStart, groupStart + length)
                  == 0)) {
        mismatch[row] = true;
      }
    }
  }

  /** Keys up to this many bytes (flags, codes) compare in a short inline loop. */
  private static final int SHORT = 8;

  private static boolean shortEqual(ArrowBuf a, long aStart, ArrowBuf b, long bStart, int length) {
    for (int i = 0; i < length; i++) {
      if (a.getByte(aStart + i) != b.getByte(bStart + i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  void outputValues(int from, int count, BufferAllocator allocator, ArrowBuf[] buffers) {
    buffers[1] = allocator.buffer((long) (count + 1) * 4);
    int base = offset(offsets, from);
    for (int i = 0; i <= count; i++) {
      buffers[1].setInt((long) i * 4, offset(offsets, from + i) - base);
    }
    int bytes = offset(offsets, from + count) - base;
    buffers[2] = allocator.buffer(bytes);
    if (bytes > 0) {
      buffers[2].setBytes(0, data, base, bytes);
    }
  }

  @Override
  void gatherValues(int[] groups, int count, BufferAllocator allocator, ArrowBuf[] buffers) {
    buffers[1] = allocator.buffer((long) (count + 1) * 4);
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      bytes += offset(offsets, groups[i] + 1) - offset(offsets, groups[i]);
    }
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalStateException("the keys of " + field + " exceed 2 GiB in one batch");
    }
    buffers[2] = allocator.buffer(bytes);
    int end = 0;
    buffers[1].setInt(0, 0);
    for (int i = 0; i < count; i++) {
      int start = offset(offsets, groups[i]);
      int length = offset(offsets, groups[i] + 1) - start;
      if (length > 0) {
        buffers[2].setBytes(end, data, start, length);
      }
      end += length;
      buffers[1].setInt((long) (i + 1) * 4, end);
    }
  }

  private static int offset(ArrowBuf offsets, int index) {
    return offsets.getInt((long) index * 4);
  }

  @Override
  void free() {
    super.free();
    offsets = memory.free(offsets);
    data = memory.free(data);
  }
}
