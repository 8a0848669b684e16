package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.SortTesting.column;
import static dev.quiver.operators.sort.SortTesting.reference;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(ArrowLeakCheck.class)
class RowComparatorTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1, 2, 3})
  void everyTypeAndNullOrderMatchesReference(long seed, BufferAllocator allocator) {
    // Repeated values (few distinct) exercise equality, unlimited ones the edges of each type.
    try (VectorSchemaRoot left =
            new RandomBatches(seed).nullFraction(0.2).batch(SCHEMA, 300, allocator);
        VectorSchemaRoot right =
            new RandomBatches(seed + 100)
                .nullFraction(0.2)
                .distinctValues(seed == 1 ? Integer.MAX_VALUE : 6)
                .batch(SCHEMA, 300, allocator)) {
      for (int c = 0; c < SCHEMA.getFields().size(); c++) {
        for (SortKey key :
            List.of(
                SortKey.asc(c),
                SortKey.desc(c),
                SortKey.asc(c).withNullsFirst(),
                SortKey.desc(c).withNullsLast())) {
          assertMatchesReference(List.of(key), left, right, new Random(seed * 31 + c), 3000);
        }
      }
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {4, 5, 6, 7})
  void severalKeysMatchReference(long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    try (VectorSchemaRoot left =
            new RandomBatches(seed)
                .nullFraction(0.3)
                .distinctValues(3)
                .batch(SCHEMA, 200, allocator);
        VectorSchemaRoot right =
            new RandomBatches(seed + 1)
                .nullFraction(0.3)
                .distinctValues(3)
                .batch(SCHEMA, 200, allocator)) {
      for (int round = 0; round < 20; round++) {
        List<SortKey> keys = new ArrayList<>();
        for (int k = 1 + random.nextInt(4); k > 0; k--) {
          keys.add(
              new SortKey(
                  random.nextInt(SCHEMA.getFields().size()),
                  random.nextBoolean(),
                  random.nextBoolean()));
        }
        assertMatchesReference(keys, left, right, random, 2000);
        assertMatchesReference(keys, left, left, random, 500);
      }
    }
  }

  @Test
  void floatsInSqlOrder(BufferAllocator allocator) {
    List<Double> doubles =
        Arrays.asList(
            Double.NaN,
            -0.0,
            0.0,
            Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY,
            Double.MIN_VALUE,
            -Double.MIN_VALUE,
            Double.MAX_VALUE,
            -Double.MAX_VALUE,
            1.5,
            -1.5,
            null,
            Double.NaN,
            0.0);
    List<Float> floats = new ArrayList<>();
    for (Double value : doubles) {
      floats.add(value == null ? null : value.floatValue());
    }
    assertAllPairs(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), doubles, allocator);
    assertAllPairs(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), floats, allocator);

    Field field =
        RandomBatches.field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    try (VectorSchemaRoot batch = column(field, doubles, allocator)) {
      RowComparator comparator = RowComparator.create(batch.getSchema(), List.of(SortKey.asc(0)));
      RowComparator.KeyColumns keys = comparator.bind(batch);
      assertThat(comparator.compare(keys, 1, keys, 2)).as("-0.0 vs 0.0").isZero();
      assertThat(comparator.compare(keys, 0, keys, 12)).as("NaN vs NaN").isZero();
      assertThat(comparator.compare(keys, 0, keys, 4)).as("NaN vs +Inf").isPositive();
      assertThat(comparator.compare(keys, 11, keys, 0)).as("null vs NaN, nulls last").isPositive();
    }
  }

  @Test
  void decimalsAtTheEdgeOfPrecision(BufferAllocator allocator) {
    BigInteger max = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
    BigInteger two63 = BigInteger.TWO.pow(63);
    BigInteger two64 = BigInteger.TWO.pow(64);
    List<BigInteger> unscaled =
        List.of(
            max,
            max.negate(),
            max.subtract(BigInteger.ONE),
            max.negate().add(BigInteger.ONE),
            BigInteger.ZERO,
            BigInteger.ONE,
            BigInteger.ONE.negate(),
            two63,
            two63.subtract(BigInteger.ONE),
            two63.negate(),
            two63.negate().subtract(BigInteger.ONE),
            two64,
            two64.negate(),
            two64.subtract(BigInteger.ONE),
            two64.add(BigInteger.ONE),
            BigInteger.valueOf(Long.MIN_VALUE));
    for (int scale : new int[] {0, 10, 38}) {
      List<BigDecimal> values = new ArrayList<>();
      for (BigInteger value : unscaled) {
        values.add(new BigDecimal(value, scale));
      }
      values.add(null);
      assertAllPairs(new ArrowType.Decimal(38, scale, 128), values, allocator);
    }
  }

  @Test
  void stringsByUtf8Bytes(BufferAllocator allocator) {
    String prefix = "x".repeat(97);
    List<String> strings =
        Arrays.asList(
            "",
            "a",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefgh\u0000",
            "abcdefgh\u00e9",
            "abcdefgz",
            "abcdefgha",
            "abcdefghabcdefgh",
            "abcdefghabcdefgi",
            "é",
            "z",
            "日本",
            "日本語",
            "\uD83D\uDE00",
            "\uFFFD",
            "ÿ",
            "\u007f",
            "\u0080",
            prefix + "a",
            prefix + "b",
            prefix + "é",
            prefix,
            null,
            "Z",
            "abcdefgh");
    assertAllPairs(ArrowType.Utf8.INSTANCE, strings, allocator);
  }

  @Test
  void integersAndBooleansAtTheirEdges(BufferAllocator allocator) {
    assertAllPairs(
        new ArrowType.Int(8, true),
        Arrays.asList((byte) -128, (byte) 127, (byte) -1, (byte) 0, (byte) 1, null),
        allocator);
    assertAllPairs(
        new ArrowType.Int(16, true),
        Arrays.asList(Short.MIN_VALUE, Short.MAX_VALUE, (short) -1, (short) 0, null),
        allocator);
    assertAllPairs(
        new ArrowType.Int(32, true),
        Arrays.asList(Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 0, 1, null),
        allocator);
    assertAllPairs(
        new ArrowType.Int(64, true),
        Arrays.asList(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L, 1L, null),
        allocator);
    assertAllPairs(ArrowType.Bool.INSTANCE, Arrays.asList(true, false, null, true), allocator);
  }

  @Test
  void sortKeyPrintsAndDefaultsLikeSql() {
    assertThat(SortKey.asc(0)).hasToString("#0 ASC NULLS LAST");
    assertThat(SortKey.desc(2)).hasToString("#2 DESC NULLS FIRST");
    assertThat(SortKey.desc(2).withNullsLast()).hasToString("#2 DESC NULLS LAST");
    assertThat(SortKey.asc(1).withNullsFirst()).isEqualTo(new SortKey(1, true, true));
    assertThatThrownBy(() -> SortKey.asc(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsBadKeysAndBatches(BufferAllocator allocator) {
    assertThatThrownBy(() -> RowComparator.create(SCHEMA, List.of(SortKey.asc(12))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("#12 ASC");
    Schema list =
        new Schema(
            List.of(
                new Field(
                    "l",
                    org.apache.arrow.vector.types.pojo.FieldType.nullable(ArrowType.List.INSTANCE),
                    List.of(RandomBatches.field("item", new ArrowType.Int(32, true))))));
    assertThatThrownBy(() -> RowComparator.create(list, List.of(SortKey.asc(0))))
        .isInstanceOf(IllegalArgumentException.class);
    RowComparator comparator = RowComparator.create(SCHEMA, List.of(SortKey.asc(3)));
    try (VectorSchemaRoot other =
        column(RandomBatches.field("s", ArrowType.Utf8.INSTANCE), List.of("a"), allocator)) {
      assertThatThrownBy(() -> comparator.bind(other)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  /** Compares random row pairs of {@code left} and {@code right} with the reference order. */
  private static void assertMatchesReference(
      List<SortKey> keys, VectorSchemaRoot left, VectorSchemaRoot right, Random random, int pairs) {
    RowComparator comparator = RowComparator.create(SCHEMA, keys);
    RowComparator.KeyColumns leftKeys = comparator.bind(left);
    RowComparator.KeyColumns rightKeys = comparator.bind(right);
    Comparator<List<Object>> reference = reference(keys);
    List<List<Object>> leftRows = BatchRows.rows(left);
    List<List<Object>> rightRows = BatchRows.rows(right);
    for (int p = 0; p < pairs; p++) {
      int i = random.nextInt(left.getRowCount());
      int j = random.nextInt(right.getRowCount());
      int expected = reference.compare(leftRows.get(i), rightRows.get(j));
      assertThat(comparator.compare(leftKeys, i, rightKeys, j))
          .as("%s: %s vs %s", keys, leftRows.get(i), rightRows.get(j))
          .isEqualTo(expected);
    }
  }

  /** Every pair of {@code values} (one column of {@code type}) under all four null orders. */
  private static void assertAllPairs(ArrowType type, List<?> values, BufferAllocator allocator) {
    try (VectorSchemaRoot batch = column(RandomBatches.field("v", type), values, allocator)) {
      List<List<Object>> rows = BatchRows.rows(batch);
      for (SortKey key :
          List.of(
              SortKey.asc(0),
              SortKey.desc(0),
              SortKey.asc(0).withNullsFirst(),
              SortKey.desc(0).withNullsLast())) {
        RowComparator comparator = RowComparator.create(batch.getSchema(), List.of(key));
        RowComparator.KeyColumns keys = comparator.bind(batch);
        Comparator<List<Object>> reference = reference(List.of(key));
        for (int i = 0; i < values.size(); i++) {
          for (int j = 0; j < values.size(); j++) {
            assertThat(comparator.compare(keys, i, keys, j))
                .as("%s: %s vs %s", key, rows.get(i), rows.get(j))
                .isEqualTo(reference.compare(rows.get(i), rows.get(j)));
          }
        }
      }
    }
  }
}
