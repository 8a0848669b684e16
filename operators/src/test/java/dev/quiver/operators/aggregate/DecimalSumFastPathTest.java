package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The long fast path of decimal SUM/AVG: sums that cross 2^63 (and 2^126, where it hands over to
 * 128-bit adds) stay exact, and overflow errors are those of adding every row in 128 bits.
 */
@ExtendWith(ArrowLeakCheck.class)
class DecimalSumFastPathTest {
  private static final ArrowType DEC18 = new ArrowType.Decimal(18, 0, 128);
  private static final ArrowType DEC38 = new ArrowType.Decimal(38, 0, 128);
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              RandomBatches.field("k", new ArrowType.Int(32, true)),
              RandomBatches.field("d18", DEC18),
              RandomBatches.field("d38", DEC38)));
  private static final BigInteger MAX18 = BigInteger.TEN.pow(18).subtract(BigInteger.ONE);
  private static final BigInteger NINES = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
  private static final BigInteger TWO_63 = BigInteger.ONE.shiftLeft(63);

  /** Without nulls the decimal(18) column takes the tight no-null loop; both must agree. */
  @ParameterizedTest(name = "nulls={0}")
  @ValueSource(booleans = {true, false})
  void sumsCrossingTwoToThe63AreExact(boolean nulls, BufferAllocator allocator) {
    Random random = new Random(63);
    int nullOneIn = nulls ? 50 : Integer.MAX_VALUE;
    Map<Integer, BigInteger[]> expected = new HashMap<>(); // sum18, count18, sum38
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = 0; b < 5; b++) {
      int rows = 3000;
      Integer[] keys = new Integer[rows];
      BigInteger[] d18 = new BigInteger[rows];
      BigInteger[] d38 = new BigInteger[rows];
      for (int i = 0; i < rows; i++) {
        keys[i] = random.nextInt(3);
        // Mostly one sign per stretch, so long sums overflow often and in both directions.
        boolean negative = (i / 500 + b) % 3 == 0;
        BigInteger v18 =
            random.nextInt(4) == 0
                ? MAX18
                : BigInteger.valueOf(random.nextLong() & Long.MAX_VALUE).mod(MAX18);
        d18[i] = random.nextInt(nullOneIn) == 0 ? null : negative ? v18.negate() : v18;
        BigInteger v38 =
            switch (random.nextInt(4)) {
              case 0 -> BigInteger.valueOf(random.nextInt(1_000_000));
              case 1 -> TWO_63.subtract(BigInteger.valueOf(random.nextInt(3))); // long edge
              case 2 -> TWO_63.add(BigInteger.valueOf(random.nextInt(3))); // just beyond a long
              default -> BigInteger.TEN.pow(30).add(BigInteger.valueOf(random.nextInt(1000)));
            };
        d38[i] = random.nextInt(nullOneIn) == 0 ? null : negative ? v38.negate() : v38;
        BigInteger[] state =
            expected.computeIfAbsent(
                keys[i], k -> new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO, null});
        if (d18[i] != null) {
          state[0] = state[0].add(d18[i]);
          state[1] = state[1].add(BigInteger.ONE);
        }
        if (d38[i] != null) {
          state[2] = state[2] == null ? d38[i] : state[2].add(d38[i]);
        }
      }
      batches.add(batch(allocator, keys, d18, d38));
    }
    List<AggregateCall> calls =
        List.of(
            AggregateCall.of(AggregateFunction.SUM, 1, DEC18, "s18"),
            AggregateCall.of(AggregateFunction.AVG, 1, DEC18, "a18"),
            AggregateCall.of(AggregateFunction.SUM, 2, DEC38, "s38"));
    Map<List<Object>, List<Object>> result =
        results(run(allocator, SCHEMA, AggregateMode.SINGLE, new int[] {0}, calls, batches, 10), 1);
    assertThat(result).hasSize(expected.size());
    expected.forEach(
        (key, state) -> {
          BigDecimal sum18 = new BigDecimal(state[0]);
          assertThat(sum18.abs().compareTo(new BigDecimal(TWO_63))).isPositive();
          BigDecimal avg18 = sum18.divide(new BigDecimal(state[1]), 6, RoundingMode.HALF_UP);
          assertThat(result.get(List.of(key)))
              .containsExactly(sum18, avg18, new BigDecimal(state[2]));
        });
  }

  @Test
  void sumsNearTwoToThe127StayExactOrOverflowAsBefore(BufferAllocator allocator) {
    BigInteger small = BigInteger.TEN.pow(17);
    // Reaches 2^126 in the middle of a batch, then comes back down: exact.
    List<BigInteger> values = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      values.add(small);
    }
    values.add(NINES);
    for (int i = 0; i < 200; i++) {
      values.add(small);
    }
    values.add(NINES.negate());
    values.add(small);
    assertThat(sum38(allocator, values, List.of(small)))
        .isEqualTo(new BigDecimal(small.multiply(BigInteger.valueOf(402))));

    // A prefix beyond 2^127 is an overflow even though the total would fit.
    BigInteger threeQuarters = NINES.multiply(BigInteger.valueOf(3)).divide(BigInteger.valueOf(4));
    List<BigInteger> over = List.of(small, NINES, threeQuarters, NINES.negate());
    assertThatThrownBy(() -> sum38(allocator, over, List.of(small)))
        .hasMessageContaining("[NUMERIC_OVERFLOW] sum(#2)");
  }

  /** SUM of the d38 column over one batch of {@code first} then one of {@code second}. */
  private static BigDecimal sum38(
      BufferAllocator allocator, List<BigInteger> first, List<BigInteger> second) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (List<BigInteger> values : List.of(first, second)) {
      int rows = values.size();
      batches.add(
          batch(
              allocator,
              new Integer[rows],
              new BigInteger[rows],
              values.toArray(new BigInteger[0])));
    }
    List<AggregateCall> calls = List.of(AggregateCall.of(AggregateFunction.SUM, 2, DEC38, "s"));
    Map<List<Object>, List<Object>> result =
        results(run(allocator, SCHEMA, AggregateMode.SINGLE, new int[0], calls, batches, 10), 0);
    return (BigDecimal) result.get(List.of()).get(0);
  }

  private static VectorSchemaRoot batch(
      BufferAllocator allocator, Integer[] keys, BigInteger[] d18, BigInteger[] d38) {
    int rows = keys.length;
    IntVector k = new IntVector(SCHEMA.getFields().get(0), allocator);
    DecimalVector a = new DecimalVector(SCHEMA.getFields().get(1), allocator);
    DecimalVector b = new DecimalVector(SCHEMA.getFields().get(2), allocator);
    k.allocateNew(rows);
    a.allocateNew(rows);
    b.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      if (keys[i] != null) {
        k.set(i, keys[i]);
      }
      if (d18[i] != null) {
        a.set(i, new BigDecimal(d18[i]));
      }
      if (d38[i] != null) {
        b.set(i, new BigDecimal(d38[i]));
      }
    }
    k.setValueCount(rows);
    a.setValueCount(rows);
    b.setValueCount(rows);
    return new VectorSchemaRoot(SCHEMA, List.of(k, a, b), rows);
  }
}
