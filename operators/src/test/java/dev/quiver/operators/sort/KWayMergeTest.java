package dev.quiver.operators.sort;

import static dev.quiver.operators.sort.SortTesting.reference;
import static dev.quiver.operators.sort.SortTesting.select;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(ArrowLeakCheck.class)
class KWayMergeTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;
  private static final int I64 = 4;
  private static final Field KEY = RandomBatches.field("k", new ArrowType.Int(64, true));

  /** How the batches of the inputs are sized. */
  enum Shape {
    MIXED, // random sizes, some inputs without any batch, some empty batches
    ONE_ROW, // every batch has one row
    MANY_SMALL, // dozens of batches of 0 to 5 rows
    SKEWED, // input i holds only keys of range i: whole inputs are runs
    FEW_DISTINCT // few distinct values: keys tie across inputs, later keys decide
  }

  /** In which order the batches and finish calls of the inputs arrive. */
  enum Schedule {
    SEQUENTIAL, // all of input 0 and its finish, then input 1, ...
    ROUND_ROBIN, // one batch of every input in turn; finish when an input runs out
    RANDOM, // a random input adds its next batch or finishes
    FINISH_LAST // everything round robin, then all finish calls in reverse order
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    long seed = 1;
    for (int inputs : new int[] {1, 2, 4, 7}) {
      for (Shape shape : Shape.values()) {
        for (Schedule schedule : Schedule.values()) {
          cases.add(Arguments.of(inputs, shape, schedule, seed++));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "inputs={0} {1} {2} seed={3}")
  @MethodSource("cases")
  void mergesLikeStableSortOfAllRows(
      int inputCount, Shape shape, Schedule schedule, long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    List<SortKey> keys = randomKeys(shape, random);
    Comparator<List<Object>> order = reference(keys);
    int targetRows = new int[] {1, 7, 64, OperatorContext.DEFAULT_BATCH_ROWS}[random.nextInt(4)];
    List<List<VectorSchemaRoot>> inputs = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (int input = 0; input < inputCount; input++) {
      inputs.add(sortedInput(input, shape, order, random, allocator, expected));
    }
    // Stable: equal keys keep the order of the concatenation, i.e. by input, then within it.
    expected.sort(order);

    List<List<Object>> actual = new ArrayList<>();
    List<Integer> batchSizes = new ArrayList<>();
    BatchSink sink =
        batch -> {
          try (batch) {
            SortTesting.validate(batch);
            batchSizes.add(batch.getRowCount());
            actual.addAll(BatchRows.rows(batch));
          }
        };
    try (KWayMerge merge =
        new KWayMerge(context(allocator, targetRows), SCHEMA, keys, inputCount, sink)) {
      feed(merge, inputs, schedule, random);
      assertThat(merge.isDone()).isTrue();
    }
    assertThat(actual).hasSameSizeAs(expected);
    assertThat(actual).as("keys %s", keys).isEqualTo(expected);
    for (int b = 0; b < batchSizes.size(); b++) {
      assertThat(batchSizes.get(b)).isPositive().isLessThanOrEqualTo(targetRows);
      if (b < batchSizes.size() - 1) {
        assertThat(batchSizes.get(b)).isEqualTo(targetRows);
      }
    }
  }

  private static OperatorContext context(BufferAllocator allocator, int targetRows) {
    return new OperatorContext(allocator, MemoryBudget.unlimited("merge test"), targetRows);
  }

  private static List<SortKey> randomKeys(Shape shape, Random random) {
    List<SortKey> keys = new ArrayList<>();
    if (shape == Shape.SKEWED) {
      keys.add(new SortKey(I64, random.nextBoolean(), random.nextBoolean()));
    }
    for (int k = random.nextInt(3); k >= 0; k--) {
      keys.add(
          new SortKey(
              random.nextInt(SCHEMA.getFields().size()),
              random.nextBoolean(),
              random.nextBoolean()));
    }
    return keys;
  }

  /** The batches of one input, sorted by {@code order}; appends its rows to {@code all}. */
  private static List<VectorSchemaRoot> sortedInput(
      int input,
      Shape shape,
      Comparator<List<Object>> order,
      Random random,
      BufferAllocator allocator,
      List<List<Object>> all) {
    List<Integer> sizes = new ArrayList<>();
    switch (shape) {
      case ONE_ROW -> IntStream.range(0, random.nextInt(40)).forEach(i -> sizes.add(1));
      case MANY_SMALL ->
          IntStream.range(0, 20 + random.nextInt(40)).forEach(i -> sizes.add(random.nextInt(6)));
      default -> {
        if (random.nextInt(4) != 0) { // some inputs send no batch at all
          IntStream.range(0, random.nextInt(6))
              .forEach(i -> sizes.add(random.nextInt(5) == 0 ? 0 : random.nextInt(300)));
        }
      }
    }
    int rows = sizes.stream().mapToInt(Integer::intValue).sum();
    RandomBatches generator = new RandomBatches(random.nextLong()).nullFraction(0.15);
    if (shape == Shape.FEW_DISTINCT) {
      generator.distinctValues(3);
    }
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try (VectorSchemaRoot source = generator.batch(SCHEMA, rows, allocator)) {
      if (shape == Shape.SKEWED) {
        BigIntVector keys = (BigIntVector) source.getVector(I64);
        for (int row = 0; row < rows; row++) {
          keys.set(row, input * 1_000_000L + random.nextInt(1_000_000));
        }
      }
      List<List<Object>> sourceRows = BatchRows.rows(source);
      List<Integer> sorted = new ArrayList<>(IntStream.range(0, rows).boxed().toList());
      sorted.sort((a, b) -> order.compare(sourceRows.get(a), sourceRows.get(b)));
      int start = 0;
      for (int size : sizes) {
        List<Integer> slice = sorted.subList(start, start + size);
        batches.add(select(source, slice, allocator));
        slice.forEach(row -> all.add(sourceRows.get(row)));
        start += size;
      }
    }
    return batches;
  }

  private static void feed(
      KWayMerge merge, List<List<VectorSchemaRoot>> inputs, Schedule schedule, Random random) {
    int count = inputs.size();
    int[] next = new int[count];
    boolean[] finished = new boolean[count];
    switch (schedule) {
      case SEQUENTIAL -> {
        for (int input = 0; input < count; input++) {
          for (VectorSchemaRoot batch : inputs.get(input)) {
            merge.add(input, batch);
          }
          merge.finish(input);
        }
      }
      case ROUND_ROBIN, FINISH_LAST -> {
        int remaining = count;
        while (remaining > 0) {
          for (int input = 0; input < count; input++) {
            if (finished[input]) {
              continue;
            }
            if (next[input] < inputs.get(input).size()) {
              merge.add(input, inputs.get(input).get(next[input]++));
            } else {
              finished[input] = true;
              remaining--;
              if (schedule == Schedule.ROUND_ROBIN) {
                merge.finish(input);
              }
            }
          }
        }
        if (schedule == Schedule.FINISH_LAST) {
          for (int input = count - 1; input >= 0; input--) {
            merge.finish(input);
          }
        }
      }
      case RANDOM -> {
        int remaining = count;
        while (remaining > 0) {
          int input = random.nextInt(count);
          if (finished[input]) {
            continue;
          }
          if (next[input] < inputs.get(input).size()) {
            merge.add(input, inputs.get(input).get(next[input]++));
          } else {
            finished[input] = true;
            remaining--;
            merge.finish(input);
          }
        }
      }
    }
  }
}
