package dev.quiver.operators.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
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
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(ArrowLeakCheck.class)
class LimitOperatorTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  /** Records rows, batch sizes and the batch objects themselves; closes every batch. */
  private static final class Recorder implements BatchSink {
    final List<List<Object>> rows = new ArrayList<>();
    final List<Integer> sizes = new ArrayList<>();
    final List<VectorSchemaRoot> seen = new ArrayList<>();

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        ValueVectorUtility.validate(batch);
        seen.add(batch);
        sizes.add(batch.getRowCount());
        rows.addAll(BatchRows.rows(batch));
      }
    }
  }

  static Stream<Arguments> cases() {
    long all = LimitOperator.ALL;
    long[][] windows = {
      {0, all}, {0, 0}, {0, 1}, {3, 10}, {0, 250}, {100, 1}, {999, all}, {5000, 10}, {17, 333}
    };
    List<Arguments> cases = new ArrayList<>();
    long seed = 900;
    for (long[] window : windows) {
      for (int targetRows : new int[] {1, 64, 8192}) {
        cases.add(Arguments.of(window[0], window[1], targetRows, seed++));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "offset={0} fetch={1} targetRows={2} seed={3}")
  @MethodSource("cases")
  void passesOnTheWindowOfTheConcatenation(
      long offset, long fetch, int targetRows, long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    RandomBatches generator = new RandomBatches(seed).nullFraction(0.2);
    List<List<Object>> all = new ArrayList<>();
    Recorder sink = new Recorder();
    try (LimitOperator limit =
        new LimitOperator(
            new OperatorContext(allocator, budget(), targetRows), offset, fetch, sink)) {
      for (int b = 0; b < 12; b++) {
        int rows = random.nextInt(5) == 0 ? 0 : random.nextInt(random.nextBoolean() ? 10 : 300);
        VectorSchemaRoot batch = generator.batch(SCHEMA, rows, allocator);
        all.addAll(BatchRows.rows(batch));
        boolean finishedBefore = limit.isFinished();
        limit.add(0, batch);
        if (finishedBefore) {
          assertThat(sink.rows).as("nothing after the fetch is done").hasSize((int) fetch);
        }
      }
      limit.finish(0);
      assertThat(limit.isFinished()).isTrue();
    }
    int from = (int) Math.min(offset, all.size());
    int to = (int) Math.min(all.size(), from + Math.min(fetch, all.size()));
    assertThat(sink.rows).isEqualTo(all.subList(from, to));
    assertThat(sink.sizes).allSatisfy(size -> assertThat(size).isBetween(1, targetRows));
  }

  private static MemoryBudget budget() {
    return MemoryBudget.unlimited("limit test");
  }

  @Test
  void passesWholeBatchesOnAsTheyAreAndSlicesWithoutCopying(BufferAllocator allocator) {
    Recorder sink = new Recorder();
    RandomBatches generator = new RandomBatches(1);
    try (LimitOperator limit = new LimitOperator(OperatorContext.of(allocator), 8, 100, sink)) {
      VectorSchemaRoot first = generator.batch(SCHEMA, 40, allocator);
      long before = allocator.getAllocatedMemory();
      limit.add(0, first); // rows 8..39 go on as a slice sharing the buffers
      assertThat(allocator.getAllocatedMemory()).isLessThanOrEqualTo(before);
      VectorSchemaRoot second = generator.batch(SCHEMA, 50, allocator);
      limit.add(0, second);
      assertThat(sink.seen.get(1)).as("inside the window: passed on as is").isSameAs(second);
      assertThat(limit.isFinished()).isFalse();
      limit.add(0, generator.batch(SCHEMA, 50, allocator)); // 18 rows fill the fetch
      assertThat(limit.isFinished()).isTrue();
      limit.add(0, generator.batch(SCHEMA, 50, allocator)); // closed: the caller may stop
    }
    assertThat(sink.sizes).containsExactly(32, 50, 18);
  }

  @Test
  void fetchZeroIsFinishedAtOnce(BufferAllocator allocator) {
    Recorder sink = new Recorder();
    try (LimitOperator limit = new LimitOperator(OperatorContext.of(allocator), 0, 0, sink)) {
      assertThat(limit.isFinished()).isTrue();
      limit.add(0, new RandomBatches(2).batch(SCHEMA, 10, allocator));
      limit.finish(0);
    }
    assertThat(sink.rows).isEmpty();
  }

  @Test
  void describesItselfAndRejectsMisuse(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    assertThat(new LimitOperator(context, 10, 5, b -> {})).hasToString("Limit[offset=10, fetch=5]");
    assertThat(new LimitOperator(context, 0, LimitOperator.ALL, b -> {}))
        .hasToString("Limit[offset=0, fetch=ALL]");
    assertThatThrownBy(() -> new LimitOperator(context, -1, 5, b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
    LimitOperator limit = new LimitOperator(context, 0, 5, VectorSchemaRoot::close);
    RandomBatches generator = new RandomBatches(3);
    assertThatThrownBy(() -> limit.add(1, generator.batch(SCHEMA, 3, allocator)))
        .isInstanceOf(IllegalArgumentException.class);
    limit.finish(0);
    assertThat(limit.isFinished()).isTrue();
    assertThatThrownBy(() -> limit.add(0, generator.batch(SCHEMA, 3, allocator)))
        .isInstanceOf(IllegalStateException.class);
    limit.close();
    limit.close();
  }
}
