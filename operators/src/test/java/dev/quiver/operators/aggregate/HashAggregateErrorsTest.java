package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.call;
import static dev.quiver.operators.aggregate.AggregateTesting.results;
import static dev.quiver.operators.aggregate.AggregateTesting.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Overflow, memory budget and planning errors: clear errors, no leaks. */
@ExtendWith(ArrowLeakCheck.class)
class HashAggregateErrorsTest {
  private static final ArrowType DEC38 = new ArrowType.Decimal(38, 0, 128);
  private static final BigDecimal NINES =
      new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE));

  @Test
  void decimalSumAtTheEdgeOfPrecisionIsExactThenOverflows(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(RandomBatches.field("d", DEC38)));
    List<AggregateCall> calls =
        List.of(
            AggregateCall.of(AggregateFunction.SUM, 0, DEC38, "s"),
            AggregateCall.of(AggregateFunction.MIN, 0, DEC38, "lo"),
            AggregateCall.of(AggregateFunction.MAX, 0, DEC38, "hi"));
    List<VectorSchemaRoot> fits =
        List.of(decimals(allocator, schema, NINES, NINES.negate(), NINES));
    Map<List<Object>, List<Object>> result =
        results(
            run(
                allocator,
                schema,
                AggregateMode.SINGLE,
                new int[0],
                calls,
                new ArrayList<>(fits),
                10),
            0);
    assertThat(result.get(List.of())).containsExactly(NINES, NINES.negate(), NINES);

    List<VectorSchemaRoot> over = List.of(decimals(allocator, schema, NINES, BigDecimal.ONE));
    assertThatThrownBy(
            () ->
                run(
                    allocator,
                    schema,
                    AggregateMode.SINGLE,
                    new int[0],
                    calls,
                    new ArrayList<>(over),
                    10))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("sum(#0)")
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.NUMERIC_OVERFLOW);

    // Beyond even 128 bits on the way: still the same error, never a wrapped sum.
    List<VectorSchemaRoot> far = List.of(decimals(allocator, schema, NINES, NINES, NINES));
    assertThatThrownBy(
            () ->
                run(
                    allocator,
                    schema,
                    AggregateMode.SINGLE,
                    new int[0],
                    calls,
                    new ArrayList<>(far),
                    10))
        .hasMessageContaining("[NUMERIC_OVERFLOW] sum(#0)");

    // AVG of decimal(38, 0) is decimal(38, 6): a mean of 10^37 no longer fits.
    List<AggregateCall> avg = List.of(AggregateCall.of(AggregateFunction.AVG, 0, DEC38, "a"));
    List<VectorSchemaRoot> big = List.of(decimals(allocator, schema, NINES));
    assertThatThrownBy(
            () ->
                run(
                    allocator,
                    schema,
                    AggregateMode.SINGLE,
                    new int[0],
                    avg,
                    new ArrayList<>(big),
                    10))
        .hasMessageContaining("[NUMERIC_OVERFLOW] avg(#0)");
  }

  @Test
  void fullRangeDecimalSumsOverflowLikeTheReference(BufferAllocator allocator) {
    List<AggregateCall> calls = List.of(call(AggregateFunction.SUM, 8));
    List<VectorSchemaRoot> batches = new ArrayList<>();
    batches.add(new RandomBatches(11).batch(SCHEMA, 2000, allocator));
    AggregateReference reference = new AggregateReference(new int[0], calls);
    reference.add(AggregateTesting.rows(batches));
    assertThatThrownBy(reference::results).hasMessageContaining("NUMERIC_OVERFLOW");
    assertThatThrownBy(
            () -> run(allocator, SCHEMA, AggregateMode.SINGLE, new int[0], calls, batches, 10))
        .hasMessageContaining("[NUMERIC_OVERFLOW] sum(#8)");
  }

  @Test
  void bigintSumOverflowIsAnError(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(RandomBatches.field("i", new ArrowType.Int(64, true))));
    BigIntVector values = new BigIntVector(schema.getFields().get(0), allocator);
    values.allocateNew(2);
    values.set(0, Long.MAX_VALUE);
    values.set(1, 1);
    values.setValueCount(2);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    batches.add(new VectorSchemaRoot(schema, List.of(values), 2));
    List<AggregateCall> calls =
        List.of(
            AggregateCall.of(AggregateFunction.SUM, 0, schema.getFields().get(0).getType(), "s"));
    assertThatThrownBy(
            () -> run(allocator, schema, AggregateMode.SINGLE, new int[0], calls, batches, 10))
        .hasMessageContaining("[NUMERIC_OVERFLOW] sum(#0) overflows");
  }

  @Test
  void tinyBudgetFailsNamingTheOperatorWithoutLeaks(BufferAllocator allocator) {
    MemoryBudget budget = new MemoryBudget("task 3", 256 * 1024);
    OperatorContext context = new OperatorContext(allocator, budget, 8192);
    List<AggregateCall> calls =
        List.of(AggregateCall.countStar("n"), call(AggregateFunction.SUM, 7));
    RandomBatches random = new RandomBatches(5).distinctValues(1_000_000);
    try (HashAggregateOperator operator =
        new HashAggregateOperator(
            context,
            SCHEMA,
            AggregateMode.SINGLE,
            new int[] {9, 4},
            calls,
            VectorSchemaRoot::close)) {
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 20; i++) {
                  operator.add(0, random.batch(SCHEMA, 10_000, allocator));
                }
              })
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("task 3 needs")
          .hasMessageContaining(
              "HashAggregate[mode=SINGLE, keys=[#9, #4], aggs=[count(*), sum(#7)]]")
          .extracting(e -> ((QuiverException) e).code())
          .isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED);
    }
    assertThat(budget.used()).isZero();
  }

  @Test
  void distinctNeedsSingleMode(BufferAllocator allocator) {
    List<AggregateCall> calls = List.of(call(AggregateFunction.COUNT_DISTINCT, 3));
    for (AggregateMode mode : new AggregateMode[] {AggregateMode.PARTIAL, AggregateMode.FINAL}) {
      assertThatThrownBy(
              () ->
                  new HashAggregateOperator(
                      OperatorContext.of(allocator),
                      SCHEMA,
                      mode,
                      new int[] {1},
                      calls,
                      VectorSchemaRoot::close))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("count(DISTINCT #3) has no mergeable partial state");
    }
  }

  @Test
  void argumentTypeMustMatchTheInput(BufferAllocator allocator) {
    List<AggregateCall> calls = List.of(AggregateCall.of(AggregateFunction.SUM, 3, DEC38, "s"));
    assertThatThrownBy(
            () ->
                new HashAggregateOperator(
                    OperatorContext.of(allocator),
                    SCHEMA,
                    AggregateMode.SINGLE,
                    new int[0],
                    calls,
                    VectorSchemaRoot::close))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sum(#3) expects Decimal(38, 0, 128)");
  }

  private static VectorSchemaRoot decimals(
      BufferAllocator allocator, Schema schema, BigDecimal... values) {
    DecimalVector vector = new DecimalVector(schema.getFields().get(0), allocator);
    vector.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      vector.set(i, values[i]);
    }
    vector.setValueCount(values.length);
    return new VectorSchemaRoot(schema, List.of(vector), values.length);
  }
}
