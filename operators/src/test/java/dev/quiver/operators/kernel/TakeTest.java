package dev.quiver.operators.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(ArrowLeakCheck.class)
class TakeTest {

  @ParameterizedTest(name = "rows={0} nullFraction={1}")
  @CsvSource({
    "0, 0.1",
    "1, 0",
    "1, 0.1",
    "1, 1.0",
    "7, 0.1",
    "64, 0",
    "65, 0.5",
    "1000, 0",
    "1000, 0.1",
    "1000, 1.0",
    "65536, 0",
    "65536, 0.1",
    "65536, 1.0"
  })
  void randomIndicesMatchRowAtATimeReference(int rows, double nullFraction, BufferAllocator a) {
    try (VectorSchemaRoot source =
        new RandomBatches(rows * 31L + (long) (nullFraction * 10))
            .nullFraction(nullFraction)
            .batch(RandomBatches.ALL_TYPES, rows, a)) {
      Random random = new Random(rows);
      // Repeats, any order, and more or fewer rows than the source.
      int count = rows == 0 ? 0 : random.nextInt(2 * rows + 1);
      int[] indices = new int[count];
      for (int i = 0; i < count; i++) {
        indices[i] = random.nextInt(rows);
      }
      assertTakeMatches(source, indices, 0, count, a);
    }
  }

  @ParameterizedTest(name = "start={0} length={1}")
  @CsvSource({"1, 100", "3, 61", "7, 1000", "13, 4097", "63, 1", "64, 200", "999, 1"})
  void slicedSourceWithUnalignedValidity(int start, int length, BufferAllocator a) {
    try (VectorSchemaRoot base =
            new RandomBatches(start).nullFraction(0.3).batch(RandomBatches.ALL_TYPES, 5000, a);
        VectorSchemaRoot slice = base.slice(start, length)) {
      int[] reversed = new int[length];
      for (int i = 0; i < length; i++) {
        reversed[i] = length - 1 - i;
      }
      assertTakeMatches(slice, reversed, 0, length, a);
    }
  }

  /** A filter that keeps most rows: long ascending runs, copied block by block ({@link Runs}). */
  @ParameterizedTest(name = "rows={0} nullFraction={1} dropped={2}")
  @CsvSource({
    "16, 0, 0",
    "17, 0.3, 0.05",
    "1000, 0, 0.02",
    "1000, 0.2, 0.02",
    "1000, 1.0, 0.01",
    "65536, 0, 0.02",
    "65536, 0.1, 0.001",
    "65536, 0.1, 0.3"
  })
  void ascendingRunsMatchRowAtATimeReference(
      int rows, double nullFraction, double dropped, BufferAllocator a) {
    try (VectorSchemaRoot source =
        new RandomBatches(rows * 7L + 3)
            .nullFraction(nullFraction)
            .batch(RandomBatches.ALL_TYPES, rows, a)) {
      Random random = new Random(rows + 11);
      int[] kept = new int[rows];
      int count = 0;
      for (int i = 0; i < rows; i++) {
        if (random.nextDouble() >= dropped) {
          kept[count++] = i;
        }
      }
      assertTakeMatches(source, kept, 0, count, a);
      if (count > 40) {
        assertTakeMatches(source, kept, 5, count - 40, a); // a range that starts mid-run
      }
      for (FieldVector column : source.getFieldVectors()) {
        try (FieldVector taken = Take.take(column, kept, 0, count, a)) {
          List<Object> expected = new ArrayList<>();
          for (int i = 0; i < count; i++) {
            expected.add(BatchRows.value(column, kept[i]));
          }
          assertThat(values(taken)).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void runsOfEmptyAndLongStrings(BufferAllocator a) {
    try (VarCharVector strings = new VarCharVector("s", a)) {
      strings.allocateNew(100);
      for (int i = 0; i < 100; i++) {
        if (i % 7 == 3) {
          strings.setNull(i);
        } else {
          strings.setSafe(i, "x".repeat(i % 5 == 0 ? 0 : i).getBytes(StandardCharsets.UTF_8));
        }
      }
      strings.setValueCount(100);
      int[] indices = new int[90];
      for (int i = 0; i < 90; i++) {
        indices[i] = i < 45 ? i : i + 10; // two runs: [0, 45) and [55, 100)
      }
      try (FieldVector taken = Take.take(strings, indices, 0, 90, a)) {
        for (int i = 0; i < 90; i++) {
          assertThat(BatchRows.value(taken, i)).isEqualTo(BatchRows.value(strings, indices[i]));
        }
      }
    }
  }

  @Test
  void subRangeOfIndices(BufferAllocator a) {
    try (VectorSchemaRoot source =
        new RandomBatches(5).nullFraction(0.2).batch(RandomBatches.ALL_TYPES, 300, a)) {
      int[] indices = {299, 0, 5, 5, 17, 250, 3, 3, 1, 100, 42};
      assertTakeMatches(source, indices, 3, 6, a);
      assertTakeMatches(source, indices, 11, 0, a);
    }
  }

  @Test
  void veryLongStrings(BufferAllocator a) {
    try (VectorSchemaRoot source =
        new RandomBatches(9)
            .nullFraction(0.2)
            .maxStringLength(100_000)
            .batch(RandomBatches.ALL_TYPES, 40, a)) {
      int[] indices = {39, 0, 0, 12, 7, 38, 20, 20, 1};
      assertTakeMatches(source, indices, 0, indices.length, a);
    }
  }

  @Test
  void decimalsAtTheEdgeOfPrecision(BufferAllocator a) {
    try (DecimalVector source = new DecimalVector("d", a, 38, 10)) {
      BigDecimal max = new BigDecimal("9999999999999999999999999999.9999999999");
      source.allocateNew(4);
      source.set(0, max);
      source.set(1, max.negate());
      source.setNull(2);
      source.set(3, new BigDecimal("-0.0000000001"));
      source.setValueCount(4);
      try (FieldVector taken = Take.take(source, new int[] {3, 2, 1, 0, 0}, 5, a)) {
        assertThat(values(taken))
            .containsExactly(new BigDecimal("-0.0000000001"), null, max.negate(), max, max);
      }
    }
  }

  @Test
  void resultOutlivesTheSource(BufferAllocator a) {
    VectorSchemaRoot taken;
    List<List<Object>> expected;
    try (VectorSchemaRoot source = new RandomBatches(11).batch(RandomBatches.ALL_TYPES, 100, a)) {
      int[] indices = {5, 4, 99, 0};
      expected = reference(source, indices, 0, indices.length);
      taken = Take.take(source, indices, indices.length, a);
    }
    try (taken) {
      assertThat(BatchRows.rows(taken)).isEqualTo(expected);
    }
  }

  @Test
  void zeroColumnBatchKeepsTheRowCount(BufferAllocator a) {
    try (VectorSchemaRoot source = new VectorSchemaRoot(new Schema(List.of()), List.of(), 10);
        VectorSchemaRoot taken = Take.take(source, new int[] {1, 1, 9}, 3, a)) {
      assertThat(taken.getRowCount()).isEqualTo(3);
      assertThat(taken.getFieldVectors()).isEmpty();
    }
  }

  @Test
  void emptyStringsAndNullsInOneVector(BufferAllocator a) {
    try (VarCharVector source = new VarCharVector("s", a)) {
      source.allocateNew();
      source.setSafe(0, new byte[0]);
      source.setNull(1);
      source.setSafe(2, "héllo".getBytes(StandardCharsets.UTF_8));
      source.setValueCount(3);
      try (FieldVector taken = Take.take(source, new int[] {2, 1, 0, 2}, 4, a)) {
        assertThat(values(taken)).containsExactly("héllo", null, "", "héllo");
        assertThat(taken.getNullCount()).isEqualTo(1);
      }
    }
  }

  @Test
  void rejectsBadArguments(BufferAllocator a) {
    try (IntVector source = new IntVector("i", a)) {
      source.allocateNew(3);
      source.setValueCount(3);
      assertThatThrownBy(() -> Take.take(source, new int[] {0, 3}, 2, a))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("index 3 at position 1");
      assertThatThrownBy(() -> Take.take(source, new int[] {-1}, 1, a))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> Take.take(source, new int[] {0}, 2, a))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> Take.take(source, new int[] {0}, -1, a))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> Take.take(source, new int[] {0}, 1, 1, a))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> Take.take(source, null, 0, a))
          .isInstanceOf(NullPointerException.class)
          .hasMessage("indices is null");
    }
    try (ListVector list = ListVector.empty("l", a)) {
      list.setValueCount(0);
      assertThatThrownBy(() -> Take.take(list, new int[0], 0, a))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("does not support");
    }
  }

  @ParameterizedTest(name = "nullFraction={0}")
  @CsvSource({"0", "0.001", "0.5", "1.0"})
  void fewRowsOfABigSourceGatherOnlyTheTakenBits(double nullFraction, BufferAllocator a) {
    // 100,000 source rows, a few taken per call (as a join gathers build rows batch by batch):
    // beyond Bits.COUNT_FACTOR rows per taken row the bitmap is gathered, not counted.
    int rows = 100_000;
    try (VectorSchemaRoot source =
        new RandomBatches(97 + (long) (nullFraction * 1000))
            .nullFraction(nullFraction)
            .batch(RandomBatches.ALL_TYPES, rows, a)) {
      Random random = new Random(5);
      int[] indices = new int[200];
      for (int i = 0; i < indices.length; i++) {
        indices[i] = i < 64 ? rows - 1 - i : random.nextInt(rows);
      }
      for (int count : new int[] {0, 1, 7, 64, 65, 100}) {
        assertTakeMatches(source, indices, 3, count, a);
      }
      // Exactly at the threshold and just below it the bitmap is counted instead.
      int[] many = new int[rows / Bits.COUNT_FACTOR + 1];
      for (int i = 0; i < many.length; i++) {
        many[i] = random.nextInt(rows);
      }
      assertTakeMatches(source, many, 0, many.length, a);
      assertTakeMatches(source, many, 0, many.length - 1, a);
    }
  }

  private static void assertTakeMatches(
      VectorSchemaRoot source, int[] indices, int from, int count, BufferAllocator a) {
    List<List<Object>> expected = reference(source, indices, from, count);
    try (VectorSchemaRoot taken = Take.take(source, indices, from, count, a)) {
      assertThat(taken.getRowCount()).isEqualTo(count);
      assertThat(taken.getSchema()).isEqualTo(source.getSchema());
      assertThat(BatchRows.rows(taken)).isEqualTo(expected);
      for (int c = 0; c < taken.getFieldVectors().size(); c++) {
        int column = c;
        long nulls = expected.stream().filter(row -> row.get(column) == null).count();
        assertThat(taken.getVector(c).getValueCount()).isEqualTo(count);
        assertThat(taken.getVector(c).getNullCount()).isEqualTo((int) nulls);
      }
    }
  }

  private static List<List<Object>> reference(
      VectorSchemaRoot source, int[] indices, int from, int count) {
    List<List<Object>> rows = new ArrayList<>(count);
    for (int i = from; i < from + count; i++) {
      rows.add(BatchRows.row(source, indices[i]));
    }
    return rows;
  }

  private static List<Object> values(FieldVector vector) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < vector.getValueCount(); i++) {
      values.add(BatchRows.value(vector, i));
    }
    return values;
  }
}
