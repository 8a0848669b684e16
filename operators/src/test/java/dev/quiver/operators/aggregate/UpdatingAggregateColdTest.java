package dev.quiver.operators.aggregate;

import static dev.quiver.operators.aggregate.AggregateTesting.SCHEMA;
import static dev.quiver.operators.aggregate.UpdatingAggregateOperatorTest.CALLS;
import static dev.quiver.operators.aggregate.UpdatingAggregateOperatorTest.EXTREMES;
import static dev.quiver.operators.aggregate.UpdatingAggregateOperatorTest.apply;
import static dev.quiver.plan.aggregate.AggregateFunction.APPROX_COUNT_DISTINCT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.operators.spill.MemorySpillSpace;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.changelog.RowKind;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An updating aggregate whose groups do not fit in its budget moves them to the task's spill store
 * ({@link ColdGroups}) and reads them back by key: its changelog stays the changelog of an
 * aggregate with every group in memory (a group that comes back is updated, never inserted again),
 * and its snapshots hold the cold groups too.
 */
@ExtendWith(ArrowLeakCheck.class)
class UpdatingAggregateColdTest {
  private static final int[][] KEY_SETS = {{3, 9}, {9, 4}, {7}, {11, 1}};
  private static final long BUDGET = 256 * 1024;

  /** {@link UpdatingAggregateOperatorTest#CALLS} but the sketch (kilobytes per group). */
  private static final List<AggregateCall> WITHOUT_SKETCH =
      CALLS.stream().filter(call -> call.function() != APPROX_COUNT_DISTINCT).toList();

  /** Budgets far below the groups: the applied changelog is still the hash aggregate. */
  @Test
  void groupsThatLeftMemoryComeBackAsUpdates(BufferAllocator allocator) {
    long seed = 70;
    for (int[] keys : KEY_SETS) {
      List<AggregateCall> calls = seed % 2 == 0 ? WITHOUT_SKETCH : EXTREMES;
      MemorySpillSpace space = new MemorySpillSpace();
      MemoryBudget budget = new MemoryBudget("cold test", BUDGET);
      UpdatingAggregateOperatorTest.Changelog out =
          new UpdatingAggregateOperatorTest.Changelog(1024);
      long stored = 0;
      try (UpdatingAggregateOperator operator =
          single(allocator, budget, space, keys, calls, out)) {
        for (VectorSchemaRoot batch : input(allocator, seed, keys)) {
          operator.add(0, batch);
          operator.flush();
          stored = Math.max(stored, space.storedEntries());
        }
        operator.finish(0);
      }
      assertThat(stored).as("groups in the store, keys %s", keys).isGreaterThan(1000);
      assertThat(space.liveStores()).isZero();
      assertThat(budget.used()).isZero();
      Map<List<Object>, List<Object>> expected =
          UpdatingAggregateOperatorTest.hashAggregate(
              allocator, keys, calls, input(allocator, seed, keys));
      Map<List<Object>, List<Object>> result = apply(out.rows, keys.length);
      AggregateTesting.assertResults(result, expected, 1e-9);
      long inserts =
          out.rows.stream()
              .filter(row -> (Byte) row.get(row.size() - 1) == RowKind.INSERT.code())
              .count();
      assertThat(inserts).as("one +I per group").isEqualTo(expected.size());
      seed++;
    }
  }

  /**
   * A snapshot taken while most groups are cold restores into a task with the same small budget;
   * the rest of the input then ends at the same result as one run without a restore.
   */
  @Test
  void aSnapshotHoldsTheColdGroups(BufferAllocator allocator) {
    int[] keys = {3, 9};
    List<AggregateCall> calls = WITHOUT_SKETCH;
    List<VectorSchemaRoot> first = input(allocator, 90, keys);
    List<VectorSchemaRoot> second = input(allocator, 91, keys);
    UpdatingAggregateOperatorTest.Changelog out = new UpdatingAggregateOperatorTest.Changelog(1024);
    byte[] state;
    MemorySpillSpace space = new MemorySpillSpace();
    MemoryBudget budget = new MemoryBudget("cold test", BUDGET);
    try (UpdatingAggregateOperator operator = single(allocator, budget, space, keys, calls, out)) {
      first.forEach(batch -> operator.add(0, batch));
      operator.flush();
      assertThat(space.storedEntries()).isGreaterThan(1000);
      state = operator.snapshotState();
    }
    MemorySpillSpace restoredSpace = new MemorySpillSpace();
    MemoryBudget restoredBudget = new MemoryBudget("cold test, restored", BUDGET);
    try (UpdatingAggregateOperator operator =
        single(allocator, restoredBudget, restoredSpace, keys, calls, out)) {
      operator.restoreState(state);
      assertThat(restoredSpace.storedEntries())
          .as("a restore larger than the budget puts groups in the store")
          .isPositive();
      second.forEach(batch -> operator.add(0, batch));
      operator.finish(0);
    }
    assertThat(restoredSpace.liveStores()).isZero();
    assertThat(restoredBudget.used()).isZero();
    List<VectorSchemaRoot> all = input(allocator, 90, keys);
    all.addAll(input(allocator, 91, keys));
    Map<List<Object>, List<Object>> expected =
        UpdatingAggregateOperatorTest.hashAggregate(allocator, keys, calls, all);
    AggregateTesting.assertResults(apply(out.rows, keys.length), expected, 1e-9);
  }

  /**
   * A snapshot of a store far larger than the budget streams: the operator hands its stream many
   * small writes, none larger than {@link #WRITE_BOUND} (so the snapshot path holds a bounded piece
   * of the state at a time, not a byte array of all of it), while the snapshot is many times that
   * bound; the restore puts the cold groups back in the new task's store, not in memory, and the
   * restored operator ends at the answer of one run without a restore.
   */
  @Test
  void aColdSnapshotStreamsThroughABoundedBuffer(BufferAllocator allocator) throws IOException {
    int[] keys = {3, 9};
    List<AggregateCall> calls = WITHOUT_SKETCH;
    List<VectorSchemaRoot> first =
        HashAggregateOperatorTest.batches(allocator, 95, keys, 60, 1000, 0.01, 2000);
    List<VectorSchemaRoot> second = input(allocator, 96, keys);
    UpdatingAggregateOperatorTest.Changelog out = new UpdatingAggregateOperatorTest.Changelog(1024);
    MemorySpillSpace space = new MemorySpillSpace();
    MemoryBudget budget = new MemoryBudget("cold test", BUDGET);
    CountingOutputStream counted = new CountingOutputStream();
    long cold;
    try (UpdatingAggregateOperator operator = single(allocator, budget, space, keys, calls, out)) {
      first.forEach(batch -> operator.add(0, batch));
      operator.flush();
      cold = space.storedEntries();
      assertThat(cold).isGreaterThan(40_000);
      operator.snapshotState(counted);
    }
    assertThat(counted.total)
        .as("the snapshot is many times the largest write")
        .isGreaterThan(8L * WRITE_BOUND);
    assertThat(counted.largest).as("the largest single write").isLessThanOrEqualTo(WRITE_BOUND);
    assertThat(counted.writes).isGreaterThan(100);
    MemorySpillSpace restoredSpace = new MemorySpillSpace();
    MemoryBudget restoredBudget = new MemoryBudget("cold test, restored", BUDGET);
    try (UpdatingAggregateOperator operator =
        single(allocator, restoredBudget, restoredSpace, keys, calls, out)) {
      operator.restoreState(new ByteArrayInputStream(counted.bytes.toByteArray()));
      assertThat(restoredSpace.storedEntries())
          .as("the cold groups come back cold")
          .isGreaterThanOrEqualTo(cold);
      assertThat(restoredBudget.used()).isLessThanOrEqualTo(BUDGET);
      assertThat(restoredSpace.largestPut())
          .as("the entries go back a bounded chunk at a time")
          .isLessThanOrEqualTo(1024);
      assertThat(restoredSpace.puts()).isGreaterThanOrEqualTo(cold / 1024);
      second.forEach(batch -> operator.add(0, batch));
      operator.finish(0);
    }
    assertThat(restoredSpace.liveStores()).isZero();
    assertThat(restoredBudget.used()).isZero();
    List<VectorSchemaRoot> all =
        HashAggregateOperatorTest.batches(allocator, 95, keys, 60, 1000, 0.01, 2000);
    all.addAll(input(allocator, 96, keys));
    Map<List<Object>, List<Object>> expected =
        UpdatingAggregateOperatorTest.hashAggregate(allocator, keys, calls, all);
    AggregateTesting.assertResults(apply(out.rows, keys.length), expected, 1e-9);
  }

  private static final int WRITE_BOUND = 1 << 20;

  /** Counts the writes it is handed and keeps the bytes. */
  private static final class CountingOutputStream extends OutputStream {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long total;
    long writes;
    int largest;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      bytes.write(b, off, len);
      total += len;
      writes++;
      largest = Math.max(largest, len);
    }
  }

  /** A SINGLE aggregate with target batches of 1,024 rows, {@code budget} and {@code space}. */
  private static UpdatingAggregateOperator single(
      BufferAllocator allocator,
      MemoryBudget budget,
      MemorySpillSpace space,
      int[] keys,
      List<AggregateCall> calls,
      BatchSink out) {
    return new UpdatingAggregateOperator(
        new OperatorContext(allocator, budget, 1024, space),
        SCHEMA,
        AggregateMode.SINGLE,
        keys,
        calls,
        out);
  }

  /**
   * Twenty batches of 1,000 rows over a few thousand groups: every batch brings back cold groups.
   */
  private static List<VectorSchemaRoot> input(BufferAllocator allocator, long seed, int[] keys) {
    int distinct = keys.length == 1 ? 3000 : 60; // per key column
    return HashAggregateOperatorTest.batches(allocator, seed, keys, 20, 1000, 0.05, distinct);
  }
}
