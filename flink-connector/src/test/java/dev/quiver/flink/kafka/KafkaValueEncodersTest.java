package dev.quiver.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rows encoded as JSON and CSV values decode back to the same rows ({@link ValueEncoder} is the
 * inverse of {@link ValueDecoder}), without a cluster: every column type, NULLs, the empty string,
 * text that needs quoting, extreme numbers and times.
 */
@ExtendWith(ArrowLeakCheck.class)
class KafkaValueEncodersTest {
  @Test
  void encodedEventsDecodeToTheSameRows(BufferAllocator allocator) throws Exception {
    int rows = 3000;
    try (VectorSchemaRoot events = VectorSchemaRoot.create(KafkaEvents.SCHEMA, allocator)) {
      decode(KafkaValueFormat.JSON, ',', jsonEvents(rows), events);
      for (KafkaValueFormat format : KafkaValueFormat.values()) {
        for (char delimiter :
            format == KafkaValueFormat.CSV ? new char[] {',', '|'} : new char[] {','}) {
          try (VectorSchemaRoot back = VectorSchemaRoot.create(KafkaEvents.SCHEMA, allocator)) {
            decode(format, delimiter, encode(format, delimiter, events), back);
            List<List<Object>> read = BatchRows.rows(back);
            for (int id = 0; id < rows; id++) {
              assertThat(read.get(id))
                  .as("%s '%s' row %s", format, delimiter, id)
                  .isEqualTo(KafkaEvents.row(id));
            }
          }
        }
      }
    }
  }

  @Test
  void extremeValuesRoundTrip(BufferAllocator allocator) throws Exception {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("i", new ArrowType.Int(32, true)),
                Field.nullable("l", new ArrowType.Int(64, true)),
                Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                Field.nullable("m", new ArrowType.Decimal(38, 10, 128)),
                Field.nullable("s", ArrowType.Utf8.INSTANCE),
                Field.nullable("b", ArrowType.Bool.INSTANCE),
                Field.nullable(
                    "day", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)),
                Field.nullable(
                    "ts",
                    new ArrowType.Timestamp(
                        org.apache.arrow.vector.types.TimeUnit.MICROSECOND, null))));
    Object[][] values = {
      {
        Integer.MIN_VALUE,
        Long.MIN_VALUE,
        Double.NaN,
        new BigDecimal("0.0000000001"),
        "",
        false,
        LocalDate.of(1, 1, 1),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)
      },
      {
        Integer.MAX_VALUE,
        Long.MAX_VALUE,
        Double.POSITIVE_INFINITY,
        new BigDecimal("-9999999999999999999999999999.9999999999"),
        "a,b|c\"d\"\ne\r\n",
        true,
        LocalDate.of(9999, 12, 31),
        LocalDateTime.of(2026, 3, 4, 5, 6, 7, 123_000_000)
      },
      {
        0,
        0L,
        Double.NEGATIVE_INFINITY,
        BigDecimal.ZERO.setScale(10),
        "  spaced  ",
        null,
        LocalDate.of(1970, 1, 1),
        LocalDateTime.of(2026, 3, 4, 5, 6, 7, 123_456_000)
      },
      {
        -1,
        -1L,
        -0.0,
        new BigDecimal("12345.6789000000"),
        "日本語 ✓ \"",
        true,
        LocalDate.of(1969, 12, 31),
        LocalDateTime.of(1900, 1, 1, 0, 0)
      },
      {null, null, 1e300, null, null, null, null, null},
      {null, null, 4.9e-324, null, "\"", null, null, null},
    };
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      batch.allocateNew();
      for (int row = 0; row < values.length; row++) {
        set(batch, row, values[row]);
      }
      batch.setRowCount(values.length);
      List<List<Object>> expected = BatchRows.rows(batch);
      for (KafkaValueFormat format : KafkaValueFormat.values()) {
        try (VectorSchemaRoot back = VectorSchemaRoot.create(schema, allocator)) {
          decode(format, ',', encode(format, ',', batch), back);
          assertThat(BatchRows.rows(back)).as(format.toString()).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void valuesAreWrittenAsFlinkSqlWritesThem(BufferAllocator allocator) throws Exception {
    try (VectorSchemaRoot events = VectorSchemaRoot.create(KafkaEvents.SCHEMA, allocator)) {
      decode(KafkaValueFormat.JSON, ',', jsonEvents(4), events);
      assertThat(text(encode(KafkaValueFormat.JSON, ',', events)))
          .containsExactly(
              "{\"id\":0,\"n\":null,\"amount\":null,\"price\":null,\"name\":null,\"flag\":null,"
                  + "\"day\":null,\"ts\":\"2026-01-01 00:00:00\"}",
              "{\"id\":1,\"n\":-497,\"amount\":1.25,\"price\":1.07,\"name\":\"name-1\","
                  + "\"flag\":true,\"day\":\"2024-01-02\",\"ts\":\"2026-01-01 00:00:00.100\"}",
              "{\"id\":2,\"n\":-494,\"amount\":2.5,\"price\":2.07,\"name\":\"name-2\","
                  + "\"flag\":false,\"day\":\"2024-01-03\",\"ts\":\"2026-01-01 00:00:00.200\"}",
              "{\"id\":3,\"n\":-491,\"amount\":3.75,\"price\":3.07,"
                  + "\"name\":\"name-3 é,\\\"q\\\"\",\"flag\":true,\"day\":\"2024-01-04\","
                  + "\"ts\":\"2026-01-01 00:00:00.300\"}");
      assertThat(text(encode(KafkaValueFormat.CSV, ',', events)))
          .containsExactly(
              "0,,,,,,,2026-01-01 00:00:00",
              "1,-497,1.25,1.07,name-1,true,2024-01-02,2026-01-01 00:00:00.100",
              "2,-494,2.5,2.07,name-2,false,2024-01-03,2026-01-01 00:00:00.200",
              "3,-491,3.75,3.07,\"name-3 é,\"\"q\"\"\",true,2024-01-04,2026-01-01 00:00:00.300");
    }
  }

  @Test
  void aTypeValuesCannotHoldIsRefused() {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("r", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
    assertThatThrownBy(() -> ValueEncoder.of(KafkaValueFormat.JSON, schema, ','))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("Column 'r' has type");
  }

  private static List<byte[]> jsonEvents(int rows) {
    List<byte[]> values = new ArrayList<>();
    for (int id = 0; id < rows; id++) {
      values.add(KafkaEvents.json(id).getBytes(StandardCharsets.UTF_8));
    }
    return values;
  }

  private static List<byte[]> encode(
      KafkaValueFormat format, char delimiter, VectorSchemaRoot batch) {
    ValueEncoder encoder = ValueEncoder.of(format, batch.getSchema(), delimiter);
    encoder.bind(batch);
    List<byte[]> values = new ArrayList<>();
    for (int row = 0; row < batch.getRowCount(); row++) {
      values.add(encoder.encode(row));
    }
    return values;
  }

  private static void decode(
      KafkaValueFormat format, char delimiter, List<byte[]> values, VectorSchemaRoot into)
      throws BadValue {
    ValueDecoder decoder = ValueDecoder.of(format, into.getSchema(), delimiter);
    into.allocateNew();
    decoder.bind(into);
    for (int row = 0; row < values.size(); row++) {
      decoder.decode(values.get(row), row);
    }
    into.setRowCount(values.size());
  }

  private static List<String> text(List<byte[]> values) {
    return values.stream().map(value -> new String(value, StandardCharsets.UTF_8)).toList();
  }

  private static void set(VectorSchemaRoot batch, int row, Object[] values) {
    if (values[0] != null) {
      ((IntVector) batch.getVector(0)).setSafe(row, (Integer) values[0]);
    }
    if (values[1] != null) {
      ((BigIntVector) batch.getVector(1)).setSafe(row, (Long) values[1]);
    }
    if (values[2] != null) {
      ((Float8Vector) batch.getVector(2)).setSafe(row, (Double) values[2]);
    }
    if (values[3] != null) {
      ((DecimalVector) batch.getVector(3)).setSafe(row, (BigDecimal) values[3]);
    }
    if (values[4] != null) {
      ((VarCharVector) batch.getVector(4))
          .setSafe(row, ((String) values[4]).getBytes(StandardCharsets.UTF_8));
    }
    if (values[5] != null) {
      ((BitVector) batch.getVector(5)).setSafe(row, (Boolean) values[5] ? 1 : 0);
    }
    if (values[6] != null) {
      ((DateDayVector) batch.getVector(6)).setSafe(row, (int) ((LocalDate) values[6]).toEpochDay());
    }
    if (values[7] != null) {
      LocalDateTime time = (LocalDateTime) values[7];
      long micros = time.toEpochSecond(ZoneOffset.UTC) * 1_000_000 + time.getNano() / 1000;
      ((TimeStampMicroVector) batch.getVector(7)).setSafe(row, micros);
    }
  }
}
