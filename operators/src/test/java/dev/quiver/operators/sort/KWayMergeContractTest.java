package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.SortTesting.column;
import static dev.quiver.operators.sort.SortTesting.reference;
import static dev.quiver.operators.sort.SortTesting.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.plan.sort.SortKey;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The merge's protocol: when it may emit, what it releases when, budgets and misuse. */
@ExtendWith(ArrowLeakCheck.class)
class KWayMergeContractTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  private static final int I64 = 4;
  private static final Field KEY = RandomBatches.field("k", new ArrowType.Int(64, true));

  @Test
  void waitsForEveryUnfinishedInputAndReleasesConsumedBatches(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(KEY));
    List<List<Object>> emitted = new ArrayList<>();
    BatchSink sink =
        batch -> {
          try (batch) {
            emitted.add(BatchRows.rows(batch).stream().map(row -> row.get(0)).toList());
          }
        };
    try (BufferAllocator inputs = allocator.newChildAllocator("inputs", 0, Long.MAX_VALUE);
        KWayMerge merge =
            new KWayMerge(
                new OperatorContext(allocator, MemoryBudget.unlimited("merge test"), 2),
                schema,
                List.of(SortKey.asc(0)),
                2,
                sink)) {
      merge.add(0, column(KEY, List.of(1L, 2L, 3L), inputs));
      assertThat(emitted).as("input 1 may still send a smaller key").isEmpty();
      merge.add(1, column(KEY, List.of(2L), inputs));
      // 1, 2 (input 0 wins the tie), 2 — then input 1 has nothing buffered: wait.
      assertThat(emitted).containsExactly(List.of(1L, 2L));
      assertThat(inputs.getAllocatedMemory()).as("input 0's batch is still held").isPositive();
      merge.add(1, column(KEY, List.of(10L), inputs));
      assertThat(emitted).containsExactly(List.of(1L, 2L), List.of(2L, 3L));
      assertThat(inputs.getAllocatedMemory())
          .as("only input 1's second batch is held")
          .isPositive();
      merge.finish(0);
      assertThat(emitted).hasSize(2);
      merge.finish(1);
      assertThat(emitted).containsExactly(List.of(1L, 2L), List.of(2L, 3L), List.of(10L));
      assertThat(inputs.getAllocatedMemory()).isZero();
      assertThat(merge.isDone()).isTrue();
    }
  }

  @Test
  void releasesEachInputBatchWhenConsumed(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(KEY));
    try (BufferAllocator inputs = allocator.newChildAllocator("inputs", 0, Long.MAX_VALUE);
        KWayMerge merge =
            new KWayMerge(
                OperatorContext.of(allocator),
                schema,
                List.of(SortKey.asc(0)),
                2,
                VectorSchemaRoot::close)) {
      VectorSchemaRoot first = column(KEY, List.of(1L, 2L, 3L), inputs);
      long firstBytes = inputs.getAllocatedMemory();
      VectorSchemaRoot second = column(KEY, List.of(20L), inputs);
      long secondBytes = inputs.getAllocatedMemory() - firstBytes;
      merge.add(0, first);
      merge.add(0, second);
      assertThat(inputs.getAllocatedMemory())
          .as("nothing can be merged yet")
          .isEqualTo(firstBytes + secondBytes);
      merge.add(1, column(KEY, List.of(5L, 6L), inputs));
      // 1 2 3 | 5 6 are copied out at once; input 0's second batch waits for input 1's next.
      assertThat(inputs.getAllocatedMemory()).isEqualTo(secondBytes);
      merge.finish(1);
      assertThat(inputs.getAllocatedMemory()).isZero();
      merge.finish(0);
    }
  }

  @Test
  void closeReleasesBufferedBatchesAndPendingOutput(BufferAllocator allocator) {
    try (KWayMerge merge =
        new KWayMerge(
            OperatorContext.of(allocator),
            SCHEMA,
            List.of(SortKey.asc(I64)),
            3,
            VectorSchemaRoot::close)) {
      RandomBatches random = new RandomBatches(9);
      merge.add(0, sortedBatch(random.batch(SCHEMA, 50, allocator), I64, allocator));
      merge.add(1, sortedBatch(random.batch(SCHEMA, 50, allocator), I64, allocator));
      merge.add(1, sortedBatch(random.batch(SCHEMA, 50, allocator), I64, allocator));
      merge.add(2, sortedBatch(random.batch(SCHEMA, 50, allocator), I64, allocator));
      merge.finish(2);
    }
  }

  @Test
  void rejectsMisuseAndStillOwnsTheBatch(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(KEY));
    assertThatThrownBy(
            () ->
                new KWayMerge(
                    OperatorContext.of(allocator),
                    schema,
                    List.of(SortKey.asc(0)),
                    0,
                    VectorSchemaRoot::close))
        .isInstanceOf(IllegalArgumentException.class);
    KWayMerge merge =
        new KWayMerge(
            OperatorContext.of(allocator),
            schema,
            List.of(SortKey.asc(0)),
            2,
            VectorSchemaRoot::close);
    try (merge) {
      merge.finish(0);
      assertThatThrownBy(() -> merge.add(0, column(KEY, List.of(1L), allocator)))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> merge.finish(0)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> merge.add(2, column(KEY, List.of(1L), allocator)))
          .isInstanceOf(IllegalArgumentException.class);
      Field other = RandomBatches.field("s", ArrowType.Utf8.INSTANCE);
      assertThatThrownBy(() -> merge.add(1, column(other, List.of("a"), allocator)))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> merge.add(1, column(KEY, List.of(1L), allocator)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void reservesBufferedBatchesInTheBudget(BufferAllocator allocator) {
    Schema schema = new Schema(List.of(KEY));
    MemoryBudget budget = new MemoryBudget("merge test", 1 << 20);
    OperatorContext context = new OperatorContext(allocator, budget, 4);
    try (KWayMerge merge =
        new KWayMerge(context, schema, List.of(SortKey.asc(0)), 2, VectorSchemaRoot::close)) {
      assertThat(merge).hasToString("KWayMerge[inputs=2, keys=[#0 ASC NULLS LAST]]");
      merge.add(0, column(KEY, List.of(1L, 2L), allocator));
      merge.add(0, column(KEY, List.of(3L), allocator));
      assertThat(budget.used()).isPositive();
      merge.add(1, column(KEY, List.of(0L), allocator));
      merge.finish(1);
      merge.finish(0);
      assertThat(budget.used()).isZero();
    }
    MemoryBudget tiny = new MemoryBudget("tiny", 10);
    try (KWayMerge merge =
        new KWayMerge(
            new OperatorContext(allocator, tiny, 4),
            schema,
            List.of(SortKey.asc(0)),
            2,
            VectorSchemaRoot::close)) {
      assertThatThrownBy(() -> merge.add(0, column(KEY, List.of(1L), allocator)))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("merge input 0");
      merge.add(0, column(KEY, List.of(), allocator)); // empty batches need no memory
    }
    assertThat(tiny.used()).isZero();
  }

  @Test
  void closeReturnsReservations(BufferAllocator allocator) {
    MemoryBudget budget = MemoryBudget.unlimited("merge test");
    try (KWayMerge merge =
        new KWayMerge(
            new OperatorContext(allocator, budget, 16),
            new Schema(List.of(KEY)),
            List.of(SortKey.desc(0)),
            3,
            VectorSchemaRoot::close)) {
      merge.add(2, column(KEY, List.of(3L, 2L), allocator));
      merge.add(2, column(KEY, List.of(1L), allocator));
      merge.add(0, column(KEY, List.of(9L), allocator));
      assertThat(budget.used()).isPositive();
    }
    assertThat(budget.used()).isZero();
  }

  private static VectorSchemaRoot sortedBatch(
      VectorSchemaRoot batch, int column, BufferAllocator allocator) {
    try (batch) {
      List<List<Object>> rows = BatchRows.rows(batch);
      Comparator<List<Object>> order = reference(List.of(SortKey.asc(column)));
      List<Integer> sorted = new ArrayList<>(IntStream.range(0, rows.size()).boxed().toList());
      sorted.sort((a, b) -> order.compare(rows.get(a), rows.get(b)));
      return select(batch, sorted, allocator);
    }
  }
}
