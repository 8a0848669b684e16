package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.CollectingSink.withColumn;
import static dev.quiver.operators.sort.SortTesting.reference;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The sort against a stable sort of boxed rows, on randomized inputs of every shape. */
@ExtendWith(ArrowLeakCheck.class)
class SortOperatorTest {
  static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  static final int F32 = 5;
  static final int F64 = 6;
  static final int DEC15 = 7;
  static final int DEC38 = 8;
  static final int UTF8 = 9;
  static final int I64 = 4;

  /** Input shapes; {@link SortInputs} builds them. */
  enum Shape {
    RANDOM,
    FEW_DISTINCT,
    ALL_EQUAL,
    ALL_NULL,
    SKEWED,
    ONE_ROW_BATCHES,
    MANY_BATCHES,
    BIG_BATCH,
    LONG_STRINGS,
    FLOATS,
    DECIMALS,
    EMPTY
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    long seed = 100;
    for (Shape shape : Shape.values()) {
      int repeats = shape == Shape.BIG_BATCH ? 2 : 6;
      for (int r = 0; r < repeats; r++) {
        cases.add(Arguments.of(shape, seed++));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("cases")
  void sortsLikeStableSortOfBoxedRows(Shape shape, long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    List<SortKey> keys = SortInputs.keys(shape, random);
    int targetRows = SortInputs.targetRows(shape, random);
    List<VectorSchemaRoot> input = SortInputs.batches(shape, random, allocator);
    List<List<Object>> expected = new ArrayList<>();
    input.forEach(batch -> expected.addAll(BatchRows.rows(batch)));
    expected.sort(reference(keys)); // List.sort is stable: ties keep input order

    MemoryBudget budget = MemoryBudget.unlimited("sort test");
    CollectingSink sink = new CollectingSink();
    try (SortOperator sort =
        new SortOperator(new OperatorContext(allocator, budget, targetRows), SCHEMA, keys, sink)) {
      input.forEach(batch -> sort.add(0, batch));
      sort.finish(0);
      assertThat(budget.used()).as("everything released after emitting").isZero();
    }
    assertThat(sink.rows).hasSameSizeAs(expected);
    assertThat(sink.rows).as("keys %s", keys).isEqualTo(expected);
    sink.assertBatchesFilled(targetRows);
  }

  /** Sort-specific inputs: special values the prefixes must order like the comparator. */
  static final class SortInputs {
    private SortInputs() {}

    static List<SortKey> keys(Shape shape, Random random) {
      List<SortKey> keys = new ArrayList<>();
      switch (shape) {
        case SKEWED -> keys.add(randomKey(I64, random));
        case LONG_STRINGS -> keys.add(randomKey(UTF8, random));
        case FLOATS -> keys.add(randomKey(random.nextBoolean() ? F32 : F64, random));
        case DECIMALS -> keys.add(randomKey(random.nextBoolean() ? DEC15 : DEC38, random));
        default -> {}
      }
      for (int k = random.nextInt(3); k >= 0; k--) {
        keys.add(randomKey(random.nextInt(SCHEMA.getFields().size()), random));
      }
      return keys;
    }

    static SortKey randomKey(int column, Random random) {
      return new SortKey(column, random.nextBoolean(), random.nextBoolean());
    }

    static int targetRows(Shape shape, Random random) {
      if (shape == Shape.BIG_BATCH) {
        return OperatorContext.DEFAULT_BATCH_ROWS;
      }
      return new int[] {1, 7, 100, OperatorContext.DEFAULT_BATCH_ROWS}[random.nextInt(4)];
    }

    static List<VectorSchemaRoot> batches(Shape shape, Random random, BufferAllocator allocator) {
      RandomBatches generator = new RandomBatches(random.nextLong()).nullFraction(0.15);
      List<Integer> sizes = new ArrayList<>();
      switch (shape) {
        case ONE_ROW_BATCHES -> fill(sizes, 300, () -> 1);
        case MANY_BATCHES -> fill(sizes, 200, () -> random.nextInt(51));
        case BIG_BATCH -> {
          sizes.add(65_536);
          fill(sizes, 3, () -> random.nextInt(2000));
        }
        case EMPTY -> fill(sizes, random.nextInt(3), () -> 0);
        default -> fill(sizes, 1 + random.nextInt(8), () -> random.nextInt(600));
      }
      switch (shape) {
        case FEW_DISTINCT -> generator.distinctValues(3).nullFraction(0.2);
        case ALL_EQUAL -> generator.distinctValues(1).nullFraction(0);
        case ALL_NULL -> generator.nullFraction(1);
        default -> {}
      }
      List<VectorSchemaRoot> batches = new ArrayList<>();
      for (int size : sizes) {
        VectorSchemaRoot batch = generator.batch(SCHEMA, size, allocator);
        batches.add(special(shape, batch, random, allocator));
      }
      return batches;
    }

    private static void fill(List<Integer> sizes, int count, java.util.function.IntSupplier size) {
      for (int i = 0; i < count; i++) {
        sizes.add(size.getAsInt());
      }
    }

    /** Replaces the key column of special shapes with values drawn from their special pool. */
    private static VectorSchemaRoot special(
        Shape shape, VectorSchemaRoot batch, Random random, BufferAllocator allocator) {
      int rows = batch.getRowCount();
      return switch (shape) {
        case SKEWED -> withColumn(batch, I64, draw(rows, random, SortInputs::skewed), allocator);
        case LONG_STRINGS ->
            withColumn(batch, UTF8, draw(rows, random, SortInputs::text), allocator);
        case FLOATS -> {
          VectorSchemaRoot doubles =
              withColumn(batch, F64, draw(rows, random, r -> real(r)), allocator);
          yield withColumn(
              doubles,
              F32,
              draw(rows, random, r -> real(r) == null ? null : real(r).floatValue()),
              allocator);
        }
        case DECIMALS -> {
          VectorSchemaRoot wide =
              withColumn(batch, DEC38, draw(rows, random, r -> decimal(r, 38, 10)), allocator);
          yield withColumn(wide, DEC15, draw(rows, random, r -> decimal(r, 15, 2)), allocator);
        }
        default -> batch;
      };
    }

    private static List<Object> draw(
        int rows, Random random, java.util.function.Function<Random, Object> value) {
      List<Object> values = new ArrayList<>(rows);
      for (int i = 0; i < rows; i++) {
        values.add(random.nextInt(20) == 0 ? null : value.apply(random));
      }
      return values;
    }

    /** 90% one value, the rest anywhere in the 64-bit range. */
    private static Object skewed(Random random) {
      return random.nextInt(10) < 9 ? 42L : random.nextLong();
    }

    /** Long shared prefixes, prefixes of each other, NUL and multi-byte characters at the end. */
    private static Object text(Random random) {
      // 460 equal bytes outlast the prefix parts: those ties fall back to the row comparator.
      String[] prefixes = {
        "", "abcdefg", "abcdefgh", "abcdefghijklm", "x".repeat(40), "y".repeat(460), "αβγ"
      };
      String[] tails = {"", "a", "b", "\0", "α", "ab", "\0\0", "zz"};
      StringBuilder text = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
      for (int i = random.nextInt(4); i > 0; i--) {
        text.append(tails[random.nextInt(tails.length)]);
      }
      return text.toString();
    }

    private static Double real(Random random) {
      double[] pool = {
        Double.NaN,
        -0.0,
        0.0,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE,
        -Double.MIN_VALUE,
        Double.MAX_VALUE,
        -Double.MAX_VALUE,
        1.5,
        -1.5,
        1e-300
      };
      return random.nextInt(4) == 0 ? random.nextGaussian() : pool[random.nextInt(pool.length)];
    }

    /** Edges of the precision and of the prefix encoding's word boundaries, both signs. */
    private static Object decimal(Random random, int precision, int scale) {
      BigInteger max = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE);
      BigInteger two62 = BigInteger.ONE.shiftLeft(62);
      BigInteger two64 = BigInteger.ONE.shiftLeft(64);
      BigInteger unscaled =
          switch (random.nextInt(8)) {
            case 0 -> max;
            case 1 -> BigInteger.valueOf(random.nextInt(5) - 2);
            case 2 -> two62.add(BigInteger.valueOf(random.nextInt(5) - 2));
            case 3 ->
                two64
                    .multiply(BigInteger.valueOf(random.nextInt(3) + 1))
                    .add(BigInteger.valueOf(random.nextLong()).abs());
            case 4 -> BigInteger.ONE.shiftLeft(63).add(BigInteger.valueOf(random.nextInt(3)));
            default -> new BigInteger(precision * 3, random);
          };
      unscaled = unscaled.min(max);
      return new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), scale);
    }
  }
}
