package dev.quiver.operators.hash;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** A boolean key column: values bit-packed, as Arrow stores them. */
final class GroupTableBoolColumn extends GroupTableColumn {
  private ArrowBuf bits;

  GroupTableBoolColumn(Field field, GroupTableMemory memory) {
    super(field, memory);
  }

  @Override
  void appendValues(FieldVector source, ArrowBuf sourceValidity, int[] rows, int count, int at) {
    bits = memory.grow(bits, bytesForBits((long) at + count), bytesForBits(at));
    ArrowBuf values = source.getDataBuffer();
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      if ((sourceValidity == null || isSet(sourceValidity, row)) && isSet(values, row)) {
        BitVectorHelper.setBit(bits, at + k);
      }
    }
  }

  @Override
  void truncateValues(int groups, int end) {
    if (bits != null) {
      long last = Math.min(end, bits.capacity() * 8);
      for (long bit = groups; bit < last; bit++) {
        BitVectorHelper.unsetBit(bits, (int) bit);
      }
    }
  }

  @Override
  void compareValues(
      FieldVector source, int[] rows, int count, int[] candidates, boolean[] mismatch) {
    ArrowBuf values = source.getDataBuffer();
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      if (isSet(values, row) != isSet(bits, candidates[row])) {
        mismatch[row] = true;
      }
    }
  }

  @Override
  void outputValues(int from, int count, BufferAllocator allocator, ArrowBuf[] buffers) {
    buffers[1] = allocator.buffer(bytesForBits(count));
    buffers[1].setZero(0, buffers[1].capacity());
    for (int i = 0; i < count; i++) {
      if (isSet(bits, from + i)) {
        BitVectorHelper.setBit(buffers[1], i);
      }
    }
  }

  @Override
  void gatherValues(int[] groups, int count, BufferAllocator allocator, ArrowBuf[] buffers) {
    buffers[1] = allocator.buffer(bytesForBits(count));
    buffers[1].setZero(0, buffers[1].capacity());
    for (int i = 0; i < count; i++) {
      if (isSet(bits, groups[i])) {
        BitVectorHelper.setBit(buffers[1], i);
      }
    }
  }

  @Override
  void free() {
    super.free();
    bits = memory.free(bits);
  }
}
