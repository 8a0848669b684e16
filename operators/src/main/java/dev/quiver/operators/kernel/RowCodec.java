package dev.quiver.operators.kernel;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Rows of Arrow columns as byte strings and back: the keys and values of a {@link
 * dev.quiver.operators.spill.SpillStore}.
 *
 * <pre>
 *   row = column 0 | column 1 | ...          (no header: the reader knows the fields)
 *   fixed width w (ints, floats, decimals, dates, times, timestamps, durations, intervals):
 *         0 (NULL)  |  1, w bytes as in the Arrow data buffer (little-endian)
 *   boolean:  0 (NULL)  |  1 (false)  |  2 (true)
 *   utf8, binary:  0 (NULL)  |  1, int32 length (little-endian), the bytes
 * </pre>
 *
 * Equal rows give equal bytes (a NULL has no payload), so encoded keys can be compared as bytes. A
 * key codec ({@link #forKeys}) also writes floats as the group table compares them: {@code -0.0} as
 * {@code 0.0} and every NaN as one NaN. Column at a time: each pass over a column copies its rows
 * at per-row write positions, so the type test runs once per column, not per value. Not
 * thread-safe.
 */
public final class RowCodec {
  private static final int NULL = 0;
  private static final int VALID = 1;

  private final List<Field> fields;
  private final boolean keys;
  private int[] positions = new int[0];

  private RowCodec(List<Field> fields, boolean keys) {
    this.fields = List.copyOf(requireNonNull(fields, "fields is null"));
    this.keys = keys;
    for (Field field : this.fields) {
      if (!supports(field)) {
        throw new IllegalArgumentException("cannot encode rows of " + field);
      }
    }
  }

  /** A codec of values: every bit kept. */
  public static RowCodec forValues(List<Field> fields) {
    return new RowCodec(fields, false);
  }

  /** A codec of keys: floats canonical, as the group table compares them. */
  public static RowCodec forKeys(List<Field> fields) {
    return new RowCodec(fields, true);
  }

  /** Whether every field is of a type this codec encodes. */
  public static boolean supports(List<Field> fields) {
    return fields.stream().allMatch(RowCodec::supports);
  }

  private static boolean supports(Field field) {
    if (!field.getChildren().isEmpty()) {
      return false;
    }
    ArrowType type = field.getType();
    return type instanceof ArrowType.Bool
        || type instanceof ArrowType.Utf8
        || type instanceof ArrowType.Binary
        || type instanceof ArrowType.Int
        || (type instanceof ArrowType.FloatingPoint
            && ((ArrowType.FloatingPoint) type).getPrecision() != FloatingPointPrecision.HALF)
        || type instanceof ArrowType.Decimal
        || type instanceof ArrowType.Date
        || type instanceof ArrowType.Time
        || type instanceof ArrowType.Timestamp
        || type instanceof ArrowType.Duration
        || type instanceof ArrowType.Interval
        || type instanceof ArrowType.FixedSizeBinary;
  }

  /** The fields of the rows. */
  public List<Field> fields() {
    return fields;
  }

  /**
   * Rows {@code [0, rows)} of {@code columns} (one per field, of its type), each as a new array in
   * {@code out[0, rows)}.
   */
  public void encode(List<FieldVector> columns, int rows, byte[][] out) {
    checkColumns(columns);
    int[] sizes = positions(rows);
    Arrays.fill(sizes, 0, rows, 0);
    for (FieldVector column : columns) {
      addSizes(column, rows, sizes);
    }
    for (int i = 0; i < rows; i++) {
      out[i] = new byte[sizes[i]];
    }
    Arrays.fill(sizes, 0, rows, 0); // now the write positions
    for (FieldVector column : columns) {
      write(column, rows, out, sizes);
    }
  }

  /**
   * Decodes {@code rows[0, count)} into {@code columns} (one per field, empty), from row 0; sets
   * their value counts.
   *
   * @throws IllegalArgumentException if a row is not of these fields
   */
  public void decode(byte[][] rows, int count, List<FieldVector> columns) {
    checkColumns(columns);
    int[] read = positions(count);
    Arrays.fill(read, 0, count, 0);
    for (FieldVector column : columns) {
      read(column, rows, count, read);
    }
    for (int i = 0; i < count; i++) {
      if (read[i] != rows[i].length) {
        throw new IllegalArgumentException(
            "row " + i + " has " + (rows[i].length - read[i]) + " bytes after its " + fields);
      }
    }
  }

  private void checkColumns(List<FieldVector> columns) {
    if (columns.size() != fields.size()) {
      throw new IllegalArgumentException(
          columns.size() + " columns for a codec of " + fields.size() + " fields");
    }
  }

  private int[] positions(int rows) {
    if (positions.length < rows) {
      positions = new int[Math.max(rows, positions.length * 2)];
    }
    return positions;
  }

  private static void addSizes(FieldVector column, int rows, int[] sizes) {
    if (column instanceof BitVector) {
      for (int i = 0; i < rows; i++) {
        sizes[i] += 1;
      }
    } else if (column instanceof BaseVariableWidthVector) {
      BaseVariableWidthVector vector = (BaseVariableWidthVector) column;
      ArrowBuf offsets = vector.getOffsetBuffer();
      for (int i = 0; i < rows; i++) {
        sizes[i] +=
            vector.isNull(i)
                ? 1
                : 1
                    + Integer.BYTES
                    + offsets.getInt((long) (i + 1) * Integer.BYTES)
                    - offsets.getInt((long) i * Integer.BYTES);
      }
    } else {
      int width = ((BaseFixedWidthVector) column).getTypeWidth();
      for (int i = 0; i < rows; i++) {
        sizes[i] += column.isNull(i) ? 1 : 1 + width;
      }
    }
  }

  private void write(FieldVector column, int rows, byte[][] out, int[] at) {
    if (column instanceof BitVector) {
      BitVector bits = (BitVector) column;
      for (int i = 0; i < rows; i++) {
        out[i][at[i]++] = (byte) (bits.isNull(i) ? NULL : 1 + bits.get(i));
      }
    } else if (column instanceof BaseVariableWidthVector) {
      BaseVariableWidthVector vector = (BaseVariableWidthVector) column;
      ArrowBuf offsets = vector.getOffsetBuffer();
      ArrowBuf data = vector.getDataBuffer();
      for (int i = 0; i < rows; i++) {
        byte[] row = out[i];
        if (vector.isNull(i)) {
          row[at[i]++] = NULL;
          continue;
        }
        int start = offsets.getInt((long) i * Integer.BYTES);
        int length = offsets.getInt((long) (i + 1) * Integer.BYTES) - start;
        int p = at[i];
        row[p] = VALID;
        putInt(row, p + 1, length);
        data.getBytes(start, row, p + 1 + Integer.BYTES, length);
        at[i] = p + 1 + Integer.BYTES + length;
      }
    } else {
      int width = ((BaseFixedWidthVector) column).getTypeWidth();
      ArrowBuf data = column.getDataBuffer();
      boolean canonical =
          keys && (column instanceof Float8Vector || column instanceof Float4Vector);
      for (int i = 0; i < rows; i++) {
        byte[] row = out[i];
        if (column.isNull(i)) {
          row[at[i]++] = NULL;
          continue;
        }
        int p = at[i];
        row[p] = VALID;
        if (canonical) {
          putCanonicalFloat(column, data, i, row, p + 1);
        } else {
          data.getBytes((long) i * width, row, p + 1, width);
        }
        at[i] = p + 1 + width;
      }
    }
  }

  private static void putCanonicalFloat(
      FieldVector column, ArrowBuf data, int i, byte[] row, int p) {
    if (column instanceof Float8Vector) {
      double value = data.getDouble((long) i * Double.BYTES);
      long bits = value == 0.0 ? 0L : Double.doubleToLongBits(value); // NaN: one NaN
      putInt(row, p, (int) bits);
      putInt(row, p + Integer.BYTES, (int) (bits >>> 32));
    } else {
      float value = data.getFloat((long) i * Float.BYTES);
      putInt(row, p, value == 0.0f ? 0 : Float.floatToIntBits(value));
    }
  }

  private static void read(FieldVector column, byte[][] rows, int count, int[] at) {
    if (column instanceof BitVector) {
      BitVector bits = (BitVector) column;
      bits.allocateNew(count);
      bits.zeroVector();
      for (int i = 0; i < count; i++) {
        int value = rows[i][at[i]++];
        if (value != NULL) {
          bits.set(i, value - 1);
        }
      }
    } else if (column instanceof BaseVariableWidthVector) {
      BaseVariableWidthVector vector = (BaseVariableWidthVector) column;
      vector.allocateNew(count);
      for (int i = 0; i < count; i++) {
        byte[] row = rows[i];
        int p = at[i];
        if (row[p] == NULL) {
          at[i] = p + 1;
          vector.setNull(i);
          continue;
        }
        int length = getInt(row, p + 1);
        vector.setSafe(i, row, p + 1 + Integer.BYTES, length);
        at[i] = p + 1 + Integer.BYTES + length;
      }
    } else {
      BaseFixedWidthVector vector = (BaseFixedWidthVector) column;
      int width = vector.getTypeWidth();
      vector.allocateNew(count);
      vector.zeroVector();
      ArrowBuf data = vector.getDataBuffer();
      ArrowBuf validity = vector.getValidityBuffer();
      for (int i = 0; i < count; i++) {
        byte[] row = rows[i];
        int p = at[i];
        if (row[p] == NULL) {
          at[i] = p + 1;
          continue;
        }
        data.setBytes((long) i * width, row, p + 1, width);
        BitVectorHelper.setBit(validity, i);
        at[i] = p + 1 + width;
      }
    }
    column.setValueCount(count);
  }

  private static void putInt(byte[] row, int p, int value) {
    row[p] = (byte) value;
    row[p + 1] = (byte) (value >>> 8);
    row[p + 2] = (byte) (value >>> 16);
    row[p + 3] = (byte) (value >>> 24);
  }

  private static int getInt(byte[] row, int p) {
    return (row[p] & 0xff)
        | (row[p + 1] & 0xff) << 8
        | (row[p + 2] & 0xff) << 16
        | (row[p + 3] & 0xff) << 24;
  }
}
