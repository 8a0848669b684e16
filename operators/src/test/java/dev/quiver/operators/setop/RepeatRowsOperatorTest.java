package dev.quiver.operators.setop;

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
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(ArrowLeakCheck.class)
class RepeatRowsOperatorTest {
  private static final Schema DATA = RandomBatches.ALL_TYPES;
  private static final int TIMES = 2; // the times column goes between data columns 1 and 2
  private static final Field TIMES_FIELD =
      new Field("times", FieldType.nullable(new ArrowType.Int(64, true)), null);
  private static final Schema INPUT = input();

  private static Schema input() {
    List<Field> fields = new ArrayList<>(DATA.getFields());
    fields.add(TIMES, TIMES_FIELD);
    return new Schema(fields);
  }

  /** Records rows, batch sizes and the batch objects themselves; closes every batch. */
  private static final class Recorder implements BatchSink {
    final List<List<Object>> rows = new ArrayList<>();
    final List<Integer> sizes = new ArrayList<>();
    final List<Long> firstColumnAddresses = new ArrayList<>();

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        ValueVectorUtility.validate(batch);
        assertThat(batch.getSchema()).isEqualTo(DATA);
        firstColumnAddresses.add(batch.getVector(0).getDataBufferAddress());
        sizes.add(batch.getRowCount());
        rows.addAll(BatchRows.rows(batch));
      }
    }
  }

  /** Random data rows with {@code times} inserted as column {@link #TIMES}. */
  private static VectorSchemaRoot batch(
      RandomBatches generator, Long[] times, BufferAllocator allocator) {
    VectorSchemaRoot data = generator.batch(DATA, times.length, allocator);
    BigIntVector column = (BigIntVector) TIMES_FIELD.createVector(allocator);
    column.allocateNew(times.length);
    for (int i = 0; i < times.length; i++) {
      if (times[i] == null) {
        column.setNull(i);
      } else {
        column.set(i, times[i]);
      }
    }
    column.setValueCount(times.length);
    List<FieldVector> vectors = new ArrayList<>(data.getFieldVectors());
    vectors.add(TIMES, column);
    return new VectorSchemaRoot(INPUT, vectors, times.length); // owns data's vectors now
  }

  private static OperatorContext context(BufferAllocator allocator, int targetRows) {
    return new OperatorContext(allocator, MemoryBudget.unlimited("repeat test"), targetRows);
  }

  @ParameterizedTest(name = "targetRows={0} seed={1}")
  @CsvSource({"1, 1", "7, 2", "64, 3", "64, 4", "1024, 5"})
  void emitsEachRowItsTimesInOrder(int targetRows, long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    RandomBatches generator = new RandomBatches(seed).nullFraction(0.2);
    List<List<Object>> expected = new ArrayList<>();
    Recorder sink = new Recorder();
    try (RepeatRowsOperator repeat =
        new RepeatRowsOperator(context(allocator, targetRows), INPUT, TIMES, sink)) {
      for (int b = 0; b < 10; b++) {
        int rows = random.nextInt(5) == 0 ? 0 : random.nextInt(200);
        Long[] times = new Long[rows];
        for (int i = 0; i < rows; i++) {
          int kind = random.nextInt(10);
          times[i] =
              switch (kind) {
                case 0 -> null;
                case 1 -> -1L;
                case 2 -> 0L;
                case 3 -> // now and then more copies than fit one output batch
                    random.nextInt(4) == 0 ? (long) random.nextInt(3 * targetRows + 1) : 3L;
                default -> (long) kind - 3;
              };
        }
        VectorSchemaRoot batch = batch(generator, times, allocator);
        List<List<Object>> rowsOf = BatchRows.rows(batch);
        for (int i = 0; i < rows; i++) {
          List<Object> data = new ArrayList<>(rowsOf.get(i));
          data.remove(TIMES);
          for (long c = 0; times[i] != null && c < times[i]; c++) {
            expected.add(data);
          }
        }
        repeat.add(0, batch);
      }
      repeat.finish(0);
    }
    assertThat(sink.rows).isEqualTo(expected);
    assertThat(sink.sizes).allSatisfy(size -> assertThat(size).isBetween(1, targetRows));
    int half = Math.max(1, targetRows / 2);
    long small =
        sink.sizes.subList(0, Math.max(0, sink.sizes.size() - 1)).stream()
            .filter(size -> size < half)
            .count();
    assertThat(small).as("small outputs are coalesced").isZero();
  }

  @Test
  void aBatchOfRowsKeptOnceGoesOnWithoutACopy(BufferAllocator allocator) {
    Recorder sink = new Recorder();
    RandomBatches generator = new RandomBatches(7);
    try (RepeatRowsOperator repeat =
        new RepeatRowsOperator(context(allocator, 10), INPUT, TIMES, sink)) {
      VectorSchemaRoot batch = batch(generator, new Long[] {1L, 1L, 1L, 1L, 1L, 1L}, allocator);
      long address = batch.getVector(0).getDataBufferAddress();
      repeat.add(0, batch);
      repeat.add(0, batch(generator, new Long[] {1L, 2L, 1L}, allocator)); // 4 rows: pending
      repeat.finish(0);
      assertThat(sink.firstColumnAddresses.get(0)).isEqualTo(address);
    }
    assertThat(sink.sizes).containsExactly(6, 4);
  }

  @Test
  void oneRowRepeatedBeyondABatchIsSpreadOverFullBatches(BufferAllocator allocator) {
    Recorder sink = new Recorder();
    try (RepeatRowsOperator repeat =
        new RepeatRowsOperator(context(allocator, 1000), INPUT, TIMES, sink)) {
      repeat.add(0, batch(new RandomBatches(8), new Long[] {0L, 4500L, null}, allocator));
      repeat.finish(0);
    }
    assertThat(sink.sizes).containsExactly(1000, 1000, 1000, 1000, 500);
    assertThat(sink.rows).containsOnly(sink.rows.get(0));
  }

  @Test
  void describesItselfAndRejectsMisuse(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    assertThat(new RepeatRowsOperator(context, INPUT, TIMES, b -> {}))
        .hasToString("RepeatRows[times=#2]");
    assertThatThrownBy(() -> new RepeatRowsOperator(context, INPUT, 0, b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not BIGINT");
    assertThatThrownBy(
            () -> new RepeatRowsOperator(context, INPUT, INPUT.getFields().size(), b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
    RepeatRowsOperator repeat =
        new RepeatRowsOperator(context, INPUT, TIMES, VectorSchemaRoot::close);
    RandomBatches generator = new RandomBatches(9);
    assertThatThrownBy(() -> repeat.add(1, batch(generator, new Long[] {1L}, allocator)))
        .isInstanceOf(IllegalArgumentException.class);
    repeat.finish(0);
    assertThatThrownBy(() -> repeat.add(0, batch(generator, new Long[] {1L}, allocator)))
        .isInstanceOf(IllegalStateException.class);
    repeat.close();
  }
}
