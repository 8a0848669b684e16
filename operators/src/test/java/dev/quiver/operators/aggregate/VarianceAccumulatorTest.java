package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The variance family: known answers, NULL thresholds, stability, and Chan's merge. */
@ExtendWith(ArrowLeakCheck.class)
class VarianceAccumulatorTest {
  private static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  private static final Schema INPUT =
      new Schema(
          List.of(Field.nullable("k", new ArrowType.Int(64, true)), Field.nullable("x", F64)));
  private static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.of(AggregateFunction.VAR_SAMP, 1, F64, "vs"),
          AggregateCall.of(AggregateFunction.VAR_POP, 1, F64, "vp"),
          AggregateCall.of(AggregateFunction.STDDEV_SAMP, 1, F64, "ss"),
          AggregateCall.of(AggregateFunction.STDDEV_POP, 1, F64, "sp"));

  @Test
  void knownAnswersAndNullThresholds(BufferAllocator allocator) {
    // group 1: 2 4 4 4 5 5 7 9 (pop variance 4, sample 32/7); group 2: one value; 3: only NULLs.
    long[] keys = {1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 3, 1};
    Double[] xs = {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0, 42.0, null, null, null};
    Map<List<Object>, List<Object>> result =
        results(
            run(
                allocator,
                INPUT,
                AggregateMode.SINGLE,
                new int[] {0},
                CALLS,
                batches(allocator, keys, xs, 5),
                100),
            1);
    assertThat(result.get(List.of(1L))).containsExactly(32.0 / 7, 4.0, Math.sqrt(32.0 / 7), 2.0);
    assertThat(result.get(List.of(2L))).containsExactly(null, 0.0, null, 0.0);
    assertThat(result.get(List.of(3L))).containsExactly(null, null, null, null);
  }

  @Test
  void largeOffsetsStayExactWhereSumOfSquaresCancels(BufferAllocator allocator) {
    // 1e9 + i for i in 0..9999: a sum of squares loses every digit of the variance in float64.
    int rows = 10_000;
    long[] keys = new long[rows];
    Double[] xs = new Double[rows];
    BigDecimal sum = BigDecimal.ZERO;
    for (int i = 0; i < rows; i++) {
      xs[i] = 1e9 + i * 0.5;
      sum = sum.add(BigDecimal.valueOf(xs[i]));
    }
    BigDecimal mean = sum.divide(BigDecimal.valueOf(rows), MathContext.DECIMAL128);
    BigDecimal m2 = BigDecimal.ZERO;
    for (Double x : xs) {
      BigDecimal d = BigDecimal.valueOf(x).subtract(mean);
      m2 = m2.add(d.multiply(d));
    }
    double exact = m2.divide(BigDecimal.valueOf(rows - 1), MathContext.DECIMAL128).doubleValue();
    List<Object> single =
        results(
                run(
                    allocator,
                    INPUT,
                    AggregateMode.SINGLE,
                    new int[] {0},
                    CALLS,
                    batches(allocator, keys, xs, 777),
                    100),
                1)
            .get(List.of(0L));
    assertThat((Double) single.get(0)).isCloseTo(exact, within(exact * 1e-12));
    assertThat(twoPhase(allocator, keys, xs).get(List.of(0L)).get(0))
        .satisfies(v -> assertThat((Double) v).isCloseTo(exact, within(exact * 1e-12)));
  }

  @Test
  void partialsMergeLikeOnePass(BufferAllocator allocator) {
    // Many groups, NULLs, a group seen by one split only, splits with no rows of a group.
    int rows = 20_000;
    long[] keys = new long[rows];
    Double[] xs = new Double[rows];
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < rows; i++) {
      keys[i] = i < 100 ? 5000 : random.nextInt(3000);
      xs[i] = random.nextInt(10) == 0 ? null : random.nextGaussian() * 1e3 + 1e6;
    }
    Map<List<Object>, List<Object>> single =
        results(
            run(
                allocator,
                INPUT,
                AggregateMode.SINGLE,
                new int[] {0},
                CALLS,
                batches(allocator, keys, xs, 1000),
                100_000),
            1);
    AggregateTesting.assertResults(twoPhase(allocator, keys, xs), single, 1e-9);
  }

  /** PARTIAL over four contiguous splits, FINAL over their states. */
  private static Map<List<Object>, List<Object>> twoPhase(
      BufferAllocator allocator, long[] keys, Double[] xs) {
    int[] groupKeys = {0};
    Schema partial =
        HashAggregateOperator.outputSchema(INPUT, AggregateMode.PARTIAL, groupKeys, CALLS);
    List<VectorSchemaRoot> states = new ArrayList<>();
    int splits = 4;
    int per = (keys.length + splits - 1) / splits;
    for (int s = 0; s < splits; s++) {
      int from = Math.min(keys.length, s * per);
      int to = Math.min(keys.length, from + per);
      states.addAll(
          run(
              allocator,
              INPUT,
              AggregateMode.PARTIAL,
              groupKeys,
              CALLS,
              batches(
                  allocator,
                  Arrays.copyOfRange(keys, from, to),
                  Arrays.copyOfRange(xs, from, to),
                  333),
              50));
    }
    return results(
        run(allocator, partial, AggregateMode.FINAL, groupKeys, CALLS, states, 100_000), 1);
  }

  private static List<VectorSchemaRoot> batches(
      BufferAllocator allocator, long[] keys, Double[] xs, int batchRows) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int from = 0; from < keys.length; from += batchRows) {
      int count = Math.min(batchRows, keys.length - from);
      VectorSchemaRoot root = VectorSchemaRoot.create(INPUT, allocator);
      BigIntVector k = (BigIntVector) root.getVector(0);
      Float8Vector x = (Float8Vector) root.getVector(1);
      k.allocateNew(count);
      x.allocateNew(count);
      for (int i = 0; i < count; i++) {
        k.set(i, keys[from + i]);
        if (xs[from + i] != null) {
          x.set(i, xs[from + i]);
        }
      }
      root.setRowCount(count);
      batches.add(root);
    }
    return batches;
  }
}
