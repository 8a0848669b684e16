package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.SortTesting.reference;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.BatchTransfer;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.sort.SortOperatorTest.Shape;
import dev.quiver.operators.sort.SortOperatorTest.SortInputs;
import dev.quiver.operators.spill.MemorySpillSpace;
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
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sort with a tiny budget and a spill space against the same sort in memory and a stable sort
 * of boxed rows: same rows, same order, same batch sizes, and nothing left behind.
 */
@ExtendWith(ArrowLeakCheck.class)
class SpillingSortTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  static final long KB = 1024;

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    long seed = 500;
    for (Shape shape : Shape.values()) {
      for (long budget : new long[] {64 * KB, 1024 * KB}) {
        for (int r = 0; r < 2; r++) {
          cases.add(Arguments.of(shape, budget, seed++));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} budget={1} seed={2}")
  @MethodSource("cases")
  void spilledSortEqualsInMemorySortAndReference(
      Shape shape, long budgetBytes, long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    List<SortKey> keys = SortInputs.keys(shape, random);
    int targetRows = SortInputs.targetRows(shape, random);
    long dataSeed = random.nextLong();
    List<VectorSchemaRoot> input = SortInputs.batches(shape, new Random(dataSeed), allocator);
    List<List<Object>> expected = new ArrayList<>();
    long kept = 0;
    for (VectorSchemaRoot batch : input) {
      expected.addAll(BatchRows.rows(batch));
      kept += BatchTransfer.heldBytes(batch) + SortBuffer.ROW_BYTES * batch.getRowCount();
    }
    expected.sort(reference(keys)); // List.sort is stable: ties keep input order

    MemoryBudget budget = new MemoryBudget("spilling sort test", budgetBytes);
    MemorySpillSpace space = new MemorySpillSpace();
    OperatorContext context = new OperatorContext(allocator, budget, targetRows, space);
    CollectingSink spilled = sort(context, SCHEMA, keys, input);
    assertThat(budget.used()).as("everything released").isZero();
    assertThat(space.liveFiles()).as("every spill file deleted").isZero();
    assertThat(space.openReaders()).isZero();
    if (kept > budgetBytes) {
      assertThat(space.spilledFiles()).as("spill files").isPositive();
      assertThat(space.spilledRows()).isPositive();
      assertThat(space.spilledBytes()).isPositive();
    }
    assertThat(space.maxOpenReaders()).isLessThanOrEqualTo(64);
    assertThat(spilled.rows).as("keys %s", keys).isEqualTo(expected);
    spilled.assertBatchesFilled(targetRows);

    List<VectorSchemaRoot> again = SortInputs.batches(shape, new Random(dataSeed), allocator);
    MemoryBudget unlimited = MemoryBudget.unlimited("in-memory sort");
    CollectingSink inMemory =
        sort(new OperatorContext(allocator, unlimited, targetRows), SCHEMA, keys, again);
    assertThat(spilled.rows).isEqualTo(inMemory.rows);
    assertThat(spilled.batchSizes).isEqualTo(inMemory.batchSizes);
  }

  /** Equal keys in many runs: each key's rows come out in input order (ids ascending). */
  @Test
  void staysStableAcrossRunsAndPasses(BufferAllocator allocator) {
    Schema schema =
        new Schema(
            List.of(
                RandomBatches.field("k1", new ArrowType.Int(32, true)),
                RandomBatches.field("k2", ArrowType.Utf8.INSTANCE),
                RandomBatches.field("id", new ArrowType.Int(64, true))));
    List<List<SortKey>> keyLists =
        List.of(
            List.of(new SortKey(0, true, true), new SortKey(1, false, false)),
            List.of(new SortKey(1, true, false), new SortKey(0, false, true)),
            List.of(new SortKey(0, false, false)));
    for (List<SortKey> keys : keyLists) {
      RandomBatches generator = new RandomBatches(7).distinctValues(4).nullFraction(0.2);
      List<VectorSchemaRoot> input = new ArrayList<>();
      List<List<Object>> expected = new ArrayList<>();
      long id = 0;
      for (int b = 0; b < 120; b++) {
        VectorSchemaRoot batch = generator.batch(schema, 50, allocator);
        List<Object> ids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          ids.add(id++);
        }
        batch = CollectingSink.withColumn(batch, 2, ids, allocator);
        expected.addAll(BatchRows.rows(batch));
        input.add(batch);
      }
      expected.sort(reference(keys));
      MemoryBudget budget = new MemoryBudget("stability", 256 * KB);
      MemorySpillSpace space = new MemorySpillSpace();
      CollectingSink sink =
          sort(new OperatorContext(allocator, budget, 100, space), schema, keys, input);
      assertThat(space.spilledFiles()).isGreaterThan(10);
      assertThat(sink.rows).as("keys %s", keys).isEqualTo(expected);
      assertThat(budget.used()).isZero();
      assertThat(space.liveFiles()).isZero();
    }
  }

  /** Batches that fit: several of them per run, and the rows left in memory join the merge. */
  @Test
  void mergesRunsWithTheRowsStillInMemory(BufferAllocator allocator) {
    RandomBatches generator = new RandomBatches(11);
    List<VectorSchemaRoot> input = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    long batchBytes = 0;
    for (int b = 0; b < 10; b++) {
      VectorSchemaRoot batch = generator.batch(SCHEMA, 1000, allocator);
      batchBytes =
          Math.max(batchBytes, BatchTransfer.heldBytes(batch) + SortBuffer.ROW_BYTES * 1000);
      expected.addAll(BatchRows.rows(batch));
      input.add(batch);
    }
    List<SortKey> keys = List.of(SortKey.desc(9), SortKey.asc(4));
    expected.sort(reference(keys));
    MemoryBudget budget = new MemoryBudget("remainder", batchBytes * 3 + batchBytes / 2);
    MemorySpillSpace space = new MemorySpillSpace();
    CollectingSink sink =
        sort(new OperatorContext(allocator, budget, 777, space), SCHEMA, keys, input);
    assertThat(sink.rows).isEqualTo(expected);
    sink.assertBatchesFilled(777);
    assertThat(space.spilledFiles()).isEqualTo(3);
    assertThat(space.spilledRows()).as("the last batch was merged from memory").isEqualTo(9000);
    assertThat(budget.used()).isZero();
    assertThat(space.liveFiles()).isZero();
  }

  /** More runs than one merge may read at once: merged in passes, at most 64 files open. */
  @Test
  void mergesManyRunsInPasses(BufferAllocator allocator) {
    RandomBatches generator = new RandomBatches(12).nullFraction(0.3);
    List<VectorSchemaRoot> input = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (int b = 0; b < 300; b++) {
      // Each batch holds Arrow's default capacity, far more than the budget: spilled alone.
      VectorSchemaRoot batch = generator.batch(SCHEMA, 1 + b % 3, allocator);
      expected.addAll(BatchRows.rows(batch));
      input.add(batch);
    }
    List<SortKey> keys = List.of(SortKey.asc(3), SortKey.desc(0));
    expected.sort(reference(keys));
    MemoryBudget budget = new MemoryBudget("passes", 16 * KB);
    MemorySpillSpace space = new MemorySpillSpace();
    CollectingSink sink =
        sort(new OperatorContext(allocator, budget, 64, space), SCHEMA, keys, input);
    assertThat(sink.rows).isEqualTo(expected);
    assertThat(space.spilledFiles()).as("300 runs and the runs of a pass").isGreaterThan(300);
    assertThat(space.maxOpenReaders()).isBetween(2, 64);
    assertThat(budget.used()).isZero();
    assertThat(space.liveFiles()).isZero();
  }

  static CollectingSink sort(
      OperatorContext context, Schema schema, List<SortKey> keys, List<VectorSchemaRoot> input) {
    CollectingSink sink = new CollectingSink();
    try (SortOperator sort = new SortOperator(context, schema, keys, sink)) {
      input.forEach(batch -> sort.add(0, batch));
      sort.finish(0);
    }
    return sink;
  }
}
