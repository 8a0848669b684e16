package dev.quiver.operators.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class RowCodecTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  /** Every type, NULLs, long strings: rows encode and decode to the same values. */
  @Test
  void roundTripsEveryType(BufferAllocator allocator) {
    RowCodec codec = RowCodec.forValues(SCHEMA.getFields());
    RandomBatches random = new RandomBatches(3).nullFraction(0.2).maxStringLength(300);
    for (int rows : new int[] {0, 1, 777}) {
      try (VectorSchemaRoot batch = random.batch(SCHEMA, rows, allocator);
          VectorSchemaRoot back = VectorSchemaRoot.create(SCHEMA, allocator)) {
        byte[][] encoded = new byte[rows][];
        codec.encode(batch.getFieldVectors(), rows, encoded);
        codec.decode(encoded, rows, back.getFieldVectors());
        back.setRowCount(rows);
        assertThat(BatchRows.rows(back)).isEqualTo(BatchRows.rows(batch));
      }
    }
  }

  /** Equal rows, equal bytes; different rows, different bytes (NULLs carry no payload). */
  @Test
  void equalKeysAreEqualBytes(BufferAllocator allocator) {
    RowCodec codec = RowCodec.forKeys(SCHEMA.getFields());
    RandomBatches random = new RandomBatches(5).nullFraction(0.3).distinctValues(3);
    try (VectorSchemaRoot batch = random.batch(SCHEMA, 2000, allocator)) {
      byte[][] encoded = new byte[2000][];
      codec.encode(batch.getFieldVectors(), 2000, encoded);
      Set<List<Object>> rows = new HashSet<>(BatchRows.rows(batch));
      Set<String> keys = new HashSet<>();
      for (byte[] key : encoded) {
        keys.add(Arrays.toString(key));
      }
      assertThat(keys).hasSameSizeAs(rows);
    }
  }

  /** As the group table compares them: -0.0 is 0.0, every NaN one NaN; values keep every bit. */
  @Test
  void keyFloatsAreCanonical(BufferAllocator allocator) {
    Field f64 =
        new Field(
            "f",
            FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            null);
    try (Float8Vector vector = new Float8Vector(f64, allocator)) {
      vector.allocateNew(4);
      vector.set(0, 0.0);
      vector.set(1, -0.0);
      vector.set(2, Double.NaN);
      vector.set(3, Double.longBitsToDouble(0x7ff8_0000_0000_0001L));
      vector.setValueCount(4);
      byte[][] keys = new byte[4][];
      RowCodec.forKeys(List.of(f64)).encode(List.of(vector), 4, keys);
      assertThat(keys[1]).isEqualTo(keys[0]);
      assertThat(keys[3]).isEqualTo(keys[2]);
      byte[][] values = new byte[4][];
      RowCodec.forValues(List.of(f64)).encode(List.of(vector), 4, values);
      assertThat(values[1]).isNotEqualTo(values[0]);
    }
  }

  @Test
  void refusesNestedTypesAndForeignRows(BufferAllocator allocator) {
    Field list =
        new Field(
            "l",
            FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(RandomBatches.field("x", new ArrowType.Int(32, true))));
    assertThat(RowCodec.supports(List.of(list))).isFalse();
    assertThat(RowCodec.supports(SCHEMA.getFields())).isTrue();
    assertThatThrownBy(() -> RowCodec.forKeys(List.of(list)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot encode");
    Field i64 = RandomBatches.field("i", new ArrowType.Int(64, true));
    try (VectorSchemaRoot back = VectorSchemaRoot.create(new Schema(List.of(i64)), allocator)) {
      assertThatThrownBy(
              () ->
                  RowCodec.forValues(List.of(i64))
                      .decode(new byte[][] {new byte[12]}, 1, back.getFieldVectors()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("bytes after");
    }
  }
}
