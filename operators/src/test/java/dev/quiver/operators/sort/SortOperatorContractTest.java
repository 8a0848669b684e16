package dev.quiver.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sort's protocol: when it emits, what it reserves and releases, misuse. */
@ExtendWith(ArrowLeakCheck.class)
class SortOperatorContractTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  private static final Field KEY = RandomBatches.field("k", new ArrowType.Int(64, true));

  @Test
  void describesItselfInOneLine(BufferAllocator allocator) {
    try (SortOperator sort =
        new SortOperator(
            OperatorContext.of(allocator),
            SCHEMA,
            List.of(SortKey.asc(1), SortKey.desc(0)),
            VectorSchemaRoot::close)) {
      assertThat(sort).hasToString("Sort[#1 ASC NULLS LAST, #0 DESC NULLS FIRST]");
      assertThat(sort.inputs()).isEqualTo(1);
    }
  }

  @Test
  void reservesKeptBatchesAndReleasesThemWhileEmitting(BufferAllocator allocator) {
    MemoryBudget budget = MemoryBudget.unlimited("sort test");
    CollectingSink sink = new CollectingSink();
    RandomBatches random = new RandomBatches(3);
    try (BufferAllocator inputs = allocator.newChildAllocator("inputs", 0, Long.MAX_VALUE);
        SortOperator sort =
            new SortOperator(
                new OperatorContext(allocator, budget, 64),
                SCHEMA,
                List.of(SortKey.asc(4)),
                sink)) {
      VectorSchemaRoot first = random.batch(SCHEMA, 100, inputs);
      long expected = BatchTransfer.heldBytes(first) + SortBuffer.ROW_BYTES * 100;
      sort.add(0, first);
      assertThat(budget.used()).isEqualTo(expected);
      sort.add(0, random.batch(SCHEMA, 0, inputs)); // empty: closed, nothing reserved
      sort.add(0, random.batch(SCHEMA, 50, inputs));
      assertThat(sink.rows).as("nothing before finish").isEmpty();
      sort.finish(0);
      assertThat(sink.rows).hasSize(150);
      assertThat(sink.batchSizes).containsExactly(64, 64, 22);
      assertThat(budget.used()).isZero();
      assertThat(inputs.getAllocatedMemory()).as("inputs released").isZero();
    }
  }

  @Test
  void budgetTooSmallFailsClearlyWithoutLeaks(BufferAllocator allocator) {
    RandomBatches random = new RandomBatches(4);
    MemoryBudget tiny = new MemoryBudget("tiny", 1000);
    try (SortOperator sort =
        new SortOperator(
            new OperatorContext(allocator, tiny, 64),
            SCHEMA,
            List.of(SortKey.asc(9)),
            VectorSchemaRoot::close)) {
      assertThatThrownBy(() -> sort.add(0, random.batch(SCHEMA, 100, allocator)))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.MEMORY_BUDGET_EXCEEDED))
          .hasMessageContaining("Sort[#9 ASC NULLS LAST]");
    }
    assertThat(tiny.used()).isZero();

    // Fails on a later batch: what was kept is released by close.
    VectorSchemaRoot probe = random.batch(SCHEMA, 200, allocator);
    long oneAndAHalf = (BatchTransfer.heldBytes(probe) + SortBuffer.ROW_BYTES * 200) * 3 / 2;
    probe.close();
    MemoryBudget small = new MemoryBudget("small", oneAndAHalf);
    try (SortOperator sort =
        new SortOperator(
            new OperatorContext(allocator, small, 64),
            SCHEMA,
            List.of(SortKey.asc(9)),
            VectorSchemaRoot::close)) {
      sort.add(0, random.batch(SCHEMA, 200, allocator));
      assertThatThrownBy(() -> sort.add(0, random.batch(SCHEMA, 200, allocator)))
          .isInstanceOf(QuiverException.class);
      assertThat(small.used()).isPositive();
    }
    assertThat(small.used()).isZero();
  }

  @Test
  void rejectsMisuseAndStillClosesTheBatch(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(KEY));
    SortOperator sort =
        new SortOperator(
            OperatorContext.of(allocator),
            schema,
            List.of(SortKey.asc(0)),
            VectorSchemaRoot::close);
    try (sort) {
      assertThatThrownBy(() -> sort.add(1, SortTesting.column(KEY, List.of(1L), allocator)))
          .isInstanceOf(IllegalArgumentException.class);
      Field other = RandomBatches.field("s", ArrowType.Utf8.INSTANCE);
      assertThatThrownBy(() -> sort.add(0, SortTesting.column(other, List.of("a"), allocator)))
          .isInstanceOf(IllegalArgumentException.class);
      sort.add(0, SortTesting.column(KEY, List.of(2L, 1L), allocator));
      sort.finish(0);
      assertThatThrownBy(() -> sort.add(0, SortTesting.column(KEY, List.of(1L), allocator)))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> sort.finish(0)).isInstanceOf(IllegalStateException.class);
    }
    sort.close(); // idempotent
    assertThatThrownBy(() -> sort.add(0, SortTesting.column(KEY, List.of(1L), allocator)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(
            () ->
                new SortOperator(
                    OperatorContext.of(allocator), schema, List.of(SortKey.asc(1)), b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void closeBeforeFinishReleasesEverything(BufferAllocator allocator) {
    MemoryBudget budget = MemoryBudget.unlimited("sort test");
    RandomBatches random = new RandomBatches(5);
    try (SortOperator sort =
        new SortOperator(
            new OperatorContext(allocator, budget, 64),
            SCHEMA,
            List.of(SortKey.desc(3)),
            VectorSchemaRoot::close)) {
      sort.add(0, random.batch(SCHEMA, 30, allocator));
      sort.add(0, random.batch(SCHEMA, 30, allocator));
    }
    assertThat(budget.used()).isZero();
  }
}
