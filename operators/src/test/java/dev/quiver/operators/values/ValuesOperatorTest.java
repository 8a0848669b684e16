package dev.quiver.operators.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.memory.MemoryBudget;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@ExtendWith(ArrowLeakCheck.class)
class ValuesOperatorTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  /** Records rows and batch sizes; closes every batch. */
  private static final class Recorder implements BatchSink {
    final List<List<Object>> rows = new ArrayList<>();
    final List<Integer> sizes = new ArrayList<>();

    @Override
    public void accept(VectorSchemaRoot batch) {
      try (batch) {
        ValueVectorUtility.validate(batch);
        assertThat(batch.getSchema()).isEqualTo(SCHEMA);
        sizes.add(batch.getRowCount());
        rows.addAll(BatchRows.rows(batch));
      }
    }
  }

  /** Row {@code i}: values of every type, as given and as read back; every 5th value null. */
  private static List<Object> given(int i) {
    List<Object> row =
        Arrays.asList(
            i % 2 == 0,
            (byte) (i % 128),
            (short) -i,
            i * 1000,
            (long) i * Integer.MAX_VALUE,
            i / 4f,
            -i / 3.0,
            new BigDecimal(BigInteger.TEN.pow(15).subtract(BigInteger.valueOf(i + 1)), 2).negate(),
            new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE), 10),
            "row " + i + " αβγ",
            LocalDate.of(1960, 1, 1).plusDays(i),
            LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000).minusDays(i));
    row.set(i % row.size(), i % 5 == 0 ? null : row.get(i % row.size()));
    return row;
  }

  /** How Arrow reads {@link #given} back: dates as days, strings as Strings. */
  private static List<Object> readBack(List<Object> row) {
    List<Object> values = new ArrayList<>(row);
    if (values.get(10) instanceof LocalDate date) {
      values.set(10, (int) date.toEpochDay());
    }
    return values;
  }

  @ParameterizedTest(name = "rows={0} targetRows={1}")
  @CsvSource({"0, 10", "1, 10", "4, 3", "100, 7", "20000, 8192"})
  void emitsEveryRowOfEveryTypeInBatches(int rows, int targetRows, BufferAllocator allocator) {
    List<List<Object>> literal = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      literal.add(given(i));
      expected.add(readBack(given(i)));
    }
    Recorder sink = new Recorder();
    OperatorContext context =
        new OperatorContext(allocator, MemoryBudget.unlimited("values"), targetRows);
    try (ValuesOperator values = new ValuesOperator(context, SCHEMA, literal, sink)) {
      assertThat(values.inputs()).isZero();
      assertThat(sink.rows).as("nothing before start").isEmpty();
      values.start();
    }
    assertThat(sink.rows).isEqualTo(expected);
    for (int b = 0; b < sink.sizes.size(); b++) {
      assertThat(sink.sizes.get(b))
          .isEqualTo(b < sink.sizes.size() - 1 ? targetRows : rows - b * targetRows);
    }
  }

  @Test
  void convertsOtherAcceptedJavaValues(BufferAllocator allocator) {
    List<Object> row =
        Arrays.asList(
            true,
            BigInteger.valueOf(-128),
            (byte) 7,
            (short) 300,
            42,
            3,
            2.5f,
            new BigDecimal("1.5"),
            7L,
            new StringBuilder("sb"),
            18_000,
            Instant.ofEpochSecond(-1, 999_000));
    Recorder sink = new Recorder();
    try (ValuesOperator values =
        new ValuesOperator(OperatorContext.of(allocator), SCHEMA, List.of(row), sink)) {
      assertThat(values).hasToString("Values[rows=1]");
      values.start();
    }
    assertThat(sink.rows)
        .containsExactly(
            List.of(
                true,
                (byte) -128,
                (short) 7,
                300,
                42L,
                3f,
                2.5,
                new BigDecimal("1.50"),
                new BigDecimal("7.0000000000"),
                "sb",
                18_000,
                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000)));
  }

  @Test
  void rejectsLiteralsThatDoNotFitNamingRowAndColumn(BufferAllocator allocator) {
    OperatorContext context = OperatorContext.of(allocator);
    Object[][] bad = {
      {1, "1"}, // a string into an int8
      {1, 300}, // out of int8's range
      {3, 1.5}, // a double into an int32
      {7, new BigDecimal("1.234")}, // would round
      {7, new BigDecimal("10000000000000.00")}, // beyond precision 15
      {9, 5}, // a number into utf8
      {11, Instant.ofEpochSecond(0, 1)} // finer than microseconds
    };
    for (Object[] value : bad) {
      List<Object> row = new ArrayList<>(given(1));
      row.set((Integer) value[0], value[1]);
      List<List<Object>> rows = List.of(given(2), row);
      assertThatThrownBy(() -> new ValuesOperator(context, SCHEMA, rows, b -> {}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("row 1")
          .hasMessageContaining(SCHEMA.getFields().get((Integer) value[0]).getName());
    }
    assertThatThrownBy(() -> new ValuesOperator(context, SCHEMA, List.of(List.of(1)), b -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row 0 has 1 values");
    Schema unsigned = new Schema(List.of(RandomBatches.field("u", new ArrowType.Int(32, false))));
    assertThatThrownBy(() -> new ValuesOperator(context, unsigned, List.of(), b -> {}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void hasNoInputsAndStartsOnce(BufferAllocator allocator) {
    ValuesOperator values =
        new ValuesOperator(
            OperatorContext.of(allocator), SCHEMA, List.of(given(1)), VectorSchemaRoot::close);
    assertThatThrownBy(() -> values.add(0, new RandomBatches(1).batch(SCHEMA, 2, allocator)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> values.finish(0)).isInstanceOf(IllegalArgumentException.class);
    values.start();
    assertThatThrownBy(values::start).isInstanceOf(IllegalStateException.class);
    values.close();
    values.close();
  }
}
