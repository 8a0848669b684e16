package dev.quiver.operators.sort;

import dev.quiver.plan.sort.SortKey;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ValueVectorUtility;

/** Naive references and batch builders for sort tests: Java objects, row at a time, on purpose. */
final class SortTesting {
  private SortTesting() {}

  /** The order of {@code keys} over rows read by {@code BatchRows}, with SQL value semantics. */
  static Comparator<List<Object>> reference(List<SortKey> keys) {
    return (left, right) -> {
      for (SortKey key : keys) {
        Object a = left.get(key.column());
        Object b = right.get(key.column());
        if (a == null || b == null) {
          if (a == null && b == null) {
            continue;
          }
          return (a == null) == key.nullsFirst() ? -1 : 1;
        }
        int result = Integer.signum(compareValues(a, b));
        if (result != 0) {
          return key.ascending() ? result : -result;
        }
      }
      return 0;
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static int compareValues(Object a, Object b) {
    if (a instanceof Float) {
      return sqlCompare((Float) a, (Float) b);
    } else if (a instanceof Double) {
      return sqlCompare((Double) a, (Double) b);
    } else if (a instanceof String) {
      return Arrays.compareUnsigned(
          ((String) a).getBytes(StandardCharsets.UTF_8),
          ((String) b).getBytes(StandardCharsets.UTF_8));
    } else if (a instanceof byte[]) {
      return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
    }
    return ((Comparable) a).compareTo(b);
  }

  /** -0.0 equals 0.0; NaN equals NaN and is greater than everything else. */
  private static int sqlCompare(double a, double b) {
    if (a == b) {
      return 0;
    } else if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.isNaN(a) ? (Double.isNaN(b) ? 0 : 1) : -1;
    }
    return a < b ? -1 : 1;
  }

  /** A new batch of {@code rows} of {@code source} in that order, copied value by value. */
  static VectorSchemaRoot select(
      VectorSchemaRoot source, List<Integer> rows, BufferAllocator allocator) {
    VectorSchemaRoot result = VectorSchemaRoot.create(source.getSchema(), allocator);
    for (int c = 0; c < source.getFieldVectors().size(); c++) {
      FieldVector from = source.getVector(c);
      FieldVector to = result.getVector(c);
      to.allocateNew();
      for (int i = 0; i < rows.size(); i++) {
        to.copyFromSafe(rows.get(i), i, from);
      }
      to.setValueCount(rows.size());
    }
    result.setRowCount(rows.size());
    return result;
  }

  /** A one-column batch of {@code values} (null for null) for the supported test types. */
  static VectorSchemaRoot column(Field field, List<?> values, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(field)), allocator);
    FieldVector vector = root.getVector(0);
    vector.allocateNew();
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      if (value == null) {
        vector.setNull(i);
      } else if (vector instanceof BitVector) {
        ((BitVector) vector).setSafe(i, (Boolean) value ? 1 : 0);
      } else if (vector instanceof TinyIntVector) {
        ((TinyIntVector) vector).setSafe(i, ((Number) value).byteValue());
      } else if (vector instanceof SmallIntVector) {
        ((SmallIntVector) vector).setSafe(i, ((Number) value).shortValue());
      } else if (vector instanceof IntVector) {
        ((IntVector) vector).setSafe(i, ((Number) value).intValue());
      } else if (vector instanceof BigIntVector) {
        ((BigIntVector) vector).setSafe(i, ((Number) value).longValue());
      } else if (vector instanceof Float4Vector) {
        ((Float4Vector) vector).setSafe(i, (Float) value);
      } else if (vector instanceof Float8Vector) {
        ((Float8Vector) vector).setSafe(i, (Double) value);
      } else if (vector instanceof DecimalVector) {
        ((DecimalVector) vector).setSafe(i, (BigDecimal) value);
      } else if (vector instanceof VarCharVector) {
        ((VarCharVector) vector).setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
      } else {
        throw new IllegalArgumentException("unsupported test vector " + field);
      }
    }
    vector.setValueCount(values.size());
    root.setRowCount(values.size());
    return root;
  }

  /**
   * Full validation of every vector, except the scalar check of decimals: Arrow 18.3's rejects
   * values that use the full precision ({@code precision() < vectorPrecision}).
   */
  static void validate(VectorSchemaRoot batch) {
    ValueVectorUtility.validate(batch);
    for (FieldVector vector : batch.getFieldVectors()) {
      if (!(vector instanceof DecimalVector)) {
        ValueVectorUtility.validateFull(vector);
      }
    }
  }
}
