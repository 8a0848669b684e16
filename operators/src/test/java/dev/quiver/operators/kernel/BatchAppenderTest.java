package dev.quiver.operators.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
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
class BatchAppenderTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  @ParameterizedTest(name = "seed={0} nullFraction={1} expectedRows={2}")
  @CsvSource({"1, 0.2, 0", "2, 0.2, 100", "3, 0, 0", "4, 1.0, 0", "5, 0.5, 1", "6, 0.05, 8192"})
  void randomRangesOfAllTypesMatchTheSourceRows(
      long seed, double nullFraction, int expectedRows, BufferAllocator allocator)
      throws Exception {
    Random random = new Random(seed);
    RandomBatches generator =
        new RandomBatches(seed).nullFraction(nullFraction).maxStringLength(40);
    List<VectorSchemaRoot> sources = new ArrayList<>();
    try (BatchAppender appender = new BatchAppender(SCHEMA, allocator, expectedRows)) {
      for (int s = 0; s < 6; s++) {
        sources.add(generator.batch(SCHEMA, s == 0 ? 0 : random.nextInt(300), allocator));
      }
      List<List<List<Object>>> sourceRows = sources.stream().map(BatchRows::rows).toList();
      List<List<Object>> expected = new ArrayList<>();
      for (int step = 0; step < 300; step++) {
        int s = random.nextInt(sources.size());
        int rows = sources.get(s).getRowCount();
        int from = random.nextInt(rows + 1);
        // Mostly short ranges (odd bit offsets everywhere), sometimes long or empty ones.
        int count =
            Math.min(rows - from, random.nextInt(4) == 0 ? random.nextInt(300) : random.nextInt(9));
        appender.append(sources.get(s), from, count);
        expected.addAll(sourceRows.get(s).subList(from, from + count));
        assertThat(appender.rowCount()).isEqualTo(expected.size());
        if (random.nextInt(40) == 0) {
          assertBuilds(appender, expected);
          expected.clear();
        }
      }
      assertBuilds(appender, expected);
      // Leave rows unbuilt: close() frees them (the leak check verifies).
      appender.append(sources.get(1), 0, sources.get(1).getRowCount());
    } finally {
      AutoCloseables.close(sources);
    }
  }

  @Test
  void copiesBitsAtEveryAlignment(BufferAllocator allocator) {
    Schema schema =
        new Schema(List.of(SCHEMA.getFields().get(0), SCHEMA.getFields().get(3))); // bool, i32
    try (VectorSchemaRoot source =
            new RandomBatches(7).nullFraction(0.4).batch(schema, 400, allocator);
        BatchAppender appender = new BatchAppender(schema, allocator)) {
      List<List<Object>> rows = BatchRows.rows(source);
      for (int head = 0; head < 8; head++) {
        for (int shift = 0; shift < 8; shift++) {
          for (int count : new int[] {1, 7, 8, 9, 63, 64, 65, 127, 130, 200, 391}) {
            appender.append(source, 3, head);
            appender.append(source, shift, count);
            List<List<Object>> expected = new ArrayList<>(rows.subList(3, 3 + head));
            expected.addAll(rows.subList(shift, shift + count));
            assertBuilds(appender, expected);
          }
        }
      }
    }
  }

  @Test
  void veryLongAndEmptyStrings(BufferAllocator allocator) {
    Field field = RandomBatches.field("s", ArrowType.Utf8.INSTANCE);
    Schema schema = new Schema(List.of(field));
    Random random = new Random(11);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      StringBuilder text = new StringBuilder();
      int length = i % 3 == 0 ? 100_000 : random.nextInt(5);
      for (int c = 0; c < length; c++) {
        text.append(random.nextInt(10) == 0 ? 'ж' : (char) ('a' + random.nextInt(26)));
      }
      values.add(i == 5 ? null : text.toString());
    }
    try (VectorSchemaRoot source = strings(field, values, allocator);
        VectorSchemaRoot empty = strings(field, List.of("", "", ""), allocator);
        BatchAppender appender = new BatchAppender(schema, allocator)) {
      List<List<Object>> rows = BatchRows.rows(source);
      List<List<Object>> expected = new ArrayList<>();
      for (int from : new int[] {3, 0, 7, 11, 1}) {
        int count = Math.min(values.size() - from, 5);
        appender.append(source, from, count);
        expected.addAll(rows.subList(from, from + count));
      }
      assertBuilds(appender, expected);
      appender.append(empty, 0, 3);
      assertBuilds(appender, BatchRows.rows(empty));
    }
  }

  @Test
  void zeroColumnSchemaCountsRows(BufferAllocator allocator) {
    Schema schema = new Schema(List.of());
    try (VectorSchemaRoot source = new VectorSchemaRoot(schema, List.of(), 10);
        BatchAppender appender = new BatchAppender(schema, allocator)) {
      appender.append(source, 2, 5);
      appender.append(source, 10, 0);
      appender.append(source, 9, 1);
      try (VectorSchemaRoot built = appender.build()) {
        assertThat(built.getRowCount()).isEqualTo(6);
        assertThat(built.getFieldVectors()).isEmpty();
      }
      assertThat(appender.rowCount()).isZero();
    }
  }

  @Test
  void buildsAnEmptyBatchWhenNothingWasAppended(BufferAllocator allocator) {
    try (BatchAppender appender = new BatchAppender(SCHEMA, allocator);
        VectorSchemaRoot built = appender.build()) {
      assertThat(built.getRowCount()).isZero();
      assertThat(built.getSchema()).isEqualTo(SCHEMA);
    }
  }

  @Test
  void rejectsBadRangesSchemasAndUseAfterClose(BufferAllocator allocator) {
    try (VectorSchemaRoot source = new RandomBatches(3).batch(SCHEMA, 10, allocator)) {
      BatchAppender appender = new BatchAppender(SCHEMA, allocator);
      assertThatThrownBy(() -> appender.append(source, 5, 6))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> appender.append(source, -1, 1))
          .isInstanceOf(IllegalArgumentException.class);
      Schema other = new Schema(SCHEMA.getFields().subList(1, SCHEMA.getFields().size()));
      try (BatchAppender wrong = new BatchAppender(other, allocator)) {
        assertThatThrownBy(() -> wrong.append(source, 0, 1))
            .isInstanceOf(IllegalArgumentException.class);
      }
      appender.close();
      assertThatThrownBy(() -> appender.append(source, 0, 1))
          .isInstanceOf(IllegalStateException.class);
    }
    Field list =
        new Field(
            "l",
            FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(RandomBatches.field("item", new ArrowType.Int(32, true))));
    assertThatThrownBy(() -> new BatchAppender(new Schema(List.of(list)), allocator))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Builds, validates and compares the batch with {@code expected}, then releases it. */
  private static void assertBuilds(BatchAppender appender, List<List<Object>> expected) {
    try (VectorSchemaRoot built = appender.build()) {
      validate(built);
      assertThat(built.getRowCount()).isEqualTo(expected.size());
      assertThat(BatchRows.rows(built)).isEqualTo(expected);
      for (int c = 0; c < built.getFieldVectors().size(); c++) {
        FieldVector vector = built.getVector(c);
        int column = c;
        long nulls = expected.stream().filter(row -> row.get(column) == null).count();
        assertThat(vector.getNullCount()).as(vector.getName()).isEqualTo((int) nulls);
        assertThat(vector.getValueCount()).isEqualTo(expected.size());
      }
    }
    assertThat(appender.rowCount()).isZero();
  }

  private static VectorSchemaRoot strings(Field field, List<String> values, BufferAllocator a) {
    VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(field)), a);
    VarCharVector vector = (VarCharVector) root.getVector(0);
    vector.allocateNew();
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) == null) {
        vector.setNull(i);
      } else {
        vector.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
      }
    }
    vector.setValueCount(values.size());
    root.setRowCount(values.size());
    return root;
  }

  /**
   * Full validation of every vector, except the scalar check of decimals: Arrow 18.3's rejects
   * values that use the full precision ({@code precision() < vectorPrecision}).
   */
  static void validate(VectorSchemaRoot batch) {
    ValueVectorUtility.validate(batch);
    for (FieldVector vector : batch.getFieldVectors()) {
      if (!(vector instanceof DecimalVector)) {
        ValueVectorUtility.validateFull(vector);
      }
    }
  }
}
