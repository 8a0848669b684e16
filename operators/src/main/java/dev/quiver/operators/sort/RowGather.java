package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.PrefixEncoder.batch;
import static dev.quiver.operators.sort.PrefixEncoder.row;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BufferLayout;
import org.apache.arrow.vector.BufferLayout.BufferType;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A gather over many source batches: builds a new batch from rows addressed by references {@code
 * batch << 32 | row}, in the order given — the output side of a sort, whose rows jump between
 * batches at random. Buffers of every source are hoisted once per gather object; each output column
 * is one tight loop per layout (bit-packed, fixed width, 32-bit-offset variable width), as in
 * {@code kernel.Take}. The result shares no memory with the sources.
 */
final class RowGather {
  private final Schema schema;
  private final BufferAllocator allocator;
  private final Column[] columns;

  /** A gather from {@code batches}, whose columns have the types of {@code schema}. */
  RowGather(Schema schema, List<VectorSchemaRoot> batches, BufferAllocator allocator) {
    this.schema = schema;
    this.allocator = allocator;
    List<Field> fields = schema.getFields();
    columns = new Column[fields.size()];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = new Column(fields.get(c), c, batches);
    }
  }

  /** Fails unless every column of {@code schema} can be gathered. */
  static void checkSupported(Schema schema) {
    schema.getFields().forEach(RowGather::width);
  }

  /** Bytes per value: 0 for bit-packed values, -1 for 32-bit-offset variable width. */
  private static int width(Field field) {
    List<BufferLayout> layouts = TypeLayout.getTypeLayout(field.getType()).getBufferLayouts();
    boolean plain = field.getChildren().isEmpty() && field.getDictionary() == null;
    BufferType kind = layouts.size() > 1 ? layouts.get(1).getType() : null;
    int bits = layouts.size() > 1 ? layouts.get(1).getTypeBitWidth() : 0;
    if (plain && layouts.size() == 2 && kind == BufferType.DATA && bits == 1) {
      return 0;
    } else if (plain
        && layouts.size() == 2
        && kind == BufferType.DATA
        && bits > 0
        && bits % 8 == 0) {
      return bits / 8;
    } else if (plain && layouts.size() == 3 && kind == BufferType.OFFSET && bits == 32) {
      return -1;
    }
    throw new IllegalArgumentException("cannot sort rows with a column like " + field);
  }

  /** The rows {@code refs[from .. from + count)} as a new batch owned by the caller. */
  VectorSchemaRoot gather(long[] refs, int from, int count) {
    List<FieldVector> vectors = new ArrayList<>(columns.length);
    try {
      for (Column column : columns) {
        vectors.add(column.gather(refs, from, count));
      }
    } catch (RuntimeException | Error e) {
      AutoCloseables.close(e, vectors);
      throw e;
    }
    return new VectorSchemaRoot(schema, vectors, count);
  }

  private final class Column {
    private final Field field;
    private final int width; // bytes per value; 0 for bits, -1 for variable width
    private final ArrowBuf[] validity; // null when no source has a null in this column
    private final ArrowBuf[] data;
    private final ArrowBuf[] offsets;
    private int[] starts = new int[0];
    private int[] ends = new int[0];

    Column(Field field, int index, List<VectorSchemaRoot> batches) {
      this.field = field;
      int count = batches.size();
      ArrowBuf[] bitmaps = new ArrowBuf[count];
      data = new ArrowBuf[count];
      offsets = new ArrowBuf[count];
      boolean nulls = false;
      width = width(field);
      for (int b = 0; b < count; b++) {
        FieldVector vector = batches.get(b).getVector(index);
        // A batch without nulls may have no bitmap at all (as read from IPC): null means all valid.
        bitmaps[b] = vector.getNullCount() > 0 ? vector.getValidityBuffer() : null;
        nulls |= bitmaps[b] != null;
        data[b] = vector.getDataBuffer();
        offsets[b] = width < 0 ? vector.getOffsetBuffer() : null;
      }
      validity = nulls ? bitmaps : null;
    }

    FieldVector gather(long[] refs, int from, int count) {
      FieldVector target = field.createVector(allocator);
      try {
        if (width < 0) {
          gatherVariable((BaseVariableWidthVector) target, refs, from, count);
        } else {
          ((BaseFixedWidthVector) target).allocateNew(count);
          ArrowBuf out = target.getDataBuffer();
          if (width == 0) {
            gatherBits(data, refs, from, count, out);
          } else {
            gatherFixed(out, refs, from, count);
          }
        }
        if (validity == null) {
          setAll(target.getValidityBuffer(), count);
        } else {
          gatherBits(validity, refs, from, count, target.getValidityBuffer());
        }
        target.setValueCount(count);
        return target;
      } catch (RuntimeException | Error e) {
        target.close();
        throw e;
      }
    }

    private void gatherFixed(ArrowBuf out, long[] refs, int from, int count) {
      switch (width) {
        case 1 -> {
          for (int i = 0; i < count; i++) {
            long ref = refs[from + i];
            out.setByte(i, data[batch(ref)].getByte(row(ref)));
          }
        }
        case 2 -> {
          for (int i = 0; i < count; i++) {
            long ref = refs[from + i];
            out.setShort(2L * i, data[batch(ref)].getShort(2L * row(ref)));
          }
        }
        case 4 -> {
          for (int i = 0; i < count; i++) {
            long ref = refs[from + i];
            out.setInt(4L * i, data[batch(ref)].getInt(4L * row(ref)));
          }
        }
        case 8 -> {
          for (int i = 0; i < count; i++) {
            long ref = refs[from + i];
            out.setLong(8L * i, data[batch(ref)].getLong(8L * row(ref)));
          }
        }
        case 16 -> {
          // decimal128: two 8-byte moves instead of a 16-byte memory copy call per value.
          for (int i = 0; i < count; i++) {
            long ref = refs[from + i];
            ArrowBuf in = data[batch(ref)];
            long at = 16L * row(ref);
            long to = 16L * i;
            out.setLong(to, in.getLong(at));
            out.setLong(to + 8, in.getLong(at + 8));
          }
        }
        default -> {
          for (int i = 0; i < count; i++) {
            long ref = refs[from + i];
            out.setBytes((long) width * i, data[batch(ref)], (long) width * row(ref), width);
          }
        }
      }
    }

    private void gatherVariable(BaseVariableWidthVector target, long[] refs, int from, int count) {
      // Pass 1 sizes the data exactly (one allocation) and remembers where each value starts, so
      // that pass 2 does not read the scattered offsets again.
      if (starts.length < count) {
        starts = new int[count];
        ends = new int[count];
      }
      long bytes = 0;
      for (int i = 0; i < count; i++) {
        ArrowBuf offsetBuffer = offsets[batch(refs[from + i])];
        long at = 4L * row(refs[from + i]);
        starts[i] = offsetBuffer.getInt(at);
        ends[i] = offsetBuffer.getInt(at + 4);
        bytes += ends[i] - starts[i];
      }
      if (bytes > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            count + " rows of " + field + " hold " + bytes + " bytes, more than one vector can");
      }
      target.allocateNew(bytes, count);
      ArrowBuf out = target.getDataBuffer();
      ArrowBuf outOffsets = target.getOffsetBuffer();
      int position = 0;
      for (int i = 0; i < count; i++) {
        int length = ends[i] - starts[i];
        out.setBytes(position, data[batch(refs[from + i])], starts[i], length);
        position += length;
        outOffsets.setInt(4L * (i + 1), position);
      }
      // Without lastSet, setValueCount would "fill holes" over the offsets just written.
      target.setLastSet(count - 1);
    }
  }

  /** Sets the first {@code count} bits of a zeroed bitmap. */
  private static void setAll(ArrowBuf bitmap, int count) {
    if (count >>> 3 > 0) {
      bitmap.setOne(0L, (long) (count >>> 3));
    }
    if ((count & 7) != 0) {
      bitmap.setByte(count >>> 3, (1 << (count & 7)) - 1);
    }
  }

  /**
   * Gathers one bit per reference from per-batch bitmaps (a null bitmap reads as all ones), 64 bits
   * per write.
   */
  private static void gatherBits(
      ArrowBuf[] bitmaps, long[] refs, int from, int count, ArrowBuf target) {
    for (int start = 0; start < count; start += 64) {
      int bits = Math.min(64, count - start);
      long word = 0;
      for (int b = 0; b < bits; b++) {
        long ref = refs[from + start + b];
        ArrowBuf bitmap = bitmaps[batch(ref)];
        int row = row(ref);
        long bit = bitmap == null ? 1 : (bitmap.getByte(row >>> 3) >>> (row & 7)) & 1;
        word |= bit << b;
      }
      long offset = start >>> 3;
      if (bits == 64) {
        target.setLong(offset, word);
      } else {
        for (int b = 0; b < (bits + 7) >>> 3; b++) {
          target.setByte(offset + b, (byte) (word >>> (b << 3)));
        }
      }
    }
  }
}
