package dev.quiver.operators.kernel;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.BufferLayout;
import org.apache.arrow.vector.BufferLayout.BufferType;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Builds output batches of one schema by appending row ranges copied from source batches: the
 * kernel behind coalescing small outputs and emitting merged output.
 *
 * <p>Contract: every source passed to {@link #append} has the schema's column types in the same
 * order (names may differ) and stays owned by the caller, who may close it as soon as {@code
 * append} returns. {@link #build()} hands the rows appended so far to the caller as a new batch and
 * starts the next one; {@link #close()} frees whatever was not built. Supported columns: boolean,
 * every fixed-width primitive (integers, floats, decimals, dates, times, timestamps, durations) and
 * 32-bit-offset variable width (utf8, binary). A zero-column schema only counts rows.
 *
 * <p>Copies work on whole ranges, never row by row: one memory copy per range for fixed-width
 * values and for string bytes, a word-at-a-time bit copy for validity and booleans, one rebasing
 * loop for string offsets. Buffers grow geometrically. Not thread safe.
 */
public final class BatchAppender implements AutoCloseable {
  private static final int VARIABLE = -1;

  private final Schema schema;
  private final BufferAllocator allocator;
  private final Column[] columns;
  private final int expectedRows;
  private int rowCount;
  // The last source whose column types were checked: ranges usually come from one batch in a row.
  private VectorSchemaRoot checkedSource;
  private boolean closed;

  public BatchAppender(Schema schema, BufferAllocator allocator) {
    this(schema, allocator, 0);
  }

  /** {@code expectedRows} sizes the first allocation of each batch's buffers (a hint only). */
  public BatchAppender(Schema schema, BufferAllocator allocator, int expectedRows) {
    this.schema = requireNonNull(schema, "schema is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    if (expectedRows < 0) {
      throw new IllegalArgumentException("expectedRows is negative: " + expectedRows);
    }
    this.expectedRows = expectedRows;
    List<Field> fields = schema.getFields();
    this.columns = new Column[fields.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = column(fields.get(i));
    }
  }

  /** Rows appended since the last {@link #build()}. */
  public int rowCount() {
    return rowCount;
  }

  /** Appends rows {@code [fromRow, fromRow + count)} of {@code source}, copying their values. */
  public void append(VectorSchemaRoot source, int fromRow, int count) {
    requireNonNull(source, "source is null");
    checkOpen();
    if (fromRow < 0 || count < 0 || fromRow > source.getRowCount() - count) {
      throw new IllegalArgumentException(
          "rows " + fromRow + "+" + count + " are outside the source's " + source.getRowCount());
    }
    if (count > Integer.MAX_VALUE - rowCount) {
      throw new IllegalStateException("batch would exceed " + Integer.MAX_VALUE + " rows");
    }
    checkSource(source);
    if (count == 0) {
      return;
    }
    for (int i = 0; i < columns.length; i++) {
      columns[i].append(source.getVector(i), fromRow, count, rowCount);
    }
    rowCount += count;
  }

  /** The rows appended so far as a new batch owned by the caller; the appender starts afresh. */
  public VectorSchemaRoot build() {
    checkOpen();
    int rows = rowCount;
    rowCount = 0;
    if (rows == 0) {
      return VectorSchemaRoot.create(schema, allocator); // nothing was allocated
    }
    List<FieldVector> vectors = new ArrayList<>(columns.length);
    try {
      for (Column column : columns) {
        vectors.add(column.build(rows));
      }
    } catch (RuntimeException e) {
      releaseColumns();
      AutoCloseables.close(e, vectors);
      throw e;
    }
    return new VectorSchemaRoot(schema, vectors, rows);
  }

  /** Frees the rows not yet built. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      releaseColumns();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("appender is closed");
    }
  }

  private void checkSource(VectorSchemaRoot source) {
    if (source == checkedSource) {
      return;
    }
    List<FieldVector> vectors = source.getFieldVectors();
    boolean matches = vectors.size() == columns.length;
    for (int i = 0; matches && i < columns.length; i++) {
      matches = vectors.get(i).getField().getType().equals(columns[i].field.getType());
    }
    if (!matches) {
      throw new IllegalArgumentException(
          "source schema " + source.getSchema() + " does not match " + schema);
    }
    checkedSource = source;
  }

  private void releaseColumns() {
    for (Column column : columns) {
      column.release();
    }
  }

  private Column column(Field field) {
    List<BufferLayout> layouts = TypeLayout.getTypeLayout(field.getType()).getBufferLayouts();
    boolean plain = field.getDictionary() == null && field.getChildren().isEmpty();
    BufferType kind = layouts.size() > 1 ? layouts.get(1).getType() : null;
    int bits = layouts.size() > 1 ? layouts.get(1).getTypeBitWidth() : 0;
    if (plain
        && layouts.size() == 2
        && kind == BufferType.DATA
        && (bits == 1 || bits % 8 == 0 && bits > 0)) {
      return new Column(field, bits / 8); // width 0: booleans, bit-packed
    }
    if (plain && layouts.size() == 3 && kind == BufferType.OFFSET && bits == 32) {
      return new Column(field, VARIABLE);
    }
    throw new IllegalArgumentException("unsupported column for appending: " + field);
  }

  /**
   * {@code buffer} with room for {@code needed} bytes, keeping its first {@code used} bytes: grown
   * to at least twice its size so that appending stays linear. The rest is zeroed: bitmaps are
   * written bit by bit at the edges of a range, and batches never carry stale bytes.
   */
  private ArrowBuf ensure(ArrowBuf buffer, long needed, long used, long hint) {
    long capacity = buffer == null ? 0 : buffer.capacity();
    if (capacity >= needed) {
      return buffer;
    }
    ArrowBuf grown = allocator.buffer(Math.max(Math.max(needed, capacity * 2), hint));
    long kept = buffer == null ? 0 : used;
    if (buffer != null) {
      grown.setBytes(0, buffer, 0, used);
      buffer.close();
    }
    grown.setZero(kept, grown.capacity() - kept);
    return grown;
  }

  /**
   * One output column: validity plus bit-packed booleans ({@code width == 0}), fixed-width values
   * of {@code width} bytes, or 32-bit offsets and data ({@code width == VARIABLE}).
   */
  private final class Column {
    final Field field;
    final int width;
    ArrowBuf validity;
    ArrowBuf offsets;
    ArrowBuf data;

    Column(Field field, int width) {
      this.field = field;
      this.width = width;
    }

    /** Copies {@code count > 0} rows of {@code source} from {@code from} to row {@code at}. */
    void append(FieldVector source, int from, int count, int at) {
      validity = ensureBits(validity, at, count);
      copyBits(source.getValidityBuffer(), from, validity, at, count);
      if (width == VARIABLE) {
        appendVariable(source, from, count, at);
      } else if (width == 0) {
        data = ensureBits(data, at, count);
        copyBits(source.getDataBuffer(), from, data, at, count);
      } else {
        long offset = (long) at * width;
        long bytes = (long) count * width;
        data = ensure(data, offset + bytes, offset, (long) expectedRows * width);
        data.setBytes(offset, source.getDataBuffer(), (long) from * width, bytes);
      }
    }

    private void appendVariable(FieldVector source, int from, int count, int at) {
      ArrowBuf sourceOffsets = source.getOffsetBuffer();
      int start = sourceOffsets.getInt((long) from * Integer.BYTES);
      int end = sourceOffsets.getInt((long) (from + count) * Integer.BYTES);
      long hint = (long) (expectedRows + 1) * Integer.BYTES;
      long used = (long) (at + 1) * Integer.BYTES;
      // A new offsets buffer is zeroed, which is the first offset of the batch.
      offsets = ensure(offsets, used + (long) count * Integer.BYTES, used, hint);
      int base = offsets.getInt((long) at * Integer.BYTES);
      long length = end - start;
      if (base + length > Integer.MAX_VALUE) {
        throw new IllegalStateException(
            "column " + field.getName() + " would exceed 2 GiB of data in one batch");
      }
      data = ensure(data, base + length, base, 0);
      if (length > 0) {
        data.setBytes(base, source.getDataBuffer(), start, length);
      }
      // Rebase the source's offsets onto the end of our data: one pass, no per-row objects.
      int delta = base - start;
      long sourceOffset = (long) (from + 1) * Integer.BYTES;
      for (long target = used; target < used + (long) count * Integer.BYTES; target += 4) {
        offsets.setInt(target, sourceOffsets.getInt(sourceOffset) + delta);
        sourceOffset += Integer.BYTES;
      }
    }

    ArrowBuf ensureBits(ArrowBuf bits, int at, int count) {
      return ensure(bits, bytes((long) at + count), bytes(at), bytes(expectedRows));
    }

    /** A vector holding the first {@code rows} rows; this column is empty afterwards. */
    FieldVector build(int rows) {
      FieldVector vector = field.createVector(allocator);
      try {
        int nulls = BitVectorHelper.getNullCount(validity, rows);
        // Strings that were all empty never needed data.
        ArrowBuf values = data == null ? allocator.getEmpty() : data;
        List<ArrowBuf> buffers =
            width == VARIABLE ? List.of(validity, offsets, values) : List.of(validity, values);
        // The vector retains the buffers it keeps; our references are released below.
        vector.loadFieldBuffers(new ArrowFieldNode(rows, nulls), buffers);
        return vector;
      } catch (RuntimeException e) {
        vector.close();
        throw e;
      } finally {
        release();
      }
    }

    void release() {
      for (ArrowBuf buffer : new ArrowBuf[] {validity, offsets, data}) {
        if (buffer != null) {
          buffer.close();
        }
      }
      validity = offsets = data = null;
    }
  }

  /** Bytes of a bitmap of {@code bits} bits. */
  private static long bytes(long bits) {
    return (bits + 7) >>> 3;
  }

  /** Copies {@code count} bits from bit {@code from} of bitmap {@code src} to bit {@code at}. */
  private static void copyBits(ArrowBuf src, int from, ArrowBuf dst, int at, int count) {
    int end = at + count;
    while (at < end && (at & 7) != 0) { // single bits until the destination is byte aligned
      BitVectorHelper.setValidityBit(dst, at++, BitVectorHelper.get(src, from++));
    }
    int shift = from & 7;
    for (; end - at >= 64; at += 64, from += 64) {
      long srcByte = from >>> 3;
      long word = src.getLong(srcByte) >>> shift;
      if (shift != 0) {
        // The ninth byte holds bits of the range, so it is always inside the source buffer.
        word |= (src.getByte(srcByte + 8) & 0xFFL) << (64 - shift);
      }
      dst.setLong(at >>> 3, word);
    }
    while (at < end) {
      BitVectorHelper.setValidityBit(dst, at++, BitVectorHelper.get(src, from++));
    }
  }
}
