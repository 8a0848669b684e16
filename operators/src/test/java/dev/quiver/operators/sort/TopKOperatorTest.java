package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.SortTesting.reference;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.Operator;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.sort.SortOperatorTest.Shape;
import dev.quiver.operators.sort.SortOperatorTest.SortInputs;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Top-k against the same slice of a stable sort of boxed rows; its memory bound; misuse. */
@ExtendWith(ArrowLeakCheck.class)
class TopKOperatorTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  static Stream<Arguments> cases() {
    long[][] limits = {{0, 0}, {1, 0}, {10, 0}, {10, 5}, {100, 20}, {5, 10_000}, {100_000, 0}};
    List<Arguments> cases = new ArrayList<>();
    long seed = 500;
    for (Shape shape : Shape.values()) {
      if (shape == Shape.BIG_BATCH) {
        continue;
      }
      for (long[] limit : limits) {
        cases.add(Arguments.of(shape, limit[0], limit[1], seed++));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} k={1} offset={2} seed={3}")
  @MethodSource("cases")
  void keepsTheSameRowsAsAStableSort(
      Shape shape, long k, long offset, long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    List<SortKey> keys = SortInputs.keys(shape, random);
    int targetRows = SortInputs.targetRows(shape, random);
    List<VectorSchemaRoot> input = SortInputs.batches(shape, random, allocator);
    List<List<Object>> all = new ArrayList<>();
    input.forEach(batch -> all.addAll(BatchRows.rows(batch)));
    all.sort(reference(keys));
    int from = (int) Math.min(offset, all.size());
    List<List<Object>> expected = all.subList(from, (int) Math.min(offset + k, all.size()));

    MemoryBudget budget = MemoryBudget.unlimited("top-k test");
    CollectingSink sink = new CollectingSink();
    try (TopKOperator topK =
        new TopKOperator(
            new OperatorContext(allocator, budget, targetRows), SCHEMA, keys, k, offset, sink)) {
      input.forEach(batch -> topK.add(0, batch));
      topK.finish(0);
      assertThat(budget.used()).isZero();
    }
    assertThat(sink.rows).as("keys %s", keys).isEqualTo(expected);
    sink.assertBatchesFilled(targetRows);
  }

  @Test
  void memoryIsBoundedByKNotByTheInput(BufferAllocator allocator) {
    List<SortKey> keys = List.of(SortKey.desc(4), SortKey.asc(9));
    MemoryBudget sortBudget = MemoryBudget.unlimited("sort");
    MemoryBudget topKBudget = MemoryBudget.unlimited("top-k");
    CollectingSink sorted = new CollectingSink();
    CollectingSink top = new CollectingSink();
    try (SortOperator sort =
            new SortOperator(
                new OperatorContext(allocator, sortBudget, 100), SCHEMA, keys, sorted);
        TopKOperator topK =
            new TopKOperator(
                new OperatorContext(allocator, topKBudget, 100), SCHEMA, keys, 10, 0, top)) {
      feedSame(List.of(sort, topK), allocator);
    }
    assertThat(top.rows).isEqualTo(sorted.rows.subList(0, 10));
    assertThat(topKBudget.peak()).isLessThan(sortBudget.peak() / 20);
  }

  /** The same 100 random batches of 1,000 rows to each operator. */
  private static void feedSame(List<Operator> operators, BufferAllocator allocator) {
    RandomBatches random = new RandomBatches(77);
    for (int b = 0; b < 100; b++) {
      try (VectorSchemaRoot batch = random.batch(SCHEMA, 1000, allocator)) {
        for (Operator operator : operators) {
          operator.add(
              0,
              SortTesting.select(
                  batch, java.util.stream.IntStream.range(0, 1000).boxed().toList(), allocator));
        }
      }
    }
    operators.forEach(operator -> operator.finish(0));
  }

  @Test
  void zeroRowsClosesEveryBatchAtOnce(BufferAllocator allocator) {
    MemoryBudget budget = MemoryBudget.unlimited("top-k test");
    CollectingSink sink = new CollectingSink();
    try (TopKOperator topK =
        new TopKOperator(
            new OperatorContext(allocator, budget, 100),
            SCHEMA,
            List.of(SortKey.asc(0)),
            0,
            3,
            sink)) {
      topK.add(0, new RandomBatches(1).batch(SCHEMA, 100, allocator));
      assertThat(budget.used()).isZero();
      assertThat(allocator.getAllocatedMemory()).isZero();
      topK.finish(0);
    }
    assertThat(sink.rows).isEmpty();
  }

  @Test
  void budgetTooSmallFailsClearlyWithoutLeaks(BufferAllocator allocator) {
    MemoryBudget tiny = new MemoryBudget("tiny", 2000);
    try (TopKOperator topK =
        new TopKOperator(
            new OperatorContext(allocator, tiny, 100),
            SCHEMA,
            List.of(SortKey.asc(0)),
            50,
            0,
            VectorSchemaRoot::close)) {
      assertThat(topK).hasToString("TopK[k=50, offset=0, keys=[#0 ASC NULLS LAST]]");
      assertThatThrownBy(() -> topK.add(0, new RandomBatches(2).batch(SCHEMA, 100, allocator)))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED));
    }
    assertThat(tiny.used()).isZero();
  }

  @Test
  void rejectsMisuseAndStillClosesTheBatch(BufferAllocator allocator) {
    assertThatThrownBy(
            () ->
                new TopKOperator(
                    OperatorContext.of(allocator), SCHEMA, List.of(SortKey.asc(0)), -1, 0, b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
    TopKOperator topK =
        new TopKOperator(
            OperatorContext.of(allocator),
            SCHEMA,
            List.of(SortKey.asc(0)),
            3,
            0,
            VectorSchemaRoot::close);
    try (topK) {
      RandomBatches random = new RandomBatches(3);
      assertThatThrownBy(() -> topK.add(1, random.batch(SCHEMA, 5, allocator)))
          .isInstanceOf(IllegalArgumentException.class);
      topK.add(0, random.batch(SCHEMA, 5, allocator));
      topK.finish(0);
      assertThatThrownBy(() -> topK.add(0, random.batch(SCHEMA, 5, allocator)))
          .isInstanceOf(IllegalStateException.class);
    }
  }
}
