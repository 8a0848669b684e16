package dev.quiver.operators.hash;

import static java.util.Objects.requireNonNull;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.BufferLayout;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One key column of a {@link GroupTable}: the key values of groups {@code 0..n-1}, in group id
 * order, in Arrow-layout buffers (validity bitmap plus the type's values) that grow by doubling.
 *
 * <p>Comparison is split in two passes so that the per-type value loops stay branch-light: {@link
 * #splitNulls} settles the rows where either side is NULL (NULL equals NULL) and hands on the rows
 * where both sides are set; {@link #compareValues} compares those values.
 */
abstract class GroupTableColumn {
  final Field field;
  final GroupTableMemory memory;
  ArrowBuf validity;
  int nullCount;

  GroupTableColumn(Field field, GroupTableMemory memory) {
    this.field = requireNonNull(field, "field is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  /** The column for a key of {@code field}'s type. */
  static GroupTableColumn create(Field field, GroupTableMemory memory) {
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Bool:
        return new GroupTableBoolColumn(field, memory);
      case Int:
        return new GroupTableFixedColumn(field, memory, ((ArrowType.Int) type).getBitWidth() / 8);
      case Date:
      case Time:
      case Timestamp:
      case Duration:
      case Interval:
        return new GroupTableFixedColumn(field, memory, typeWidth(field));
      case FloatingPoint:
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        if (precision == FloatingPointPrecision.HALF) {
          break;
        }
        return new GroupTableFixedColumn(
            field, memory, precision == FloatingPointPrecision.SINGLE ? -4 : -8);
      case Decimal:
        if (((ArrowType.Decimal) type).getBitWidth() != 128) {
          break;
        }
        return new GroupTableFixedColumn(field, memory, 16);
      case Utf8:
      case Binary:
        return new GroupTableVarColumn(field, memory);
      default:
        break;
    }
    throw new QuiverException(
        ErrorCode.UNSUPPORTED_TYPE, "cannot group or join on " + field + " of type " + type);
  }

  private static int typeWidth(Field field) {
    List<BufferLayout> layouts = TypeLayout.getTypeLayout(field.getType()).getBufferLayouts();
    int width = layouts.size() == 2 ? layouts.get(1).getTypeBitWidth() / 8 : 0;
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
      throw new QuiverException(ErrorCode.UNSUPPORTED_TYPE, "cannot group or join on " + field);
    }
    return width;
  }

  /**
   * Appends rows {@code rows[0 .. count)} of {@code source} as groups {@code at .. at + count)}.
   */
  final void append(FieldVector source, int[] rows, int count, int at) {
    validity = memory.grow(validity, bytesForBits((long) at + count), bytesForBits(at));
    ArrowBuf sourceValidity = source.getNullCount() == 0 ? null : source.getValidityBuffer();
    for (int k = 0; k < count; k++) {
      if (sourceValidity == null || isSet(sourceValidity, rows[k])) {
        BitVectorHelper.setBit(validity, at + k);
      } else {
        nullCount++;
      }
    }
    appendValues(source, sourceValidity, rows, count, at);
  }

  /**
   * Forgets groups {@code groups ..}: clears what groups below {@code end} may have written, so the
   * buffers past the last group are zero again (appends only set bits).
   */
  final void truncate(int groups, int end) {
    if (validity != null) {
      long bits = Math.min(end, validity.capacity() * 8);
      for (long bit = groups; bit < bits; bit++) {
        BitVectorHelper.unsetBit(validity, (int) bit);
      }
      nullCount = BitVectorHelper.getNullCount(validity, groups);
    }
    truncateValues(groups, end);
  }

  /** The values part of {@link #truncate}. */
  abstract void truncateValues(int groups, int end);

  /** Copies the values of the rows (zero for null rows) to groups {@code at ..}. */
  abstract void appendValues(
      FieldVector source, ArrowBuf sourceValidity, int[] rows, int count, int at);

  /** Whether NULLs must be settled before values are compared. */
  final boolean mayHaveNulls(FieldVector source) {
    return nullCount > 0 || source.getNullCount() > 0;
  }

  /**
   * For each row {@code r} of {@code rows[0 .. count)} compared with group {@code candidates[r]}:
   * marks a mismatch where exactly one side is NULL, and writes the rows where both are set to
   * {@code valueRows}. Returns how many it wrote.
   */
  final int splitNulls(
      FieldVector source,
      int[] rows,
      int count,
      int[] candidates,
      boolean[] mismatch,
      int[] valueRows) {
    ArrowBuf sourceValidity = source.getNullCount() == 0 ? null : source.getValidityBuffer();
    int kept = 0;
    for (int k = 0; k < count; k++) {
      int row = rows[k];
      boolean set = sourceValidity == null || isSet(sourceValidity, row);
      if (set != isSet(validity, candidates[row])) {
        mismatch[row] = true;
      } else if (set) {
        valueRows[kept++] = row;
      }
    }
    return kept;
  }

  /**
   * Marks {@code mismatch[r]} for each row {@code r} of {@code rows[0 .. count)} (all set, on both
   * sides) whose value differs from that of group {@code candidates[r]}.
   */
  abstract void compareValues(
      FieldVector source, int[] rows, int count, int[] candidates, boolean[] mismatch);

  /**
   * Groups {@code from .. from + count)}, or when {@code groups} is given groups {@code groups[0 ..
   * count)} in that order, as a new vector of this column's field.
   */
  final FieldVector output(int[] groups, int from, int count, BufferAllocator allocator) {
    FieldVector vector = field.createVector(allocator);
    ArrowBuf[] buffers = new ArrowBuf[3];
    try {
      buffers[0] = allocator.buffer(bytesForBits(count));
      buffers[0].setZero(0, buffers[0].capacity());
      int nulls = 0;
      for (int i = 0; i < count; i++) {
        if (isSet(validity, groups == null ? from + i : groups[i])) {
          BitVectorHelper.setBit(buffers[0], i);
        } else {
          nulls++;
        }
      }
      if (groups == null) {
        outputValues(from, count, allocator, buffers);
      } else {
        gatherValues(groups, count, allocator, buffers);
      }
      List<ArrowBuf> loaded =
          buffers[2] == null ? List.of(buffers[0], buffers[1]) : List.of(buffers);
      vector.loadFieldBuffers(new ArrowFieldNode(count, nulls), loaded);
      return vector;
    } catch (RuntimeException | Error e) {
      vector.close();
      throw e;
    } finally {
      for (ArrowBuf buffer : buffers) { // the vector retained what it keeps
        if (buffer != null) {
          buffer.close();
        }
      }
    }
  }

  /**
   * Fills {@code buffers[1]} (values, or offsets) and, for variable width, {@code buffers[2]}
   * (data) with the values of groups {@code from .. from + count)}, as new buffers.
   */
  abstract void outputValues(int from, int count, BufferAllocator allocator, ArrowBuf[] buffers);

  /** As {@link #outputValues}, for groups {@code groups[0 .. count)} in that order. */
  abstract void gatherValues(
      int[] groups, int count, BufferAllocator allocator, ArrowBuf[] buffers);

  /** Frees the buffers (their reservations return to the table's memory). */
  void free() {
    validity = memory.free(validity);
  }

  static boolean isSet(ArrowBuf bits, int index) {
    return ((bits.getByte(index >>> 3) >>> (index & 7)) & 1) != 0;
  }

  static long bytesForBits(long bits) {
    return (bits + 7) >>> 3;
  }
}
