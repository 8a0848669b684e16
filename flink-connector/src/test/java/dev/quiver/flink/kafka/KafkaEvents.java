package dev.quiver.flink.kafka;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Test events of every column type a Kafka value can hold, with NULLs at fixed strides, as JSON and
 * CSV values and as the rows a batch must read back ({@code BatchRows} values).
 */
final class KafkaEvents {
  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("n", new ArrowType.Int(32, true)),
              Field.nullable("amount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("price", new ArrowType.Decimal(10, 2, 128)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              Field.nullable("flag", ArrowType.Bool.INSTANCE),
              Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
              Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

  /** The event time of event 0: 2026-01-01 00:00:00 UTC; event i is i * 100 ms later. */
  static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 0, 0);

  private KafkaEvents() {}

  static long eventMillis(long id) {
    return T0.toInstant(ZoneOffset.UTC).toEpochMilli() + id * 100;
  }

  /** The row event {@code id} reads back as. */
  static List<Object> row(long id) {
    int i = (int) id;
    return Arrays.asList(
        id,
        i % 7 == 0 ? null : i * 3 - 500,
        i % 5 == 0 ? null : i * 1.25,
        i % 11 == 0 ? null : BigDecimal.valueOf(i * 100L + 7, 2),
        i % 13 == 0 ? null : "name-" + i + (i % 3 == 0 ? " é,\"q\"" : ""),
        i % 4 == 0 ? null : i % 2 == 1,
        i % 6 == 0 ? null : (int) LocalDate.of(2024, 1, 1).plusDays(i).toEpochDay(),
        T0.plusNanos(id * 100_000_000L));
  }

  static String json(long id) {
    List<Object> r = row(id);
    StringBuilder s = new StringBuilder("{\"id\": ").append(id);
    if (r.get(1) != null) {
      s.append(", \"n\": ").append(r.get(1));
    }
    s.append(", \"amount\": ").append(r.get(2)); // null is written as JSON null
    if (r.get(3) != null) {
      s.append(", \"price\": ").append(((BigDecimal) r.get(3)).toPlainString());
    }
    if (r.get(4) != null) {
      s.append(", \"name\": \"").append(r.get(4).toString().replace("\"", "\\\"")).append('"');
    }
    s.append(", \"unknown\": {\"nested\": [1, 2]}");
    if (r.get(5) != null) {
      s.append(", \"flag\": ").append(r.get(5));
    }
    if (r.get(6) != null) {
      s.append(", \"day\": \"").append(LocalDate.ofEpochDay((Integer) r.get(6))).append('"');
    }
    // Even ids give the time as text, odd ones as epoch milliseconds.
    if (id % 2 == 0) {
      s.append(", \"ts\": \"").append(r.get(7).toString().replace('T', ' ')).append('"');
    } else {
      s.append(", \"ts\": ").append(eventMillis(id));
    }
    return s.append('}').toString();
  }

  static String csv(long id) {
    List<Object> r = row(id);
    List<String> fields = new ArrayList<>();
    fields.add(Long.toString(id));
    fields.add(r.get(1) == null ? "" : r.get(1).toString());
    fields.add(r.get(2) == null ? "" : r.get(2).toString());
    fields.add(r.get(3) == null ? "" : ((BigDecimal) r.get(3)).toPlainString());
    fields.add(r.get(4) == null ? "" : "\"" + r.get(4).toString().replace("\"", "\"\"") + "\"");
    fields.add(r.get(5) == null ? "" : r.get(5).toString().toUpperCase());
    fields.add(r.get(6) == null ? "" : LocalDate.ofEpochDay((Integer) r.get(6)).toString());
    fields.add(r.get(7).toString());
    return String.join(",", fields) + (id % 2 == 0 ? "\n" : "");
  }
}
