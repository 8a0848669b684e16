package dev.quiver.flink.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** JSON and CSV values decoded into Arrow vectors, without a cluster: types, NULLs, errors. */
@ExtendWith(ArrowLeakCheck.class)
class KafkaValueDecodersTest {
  @Test
  void jsonAndCsvValuesDecodeToTheSameRows(BufferAllocator allocator) throws Exception {
    for (KafkaValueFormat format : KafkaValueFormat.values()) {
      ValueDecoder decoder = ValueDecoder.of(format, KafkaEvents.SCHEMA, ',');
      try (VectorSchemaRoot batch = VectorSchemaRoot.create(KafkaEvents.SCHEMA, allocator)) {
        batch.allocateNew();
        decoder.bind(batch);
        int rows = 5000; // beyond the vectors' first capacity: setSafe grows them
        for (int id = 0; id < rows; id++) {
          String value =
              format == KafkaValueFormat.JSON ? KafkaEvents.json(id) : KafkaEvents.csv(id);
          decoder.decode(value.getBytes(StandardCharsets.UTF_8), id);
        }
        batch.setRowCount(rows);
        List<List<Object>> read = BatchRows.rows(batch);
        for (int id = 0; id < rows; id++) {
          assertThat(read.get(id)).as("%s row %s", format, id).isEqualTo(KafkaEvents.row(id));
        }
      }
    }
  }

  @Test
  void textValuesParseExactly() throws Exception {
    assertThat(TextValues.parseLong("-9223372036854775808", 0, 20, 0, "BIGINT"))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(TextValues.parseTimestampMicros("1970-01-01T00:00:01.5Z", 0, 22, 0))
        .isEqualTo(1_500_000);
    assertThat(TextValues.parseTimestampMicros("1970-01-01 01:00:00+01:00", 0, 25, 0)).isZero();
    assertThat(TextValues.parseTimestampMicros("1500", 0, 4, 0)).isEqualTo(1_500_000);
    assertThat(TextValues.parseDate("1969-12-31", 0, 10, 0)).isEqualTo(-1);
    assertThatThrownBy(() -> TextValues.parseLong("9223372036854775808", 0, 19, 0, "BIGINT"))
        .hasMessageContaining("out of range for BIGINT");
    assertThatThrownBy(() -> TextValues.parseDate("2024-02-30", 0, 10, 0))
        .hasMessageContaining("not a valid date");
  }

  @Test
  void badValuesNameTheirColumn(BufferAllocator allocator) {
    assertBad(KafkaValueFormat.JSON, "{\"id\": 1, \"n\": 3000000000}", 1, allocator);
    assertBad(KafkaValueFormat.JSON, "{\"id\": 1, \"n\": 1, \"n\": 2}", 1, allocator);
    assertBad(KafkaValueFormat.JSON, "{\"id\": 1, \"flag\": [true]}", 5, allocator);
    assertBad(KafkaValueFormat.JSON, "{\"n\": 1}", 0, allocator); // id is NOT NULL
    assertBad(KafkaValueFormat.JSON, "[1, 2]", -1, allocator);
    assertBad(KafkaValueFormat.JSON, "{\"id\": 1", -1, allocator);
    assertBad(KafkaValueFormat.JSON, "{\"id\": 1, \"price\": 123456789.5}", 3, allocator);
    assertBad(KafkaValueFormat.CSV, "1,2,3", -1, allocator);
    assertBad(KafkaValueFormat.CSV, "1,x,,,,,,", 1, allocator);
    assertBad(KafkaValueFormat.CSV, "1,,,,\"open,,,", 4, allocator);
    assertBad(KafkaValueFormat.CSV, "1,,,,,yes,,", 5, allocator);
    assertBad(KafkaValueFormat.CSV, "1,,,,,,,2026-13-01 00:00", 7, allocator);
  }

  private static void assertBad(
      KafkaValueFormat format, String value, int column, BufferAllocator allocator) {
    ValueDecoder decoder = ValueDecoder.of(format, KafkaEvents.SCHEMA, ',');
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(KafkaEvents.SCHEMA, allocator)) {
      batch.allocateNew();
      decoder.bind(batch);
      assertThatThrownBy(() -> decoder.decode(value.getBytes(StandardCharsets.UTF_8), 0))
          .as(value)
          .isInstanceOfSatisfying(
              BadValue.class,
              bad -> assertThat(bad.column()).as(bad.getMessage()).isEqualTo(column));
    }
  }
}
