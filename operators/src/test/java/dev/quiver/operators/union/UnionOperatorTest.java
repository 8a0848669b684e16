package dev.quiver.operators.union;

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
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@ExtendWith(ArrowLeakCheck.class)
class UnionOperatorTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  /** Records rows, sizes, schemas and batch objects; closes every batch. */
  private static final class Recorder implements BatchSink {
    final List<List<Object>> rows = new ArrayList<>();
    final List<Integer> sizes = new ArrayList<>();
    final List<VectorSchemaRoot> seen = new ArrayList<>();
    final List<Schema> schemas = new ArrayList<>();

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        seen.add(batch);
        sizes.add(batch.getRowCount());
        schemas.add(batch.getSchema());
        rows.addAll(BatchRows.rows(batch));
      }
    }
  }

  /** ALL_TYPES under other names, non-null: input 2 of the tests. */
  private static Schema renamed() {
    List<Field> fields = new ArrayList<>();
    for (Field field : SCHEMA.getFields()) {
      fields.add(
          new Field("other_" + field.getName(), FieldType.notNullable(field.getType()), null));
    }
    return new Schema(fields);
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void passesEveryBatchOnInArrivalOrderUnderItsSchema(long seed, BufferAllocator allocator) {
    Random random = new Random(seed);
    int targetRows = new int[] {1, 100, 8192}[random.nextInt(3)];
    Recorder sink = new Recorder();
    List<List<Object>> expected = new ArrayList<>();
    Schema[] schemas = {SCHEMA, SCHEMA, renamed()};
    RandomBatches generator = new RandomBatches(seed).nullFraction(0.1);
    try (UnionOperator union =
        new UnionOperator(
            new OperatorContext(allocator, MemoryBudget.unlimited("union"), targetRows),
            SCHEMA,
            3,
            sink)) {
      int[] left = {random.nextInt(6), random.nextInt(6), random.nextInt(6)};
      List<Integer> open = new ArrayList<>(List.of(0, 1, 2));
      while (!open.isEmpty()) {
        int input = open.get(random.nextInt(open.size()));
        if (left[input]-- == 0) {
          union.finish(input);
          open.remove(Integer.valueOf(input));
          continue;
        }
        int rows = random.nextInt(4) == 0 ? 0 : random.nextInt(400);
        RandomBatches batches =
            input == 2 ? new RandomBatches(seed + 99).nullFraction(0) : generator;
        VectorSchemaRoot batch = batches.batch(schemas[input], rows, allocator);
        expected.addAll(BatchRows.rows(batch));
        union.add(input, batch);
      }
      assertThat(union.isFinished()).isTrue();
    }
    assertThat(sink.rows).isEqualTo(expected);
    assertThat(sink.sizes).allSatisfy(size -> assertThat(size).isBetween(1, targetRows));
    assertThat(sink.schemas).allSatisfy(schema -> assertThat(schema).isEqualTo(SCHEMA));
  }

  @Test
  void passesMatchingBatchesOnAsTheyAre(BufferAllocator allocator) {
    Recorder sink = new Recorder();
    try (UnionOperator union = new UnionOperator(OperatorContext.of(allocator), SCHEMA, 2, sink)) {
      assertThat(union).hasToString("Union[inputs=2]");
      VectorSchemaRoot batch = new RandomBatches(1).batch(SCHEMA, 10, allocator);
      union.add(1, batch);
      assertThat(sink.seen).containsExactly(batch);
      assertThat(union.isFinished()).isFalse();
    }
    assertThat(new UnionOperator(OperatorContext.of(allocator), SCHEMA, 3, b -> {}))
        .hasToString("Union[inputs=3]");
  }

  @Test
  void rejectsMisuseAndStillClosesTheBatch(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    assertThatThrownBy(() -> new UnionOperator(context, SCHEMA, 0, b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
    UnionOperator union = new UnionOperator(context, SCHEMA, 2, VectorSchemaRoot::close);
    RandomBatches generator = new RandomBatches(2);
    assertThatThrownBy(() -> union.add(2, generator.batch(SCHEMA, 3, allocator)))
        .isInstanceOf(IllegalArgumentException.class);
    Schema other = new Schema(List.of(RandomBatches.field("x", ArrowType.Utf8.INSTANCE)));
    assertThatThrownBy(() -> union.add(0, generator.batch(other, 3, allocator)))
        .isInstanceOf(IllegalArgumentException.class);
    union.finish(0);
    assertThatThrownBy(() -> union.add(0, generator.batch(SCHEMA, 3, allocator)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> union.finish(0)).isInstanceOf(IllegalStateException.class);
    union.finish(1);
    assertThat(union.isFinished()).isTrue();
    union.close();
    assertThatThrownBy(() -> union.add(1, generator.batch(SCHEMA, 3, allocator)))
        .isInstanceOf(IllegalStateException.class);
  }
}
