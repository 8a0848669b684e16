package dev.quiver.operators.hash;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A utf8 or binary key column: 32-bit offsets and bytes, as Arrow stores them. Keys compare by
 * length first, then bytes eight at a time.
 *
 * <p>Keys of up to 7 bytes (flags, codes) also have a packed word per group, {@code words}: their
 * bytes with their length in the top byte, so that a row compares by packing its own value and
 * testing one long, without reading the group's offsets and bytes. Longer keys have {@link
 * #LONG_KEY}, which no packed value equals.
 */
final class GroupTableVarColumn extends GroupTableColumn {
  /** The word of a key longer than 7 bytes: a length byte of 0xFF, never a packed key's. */
  private static final long LONG_KEY = -1L;

  private ArrowBuf offsets;
  private ArrowBuf data;
  private ArrowBuf words;

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
    words = memory.grow(words, (long) (at + count) * Long.BYTES, (long) at * Long.BYTES);
    int end = base;
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      long word = 0; // a NULL key's values are never compared
      if (sourceValidity == null || isSet(sourceValidity, row)) {
        int start = offset(sourceOffsets, row);
        int length = offset(sourceOffsets, row + 1) - start;
        data.setBytes(end, values, start, length);
        word = length < Long.BYTES ? packed(word(data, end), length) : LONG_KEY;
        end += length;
      }
      words.setLong((long) (at + k) * Long.BYTES, word);
      offsets.setInt((long) (at + k + 1) * 4, end);
    }
  }

  /** A key of {@code length < 8} bytes, the low bytes of {@code word}, with its length on top. */
  private static long packed(long word, int length) {
    return (word & lowBytes(length)) | ((long) length << 56);
  }

  @Override
  void truncateValues(int groups, int end) {
    // Appends write offsets after the last group's and data from its end: nothing to clear.
  }

  @Override
  void compareValues(
      FieldVector source, int[] rows, int count, int[] candidates, boolean[] mismatch) {
    if (count == 0) {
      return; // (no groups yet: no data buffer either)
    }
    ArrowBuf sourceOffsets = source.getOffsetBuffer();
    ArrowBuf values = source.getDataBuffer();
    // Where a whole word can be read without passing the buffer's end.
    long valuesWordEnd = values.capacity() - Long.BYTES;
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      int group = candidates[row];
      int start = offset(sourceOffsets, row);
      int length = offset(sourceOffsets, row + 1) - start;
      boolean equal;
      if (length < Long.BYTES && start <= valuesWordEnd) {
        equal = packed(values.getLong(start), length) == words.getLong((long) group << 3);
      } else {
        int groupStart = offset(offsets, group);
        if (length != offset(offsets, group + 1) - groupStart) {
          equal = false;
        } else if (length <= SHORT) {
          equal = ((word(values, start) ^ word(data, groupStart)) & lowBytes(length)) == 0;
        } else {
          equal =
              ByteFunctionHelpers.equal(
                      values, start, start + length, data, groupStart, groupStart + length)
                  != 0;
        }
      }
      if (!equal) {
        mismatch[row] = true;
      }
    }
  }

  /** Keys up to this many bytes compare as one masked word, read within the buffers. */
  private static final int SHORT = 8;

  /**
   * The 8 bytes at {@code start} as a little-endian word; near the end of the buffer only the bytes
   * inside it (the rest zero), so nothing past the buffer is read.
   */
  static long word(ArrowBuf buffer, long start) {
    if (start + Long.BYTES <= buffer.capacity()) {
      return buffer.getLong(start);
    }
    long word = 0;
    for (long at = start; at < buffer.capacity(); at++) {
      word |= (buffer.getByte(at) & 0xFFL) << ((at - start) << 3);
    }
    return word;
  }

  /** A mask of the low {@code length} bytes of a word, {@code 0 <= length <= 8}. */
  static long lowBytes(int length) {
    return length >= Long.BYTES ? -1L : ~(-1L << (length << 3));
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
    words = memory.free(words);
  }
}
