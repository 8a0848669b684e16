package dev.quiver.operators.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.kernel.Take;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(ArrowLeakCheck.class)
class VectorHasherTest {
  private static final int COLUMNS = RandomBatches.ALL_TYPES.getFields().size();
  private static final int[] ALL_COLUMNS = range(0, COLUMNS);

  @ParameterizedTest(name = "rows={0} nullFraction={1}")
  @CsvSource({
    "0, 0.1",
    "1, 0",
    "1, 0.1",
    "1, 1.0",
    "1000, 0",
    "1000, 0.1",
    "1000, 1.0",
    "65536, 0",
    "65536, 0.1",
    "65536, 1.0"
  })
  void matchesRowAtATimeReference(int rows, double nullFraction, BufferAllocator a) {
    try (VectorSchemaRoot batch =
        new RandomBatches(rows + 17L)
            .nullFraction(nullFraction)
            .batch(RandomBatches.ALL_TYPES, rows, a)) {
      for (int column = 0; column < COLUMNS; column++) {
        assertMatchesReference(batch, new int[] {column}, a);
      }
      assertMatchesReference(batch, ALL_COLUMNS, a);
      assertMatchesReference(batch, new int[] {9, 0, 7, 4}, a);
    }
  }

  @ParameterizedTest(name = "start={0} length={1}")
  @CsvSource({"1, 100", "3, 61", "7, 1000", "13, 4097", "63, 1", "64, 200"})
  void slicesHashLikeTheSameRowsOfTheWholeBatch(int start, int length, BufferAllocator a) {
    try (VectorSchemaRoot batch =
            new RandomBatches(start).nullFraction(0.3).batch(RandomBatches.ALL_TYPES, 5000, a);
        VectorSchemaRoot slice = batch.slice(start, length)) {
      for (int[] keys : keySets()) {
        long[] whole = hash(batch, keys);
        assertThat(hash(slice, keys)).isEqualTo(Arrays.copyOfRange(whole, start, start + length));
      }
    }
  }

  @Test
  void reorderedCopiesHashLikeTheirSourceRows(BufferAllocator a) {
    int rows = 3000;
    try (VectorSchemaRoot batch =
        new RandomBatches(3)
            .nullFraction(0.2)
            .maxStringLength(70)
            .batch(RandomBatches.ALL_TYPES, rows, a)) {
      int[] order = new int[rows];
      Random random = new Random(3);
      for (int i = 0; i < rows; i++) {
        order[i] = random.nextInt(rows);
      }
      try (VectorSchemaRoot copy = Take.take(batch, order, rows, a)) {
        for (int[] keys : keySets()) {
          long[] original = hash(batch, keys);
          long[] copied = hash(copy, keys);
          for (int i = 0; i < rows; i++) {
            assertThat(copied[i]).isEqualTo(original[order[i]]);
          }
        }
      }
    }
  }

  @Test
  void equalStringsHashEquallyWhereverTheyLie(BufferAllocator a) {
    String longString = "x".repeat(100_000) + "é";
    String[] values = {
      "", "k", "1234567", "12345678", "a string longer than 32 bytes....", longString
    };
    for (String value : values) {
      Set<Long> hashes = new HashSet<>();
      // Different prefixes move the value to every alignment; nulls around it change nothing.
      for (int prefix = 0; prefix < 9; prefix++) {
        try (VarCharVector vector = new VarCharVector("s", a)) {
          vector.allocateNew();
          vector.setSafe(0, "p".repeat(prefix).getBytes(StandardCharsets.UTF_8));
          vector.setNull(1);
          vector.setSafe(2, value.getBytes(StandardCharsets.UTF_8));
          vector.setNull(3);
          vector.setValueCount(4);
          hashes.add(hash(vector)[2]);
        }
      }
      assertThat(hashes).as(value.length() + " chars").hasSize(1);
    }
  }

  @Test
  void negativeZeroAndNaNs(BufferAllocator a) {
    double[] doubles = {
      0.0,
      -0.0,
      Double.NaN,
      Double.longBitsToDouble(0x7ff0_0000_0000_0001L),
      Double.longBitsToDouble(0xfff8_0000_0000_0000L),
      Double.longBitsToDouble(0xffff_ffff_ffff_ffffL)
    };
    float[] floats = {
      0.0f,
      -0.0f,
      Float.NaN,
      Float.intBitsToFloat(0x7f80_0001),
      Float.intBitsToFloat(0xffc0_0000),
      Float.intBitsToFloat(0xffff_ffff)
    };
    try (Float8Vector d = new Float8Vector("d", a);
        Float4Vector f = new Float4Vector("f", a)) {
      d.allocateNew(doubles.length);
      f.allocateNew(floats.length);
      for (int i = 0; i < doubles.length; i++) {
        d.set(i, doubles[i]);
        f.set(i, floats[i]);
      }
      d.setValueCount(doubles.length);
      f.setValueCount(floats.length);
      long[] dh = hash(d);
      long[] fh = hash(f);
      assertThat(dh[1]).isEqualTo(dh[0]);
      assertThat(new long[] {dh[3], dh[4], dh[5]}).containsOnly(dh[2]);
      assertThat(dh[2]).isNotEqualTo(dh[0]);
      // A float hashes like the double of the same value.
      assertThat(fh).isEqualTo(dh);
    }
  }

  @Test
  void integersOfEveryWidthAgree(BufferAllocator a) {
    try (TinyIntVector i8 = new TinyIntVector("i8", a);
        SmallIntVector i16 = new SmallIntVector("i16", a);
        IntVector i32 = new IntVector("i32", a);
        BigIntVector i64 = new BigIntVector("i64", a)) {
      int[] values = {0, 1, -1, 127, -128};
      i8.allocateNew(values.length);
      i16.allocateNew(values.length);
      i32.allocateNew(values.length);
      i64.allocateNew(values.length);
      for (int i = 0; i < values.length; i++) {
        i8.set(i, values[i]);
        i16.set(i, values[i]);
        i32.set(i, values[i]);
        i64.set(i, values[i]);
      }
      for (FieldVector v : List.of(i8, i16, i32, i64)) {
        v.setValueCount(values.length);
      }
      assertThat(hash(i16)).isEqualTo(hash(i8));
      assertThat(hash(i32)).isEqualTo(hash(i8));
      assertThat(hash(i64)).isEqualTo(hash(i8));
    }
  }

  @Test
  void nullIsOneConstantForEveryType(BufferAllocator a) {
    try (VectorSchemaRoot nulls =
        new RandomBatches(1).nullFraction(1.0).batch(RandomBatches.ALL_TYPES, 3, a)) {
      for (int column = 0; column < COLUMNS; column++) {
        assertThat(hash(nulls, new int[] {column})).containsOnly(0xcabe2c384067d7caL);
      }
      assertThat(hash(nulls, new int[] {4, 9})).containsOnly(0x6e00cd258c0ede1dL);
    }
  }

  /** Pinned values: the hash is a wire contract between producers and consumers. */
  @Test
  void stableLiteralValues(BufferAllocator a) {
    try (BigIntVector i64 = new BigIntVector("i64", a);
        VarCharVector utf8 = new VarCharVector("utf8", a);
        Float8Vector f64 = new Float8Vector("f64", a)) {
      i64.allocateNew(3);
      i64.set(0, 42);
      i64.set(1, 0);
      i64.set(2, Long.MIN_VALUE);
      i64.setValueCount(3);
      utf8.allocateNew();
      utf8.setSafe(0, "quiver".getBytes(StandardCharsets.UTF_8));
      utf8.setSafe(1, new byte[0]);
      utf8.setSafe(2, "ünïcödé".getBytes(StandardCharsets.UTF_8));
      utf8.setValueCount(3);
      f64.allocateNew(3);
      f64.set(0, 1.5);
      f64.set(1, -0.0);
      f64.set(2, Double.NaN);
      f64.setValueCount(3);
      assertThat(hash(i64))
          .containsExactly(0x0bf24b5aec5adcd3L, 0x24d281e721abc72aL, 0xf5c524cf2b2bb618L);
      assertThat(hash(utf8))
          .containsExactly(0x14f60f365de7403aL, 0x5258ff48e644d138L, 0x1d37ebaf22c74480L);
      assertThat(hash(f64))
          .containsExactly(0x49d9ffcc48adfda7L, 0x24d281e721abc72aL, 0x395fab1f25942e49L);
      long[] pairs = new long[3];
      VectorHasher.hash(List.of(i64, utf8), 3, pairs);
      assertThat(pairs)
          .containsExactly(0x532b8c933fd40aa4L, 0x3702c4dbf824e350L, 0xa1f298a2964bcd52L);
    }
  }

  @Test
  void stableLiteralValuesOfEveryType(BufferAllocator a) {
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(RandomBatches.ALL_TYPES, a)) {
      batch.allocateNew();
      ((BitVector) batch.getVector("bool")).set(0, 1);
      ((TinyIntVector) batch.getVector("i8")).set(0, -5);
      ((SmallIntVector) batch.getVector("i16")).set(0, 300);
      ((IntVector) batch.getVector("i32")).set(0, -70000);
      ((BigIntVector) batch.getVector("i64")).set(0, 1L << 40);
      ((Float4Vector) batch.getVector("f32")).set(0, 2.5f);
      ((Float8Vector) batch.getVector("f64")).set(0, -3.25);
      ((DecimalVector) batch.getVector("dec15_2")).set(0, new BigDecimal("123.45"));
      ((DecimalVector) batch.getVector("dec38_10"))
          .set(0, new BigDecimal("-9999999999999999999999999999.9999999999"));
      ((VarCharVector) batch.getVector("utf8"))
          .setSafe(0, "quiver".getBytes(StandardCharsets.UTF_8));
      ((DateDayVector) batch.getVector("date")).set(0, 19000);
      ((TimeStampMicroVector) batch.getVector("ts_us")).set(0, 1_700_000_000_000_000L);
      batch.setRowCount(1);
      long[] expected = {
        0x2596b7f925593f00L, 0xa5d8bd67e82fde9dL, 0xb9ae238b85ee15b6L, 0x3feb2ae0e373b427L,
        0x120c590678068ba0L, 0xb6399ce2f0760c9dL, 0x976db7e5e60d44b8L, 0x66455f626924b2f0L,
        0xa05c1493d8241854L, 0x14f60f365de7403aL, 0x008f8d475392857dL, 0x08dd8fbeb3ee6f77L
      };
      for (int column = 0; column < COLUMNS; column++) {
        assertThat(hash(batch, new int[] {column}))
            .as(batch.getVector(column).getField().getName())
            .containsExactly(expected[column]);
      }
      assertThat(hash(batch, ALL_COLUMNS)).containsExactly(0x316e8cf8f3851cebL);
    }
  }

  @Test
  void multiColumnKeysSpreadAndKeepTheirOrder(BufferAllocator a) {
    int side = 300;
    try (IntVector left = new IntVector("l", a);
        IntVector right = new IntVector("r", a)) {
      left.allocateNew(side * side);
      right.allocateNew(side * side);
      for (int i = 0; i < side * side; i++) {
        left.set(i, i / side);
        right.set(i, i % side);
      }
      left.setValueCount(side * side);
      right.setValueCount(side * side);
      long[] lr = new long[side * side];
      long[] rl = new long[side * side];
      VectorHasher.hash(List.of(left, right), side * side, lr);
      VectorHasher.hash(List.of(right, left), side * side, rl);
      assertThat(Arrays.stream(lr).distinct().count()).isEqualTo(side * side);
      // Both halves of the hash are spread: no collisions expected among 90,000 keys in 2^32.
      assertThat(Arrays.stream(lr).map(h -> h >>> 32).distinct().count())
          .isGreaterThan(side * side - 5L);
      assertThat(Arrays.stream(lr).map(h -> h & 0xFFFF_FFFFL).distinct().count())
          .isGreaterThan(side * side - 5L);
      // (x, y) and (y, x) hash differently.
      assertThat(lr[1 * side + 2]).isNotEqualTo(lr[2 * side + 1]);
      assertThat(rl[2 * side + 1]).isEqualTo(lr[1 * side + 2]);
    }
  }

  @Test
  void leavesEntriesPastTheRowCountAlone(BufferAllocator a) {
    try (VectorSchemaRoot batch = new RandomBatches(8).batch(RandomBatches.ALL_TYPES, 10, a)) {
      long[] hashes = new long[20];
      Arrays.fill(hashes, 7L);
      VectorHasher.hash(batch, ALL_COLUMNS, hashes);
      assertThat(Arrays.copyOfRange(hashes, 10, 20)).containsOnly(7L);
      assertThat(Arrays.copyOf(hashes, 10)).isEqualTo(hash(batch, ALL_COLUMNS));
    }
    long[] reused = new long[100];
    assertThat(VectorHasher.ensureCapacity(reused, 100)).isSameAs(reused);
    assertThat(VectorHasher.ensureCapacity(reused, 101)).hasSizeGreaterThanOrEqualTo(101);
    assertThat(VectorHasher.ensureCapacity(null, 0)).isEmpty();
  }

  @Test
  void rejectsBadArguments(BufferAllocator a) {
    try (VectorSchemaRoot batch = new RandomBatches(8).batch(RandomBatches.ALL_TYPES, 10, a)) {
      assertThatThrownBy(() -> VectorHasher.hash(batch, new int[] {0}, new long[9]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("does not fit");
      assertThatThrownBy(() -> VectorHasher.hash(batch, new int[] {COLUMNS}, new long[10]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("outside");
    }
    try (ListVector list = ListVector.empty("l", a)) {
      list.setValueCount(0);
      assertThatThrownBy(() -> VectorHasher.hash(List.of(list), 0, new long[0]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot hash");
    }
  }

  /**
   * Few distinct short strings hash through a memo, many distinct ones give it up after a trial:
   * the hashes are the reference's either way, also for the last value ending at the buffer's end.
   */
  @ParameterizedTest(name = "distinct={0} rows={1}")
  @CsvSource({"3, 300", "5, 5000", "40, 5000", "200, 5000", "5000, 5000", "7, 255", "9, 257"})
  void shortStringsFewOrManyDistinct(int distinct, int rows, BufferAllocator a) {
    Random random = new Random(distinct * 31L + rows);
    String[] pool = new String[distinct];
    for (int i = 0; i < distinct; i++) {
      int length = i % 10; // 0..9 bytes: both sides of the 7-byte memo limit
      StringBuilder text = new StringBuilder();
      for (int c = 0; c < length; c++) {
        text.append((char) ('a' + random.nextInt(26)));
      }
      pool[i] = text.append(i % 3 == 0 ? "" : "é").toString();
    }
    try (VarCharVector strings = new VarCharVector("s", a)) {
      strings.allocateNew(rows);
      for (int i = 0; i < rows; i++) {
        if (random.nextInt(10) == 0) {
          strings.setNull(i);
        } else {
          strings.setSafe(i, pool[random.nextInt(distinct)].getBytes(StandardCharsets.UTF_8));
        }
      }
      strings.setSafe(rows - 1, "ab".getBytes(StandardCharsets.UTF_8));
      strings.setValueCount(rows);
      assertMatchesReference(VectorSchemaRoot.of(strings), new int[] {0}, a); // closed below
      // The data buffer cut right after the last value: its word would cross the end.
      ArrowBuf data = strings.getDataBuffer();
      int end = strings.getOffsetBuffer().getInt((long) rows * 4);
      try (ArrowBuf exact = a.buffer(end)) {
        exact.setBytes(0, data, 0, end);
        long[] expected = hash(strings);
        long[] actual = new long[rows];
        Arrays.fill(actual, VectorHasher.SEED);
        ByteHashes.variableWidth(
            strings.getOffsetBuffer(),
            exact.slice(0, end),
            strings.getNullCount() == 0 ? null : strings.getValidityBuffer(),
            rows,
            actual);
        assertThat(actual).isEqualTo(expected);
      }
    }
  }

  // ---- reference: one row at a time from the Java values, independent of the vector layout ----

  private static void assertMatchesReference(
      VectorSchemaRoot batch, int[] keys, BufferAllocator a) {
    long[] actual = hash(batch, keys);
    for (int row = 0; row < batch.getRowCount(); row++) {
      long expected = VectorHasher.SEED;
      for (int key : keys) {
        Object value = BatchRows.value(batch.getVector(key), row);
        expected = VectorHasher.combine(expected, referenceValue(value, a));
      }
      assertThat(actual[row])
          .as("row %d of keys %s", row, Arrays.toString(keys))
          .isEqualTo(expected);
    }
  }

  private static long referenceValue(Object value, BufferAllocator a) {
    if (value == null) {
      return VectorHasher.NULL_VALUE;
    } else if (value instanceof Boolean) {
      return (Boolean) value ? 1 : 0;
    } else if (value instanceof Float || value instanceof Double) {
      double d = ((Number) value).doubleValue();
      return Double.isNaN(d) ? 0x7ff8_0000_0000_0000L : d == 0 ? 0 : Double.doubleToLongBits(d);
    } else if (value instanceof BigDecimal) {
      BigInteger unscaled = ((BigDecimal) value).unscaledValue();
      return unscaled.longValue() ^ VectorHasher.fmix64(unscaled.shiftRight(64).longValue());
    } else if (value instanceof Number) { // int8..int64, and date32 as its day number
      return ((Number) value).longValue();
    } else if (value instanceof LocalDateTime) { // timestamp(µs) without a time zone
      LocalDateTime time = (LocalDateTime) value;
      return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1_000;
    } else if (value instanceof String) {
      byte[] bytes = ((String) value).getBytes(StandardCharsets.UTF_8);
      try (ArrowBuf buffer = a.buffer(Math.max(1, bytes.length))) {
        buffer.setBytes(0, bytes);
        return XxHash64.hash(buffer, 0, bytes.length);
      }
    }
    throw new AssertionError("no reference for " + value.getClass());
  }

  private static long[] hash(VectorSchemaRoot batch, int[] keys) {
    long[] hashes = new long[batch.getRowCount()];
    VectorHasher.hash(batch, keys, hashes);
    return hashes;
  }

  private static long[] hash(FieldVector vector) {
    long[] hashes = new long[vector.getValueCount()];
    VectorHasher.hash(List.of(vector), vector.getValueCount(), hashes);
    return hashes;
  }

  private static List<int[]> keySets() {
    List<int[]> sets = new ArrayList<>();
    for (int column = 0; column < COLUMNS; column++) {
      sets.add(new int[] {column});
    }
    sets.add(ALL_COLUMNS);
    return sets;
  }

  private static int[] range(int from, int to) {
    int[] values = new int[to - from];
    for (int i = 0; i < values.length; i++) {
      values[i] = from + i;
    }
    return values;
  }
}
