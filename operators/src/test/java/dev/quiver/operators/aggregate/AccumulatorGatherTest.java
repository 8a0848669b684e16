package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.AggregateTesting.call;
import static dev.quiver.plan.aggregate.AggregateFunction.APPROX_COUNT_DISTINCT;
import static dev.quiver.plan.aggregate.AggregateFunction.AVG;
import static dev.quiver.plan.aggregate.AggregateFunction.COUNT;
import static dev.quiver.plan.aggregate.AggregateFunction.MAX;
import static dev.quiver.plan.aggregate.AggregateFunction.MEDIAN;
import static dev.quiver.plan.aggregate.AggregateFunction.MIN;
import static dev.quiver.plan.aggregate.AggregateFunction.SINGLE_VALUE;
import static dev.quiver.plan.aggregate.AggregateFunction.STDDEV_POP;
import static dev.quiver.plan.aggregate.AggregateFunction.SUM;
import static dev.quiver.plan.aggregate.AggregateFunction.VAR_POP;
import static dev.quiver.plan.aggregate.AggregateFunction.VAR_SAMP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link Accumulator#writeFinal(int[], int, FieldVector)}, the gather an updating aggregate emits
 * changed groups with, equals the range {@code writeFinal} row for row: for every accumulator with
 * a partial state (their own loops) and MEDIAN (the interface's default).
 */
@ExtendWith(ArrowLeakCheck.class)
class AccumulatorGatherTest {
  private static final int GROUPS = 40;
  private static final int FED = 34; // groups 34..39 see no row: their values are NULL (COUNT 0)

  static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.countStar("n"),
          call(COUNT, 9),
          call(SUM, 1),
          call(SUM, 3),
          call(AVG, 2),
          call(SUM, 5),
          call(AVG, 6),
          call(SUM, 7),
          call(AVG, 7),
          call(MIN, 0),
          call(MAX, 0),
          call(MIN, 1),
          call(MAX, 2),
          call(MIN, 3),
          call(MAX, 4),
          call(MIN, 5),
          call(MAX, 6),
          call(MIN, 7),
          call(MAX, 8),
          call(MIN, 9),
          call(MAX, 9),
          call(MIN, 10),
          call(MAX, 11),
          call(VAR_SAMP, 3),
          call(STDDEV_POP, 6),
          call(VAR_POP, 8),
          call(APPROX_COUNT_DISTINCT, 9),
          argMinMax(AggregateFunction.ARG_MIN, 9, 4),
          argMinMax(AggregateFunction.ARG_MAX, 7, 6),
          argMinMax(AggregateFunction.ARG_MIN, 0, 8),
          argMinMax(AggregateFunction.ARG_MAX, 10, 11),
          argMinMax(AggregateFunction.ARG_MAX, 5, 9),
          argMinMax(AggregateFunction.ARG_MIN, 6, 3),
          call(SINGLE_VALUE, 9),
          call(SINGLE_VALUE, 4),
          call(MEDIAN, 6));

  private static AggregateCall argMinMax(AggregateFunction function, int arg, int by) {
    return AggregateCall.of(
        function,
        arg,
        SCHEMA.getFields().get(arg).getType(),
        by,
        SCHEMA.getFields().get(by).getType(),
        function.name().toLowerCase() + "_" + arg + "_" + by);
  }

  @Test
  void gatheredFinalValuesEqualTheRangeOnes(BufferAllocator allocator) {
    Random random = new Random(42);
    int[] ids = new int[90];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = random.nextInt(GROUPS); // repeats, any order, empty groups too
    }
    long seed = 7;
    for (AggregateCall call : CALLS) {
      Reservation reservation = new Reservation(MemoryBudget.unlimited("test"), "test");
      Accumulator accumulator = Accumulators.create(call, reservation, new Scratch(reservation));
      accumulator.ensureGroups(GROUPS);
      feed(call, accumulator, new RandomBatches(seed++), random, allocator);
      try (FieldVector range = call.resultField().createVector(allocator);
          FieldVector gathered = call.resultField().createVector(allocator);
          FieldVector none = call.resultField().createVector(allocator)) {
        accumulator.writeFinal(0, GROUPS, range);
        accumulator.writeFinal(ids, ids.length, gathered);
        accumulator.writeFinal(ids, 0, none);
        assertThat(gathered.getValueCount()).isEqualTo(ids.length);
        assertThat(none.getValueCount()).isZero();
        int nulls = 0;
        for (int i = 0; i < ids.length; i++) {
          Object expected = BatchRows.value(range, ids[i]);
          nulls += expected == null ? 1 : 0;
          assertThat(BatchRows.value(gathered, i))
              .as("%s, group %d", call, ids[i])
              .isEqualTo(expected);
        }
        assertThat(nulls).as("%s has values", call).isLessThan(ids.length);
      }
      reservation.releaseAll();
    }
  }

  /** Folds random rows into groups [0, FED): at most one row per group for SINGLE_VALUE. */
  private static void feed(
      AggregateCall call,
      Accumulator accumulator,
      RandomBatches batches,
      Random random,
      BufferAllocator allocator) {
    boolean single = call.function() == SINGLE_VALUE;
    for (int b = 0; b < (single ? 1 : 3); b++) {
      int rows = single ? FED : 150;
      int[] groupIds = new int[rows];
      for (int i = 0; i < rows; i++) {
        groupIds[i] = single ? i : random.nextInt(FED);
      }
      try (VectorSchemaRoot batch = batches.batch(SCHEMA, rows, allocator)) {
        FieldVector argument = call.argument() < 0 ? null : batch.getVector(call.argument());
        FieldVector by = call.by() < 0 ? null : batch.getVector(call.by());
        accumulator.reserveValues(argument, by, rows);
        if (by == null) {
          accumulator.addInput(argument, groupIds, rows);
        } else {
          accumulator.addInput(argument, by, groupIds, rows);
        }
      }
    }
  }
}
