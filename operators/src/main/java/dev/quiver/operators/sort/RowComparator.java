package dev.quiver.operators.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.operators.sort.ValueComparators.ValueComparator;
import dev.quiver.plan.sort.SortKey;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Orders rows of batches of one schema by a list of {@link SortKey}s.
 *
 * <p>{@link #create} picks a type-specialised comparator per key column once. {@link #bind} hoists
 * one batch's key buffers into a {@link KeyColumns} view; {@link #compare} then compares row {@code
 * i} of one view with row {@code j} of another (or the same) without a per-row type switch, boxing
 * or {@code getObject}. Value order per type:
 *
 * <ul>
 *   <li>integers, dates, times, timestamps, durations: numeric (signed unless the type is not);
 *   <li>float, double: SQL order — {@code -0.0 == 0.0}, NaN equals NaN and is the greatest value;
 *   <li>decimal: the 128/256-bit two's-complement unscaled values (one column has one scale);
 *   <li>utf8, binary: lexicographic by unsigned bytes (code point order for UTF-8);
 *   <li>boolean: {@code false < true}.
 * </ul>
 *
 * <p>Nulls equal each other and go first or last per key, whatever its direction. Results are -1, 0
 * or 1; equal keys compare 0 (callers that need stability break ties themselves). A comparator is
 * immutable and may be shared; a {@code KeyColumns} view is valid while its batch is unchanged.
 */
public final class RowComparator {
  private final Schema schema;
  private final List<SortKey> keys;
  private final int[] columns;
  private final ValueComparator[] comparators;
  private final boolean[] hasOffsets;
  private final boolean[] descending;
  // The result when only the left value is null: -1 for nulls first, 1 for nulls last.
  private final int[] leftNull;

  private RowComparator(Schema schema, List<SortKey> keys) {
    this.schema = schema;
    this.keys = keys;
    int count = keys.size();
    columns = new int[count];
    comparators = new ValueComparator[count];
    hasOffsets = new boolean[count];
    descending = new boolean[count];
    leftNull = new int[count];
    for (int k = 0; k < count; k++) {
      SortKey key = requireNonNull(keys.get(k), "key is null");
      if (key.column() >= schema.getFields().size()) {
        throw new IllegalArgumentException(
            "sort key "
                + key
                + " is outside the schema's "
                + schema.getFields().size()
                + " columns");
      }
      ArrowType type = schema.getFields().get(key.column()).getType();
      columns[k] = key.column();
      comparators[k] = ValueComparators.forType(type);
      hasOffsets[k] = ValueComparators.hasOffsets(type);
      descending[k] = !key.ascending();
      leftNull[k] = key.nullsFirst() ? -1 : 1;
    }
  }

  /** A comparator of rows of {@code schema} by {@code keys} (the first key decides first). */
  public static RowComparator create(Schema schema, List<SortKey> keys) {
    requireNonNull(schema, "schema is null");
    requireNonNull(keys, "keys is null");
    return new RowComparator(schema, List.copyOf(keys));
  }

  public Schema schema() {
    return schema;
  }

  public List<SortKey> keys() {
    return keys;
  }

  /** The key columns of {@code batch}, whose key column types must be the schema's. */
  public KeyColumns bind(VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    return new KeyColumns(batch);
  }

  /**
   * Compares row {@code leftRow} of {@code left} with row {@code rightRow} of {@code right}:
   * negative when the left row sorts first, 0 when all keys are equal, positive otherwise.
   */
  public int compare(KeyColumns left, int leftRow, KeyColumns right, int rightRow) {
    for (int k = 0; k < columns.length; k++) {
      if (left.nullable[k] || right.nullable[k]) {
        boolean leftIsNull = isNull(left.validity[k], leftRow);
        boolean rightIsNull = isNull(right.validity[k], rightRow);
        if (leftIsNull || rightIsNull) {
          if (leftIsNull && rightIsNull) {
            continue;
          }
          return leftIsNull ? leftNull[k] : -leftNull[k];
        }
      }
      int result =
          comparators[k].compare(
              left.data[k], left.offsets[k], leftRow, right.data[k], right.offsets[k], rightRow);
      if (result != 0) {
        return descending[k] ? -result : result;
      }
    }
    return 0;
  }

  private static boolean isNull(ArrowBuf validity, int row) {
    return (validity.getByte(row >>> 3) & (1 << (row & 7))) == 0;
  }

  @Override
  public String toString() {
    return "RowComparator" + keys;
  }

  /**
   * The buffers of one batch's key columns, hoisted once so that comparing rows reads no vector.
   * Only the comparator that made a view may compare it.
   */
  public final class KeyColumns {
    private final ArrowBuf[] validity;
    private final ArrowBuf[] data;
    private final ArrowBuf[] offsets;
    // Whether the column has nulls at all: columns without (the common case) skip the bitmap.
    private final boolean[] nullable;
    private final int rowCount;

    private KeyColumns(VectorSchemaRoot batch) {
      int count = columns.length;
      validity = new ArrowBuf[count];
      data = new ArrowBuf[count];
      offsets = new ArrowBuf[count];
      nullable = new boolean[count];
      rowCount = batch.getRowCount();
      for (int k = 0; k < count; k++) {
        if (columns[k] >= batch.getFieldVectors().size()) {
          throw new IllegalArgumentException(
              "batch has no column " + columns[k] + " for sort key " + keys.get(k));
        }
        FieldVector vector = batch.getVector(columns[k]);
        ArrowType expected = schema.getFields().get(columns[k]).getType();
        if (!vector.getField().getType().equals(expected)) {
          throw new IllegalArgumentException(
              "column "
                  + columns[k]
                  + " is "
                  + vector.getField().getType()
                  + ", expected "
                  + expected);
        }
        validity[k] = vector.getValidityBuffer();
        data[k] = vector.getDataBuffer();
        offsets[k] = hasOffsets[k] ? vector.getOffsetBuffer() : null;
        nullable[k] = vector.getNullCount() > 0;
      }
    }

    public int rowCount() {
      return rowCount;
    }
  }
}
