package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Computed columns over a bounded file table ({@code 'connector' = 'filesystem'} without a monitor
 * interval): a scan gives the declared row, a filter and a TUMBLE window aggregate on computed
 * columns give the oracle's rows, and INSERT INTO such a table writes its physical columns; a
 * watched directory's stream windows by its computed event time.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(180)
class ComputedColumnsFileTest {
  private static final int ORDERS = 500;
  // 2026-01-01 00:00:00 UTC
  private static final long T0 = 1_767_225_600_000L;

  @TempDir static Path dir;
  private static QuiverSession session;

  private static String create(String name, Path path) {
    return create(name, path, "csv");
  }

  private static String create(String name, Path path, String format) {
    return """
        CREATE TABLE %s (
          id BIGINT,
          total AS price * qty,
          price DECIMAL(10, 2),
          qty INT,
          epoch_ms BIGINT,
          ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3),
          WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
        ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s')
        """
        .formatted(name, path, format);
  }

  private static BigDecimal price(int id) {
    return BigDecimal.valueOf(id % 37 * 25L, 2); // 0.00 to 9.00
  }

  private static int qty(int id) {
    return id % 5;
  }

  private static long epochMs(int id) {
    return T0 + id * 700L; // 350 s of orders
  }

  @BeforeAll
  static void start() throws Exception {
    StringBuilder csv = new StringBuilder("id,price,qty,epoch_ms\n");
    for (int id = 0; id < ORDERS; id++) {
      csv.append(id)
          .append(',')
          .append(price(id).toPlainString())
          .append(',')
          .append(qty(id))
          .append(',')
          .append(epochMs(id))
          .append('\n');
    }
    Files.createDirectories(dir.resolve("orders"));
    Files.writeString(dir.resolve("orders/part-0.csv"), csv);
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
    session.execute(create("orders", dir.resolve("orders")));
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  @Test
  void aScanGivesTheDeclaredRowAndAFilterOnAComputedColumnItsRows() {
    try (SqlResult result = session.sql("SELECT * FROM orders WHERE id = 7")) {
      assertThat(result.streaming()).isFalse();
      assertThat(result.schema().getFields())
          .extracting(Field::getName)
          .containsExactly("id", "total", "price", "qty", "epoch_ms", "ts");
      assertThat(result.rows())
          .containsExactly(
              List.of(
                  7L,
                  new BigDecimal("3.50"),
                  new BigDecimal("1.75"),
                  2,
                  epochMs(7),
                  LocalDateTime.parse("2026-01-01T00:00:04.900")));
    }
    List<Long> expensive = new ArrayList<>();
    for (int id = 0; id < ORDERS; id++) {
      if (price(id).multiply(BigDecimal.valueOf(qty(id))).compareTo(BigDecimal.valueOf(30)) > 0) {
        expensive.add((long) id);
      }
    }
    assertThat(expensive).isNotEmpty();
    assertThat(rows("SELECT id FROM orders WHERE total > 30"))
        .containsExactlyInAnyOrderElementsOf(
            expensive.stream().map(id -> List.<Object>of(id)).toList());
  }

  @Test
  void aTumbleWindowOverAComputedEventTimeGivesTheOraclesRows() {
    Map<LocalDateTime, List<Object>> oracle = new TreeMap<>();
    for (int id = 0; id < ORDERS; id++) {
      LocalDateTime end =
          LocalDateTime.parse("2026-01-01T00:00:00")
              .plusMinutes(1 + epochMs(id) / 1000 % 3600 / 60);
      BigDecimal total = price(id).multiply(BigDecimal.valueOf(qty(id)));
      oracle.merge(
          end,
          List.of(end, 1L, total),
          (a, b) ->
              List.of(
                  end, (Long) a.get(1) + 1, ((BigDecimal) a.get(2)).add((BigDecimal) b.get(2))));
    }
    List<List<Object>> rows =
        rows(
            "SELECT window_end, count(*), sum(total) FROM TABLE(TUMBLE(TABLE orders,"
                + " DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end");
    assertThat(rows).hasSize(6);
    for (List<Object> row : rows) {
      List<Object> expected = oracle.get((LocalDateTime) row.get(0));
      assertThat(row.subList(0, 2)).isEqualTo(expected.subList(0, 2));
      assertThat((BigDecimal) row.get(2)).isEqualByComparingTo((BigDecimal) expected.get(2));
    }
  }

  @Test
  void anInsertWritesThePhysicalColumnsAndTheComputedOnesAreComputedWhenRead() {
    Path out = dir.resolve("out");
    session.execute(create("out", out, "parquet"));
    try (SqlResult insert =
        session
            .execute(
                "INSERT INTO out SELECT id + 1000, price, qty, epoch_ms FROM orders WHERE id < 10")
            .orElseThrow()) {
      assertThat(insert.rows()).containsExactly(List.of(10L));
    }
    // Four columns, total and ts being computed: five columns do not fit.
    assertThatThrownBy(
            () ->
                session.execute(
                    "INSERT INTO out SELECT id, total, price, qty, epoch_ms FROM orders"))
        .hasMessageContaining("INSERT INTO out");
    session.execute("DROP TABLE out");
    session.execute(create("out", out, "parquet")); // the files present when declared
    assertThat(rows("SELECT id, total, ts FROM out WHERE id = 1007"))
        .containsExactly(
            List.of(1007L, new BigDecimal("3.50"), LocalDateTime.parse("2026-01-01T00:00:04.900")));
    assertThat(rows("SELECT count(*) FROM out")).containsExactly(List.of(10L));
    // Parquet's row groups are skipped by the physical columns' statistics only.
    assertThat(rows("SELECT id FROM out WHERE total > 3 AND qty > 1"))
        .containsExactlyInAnyOrder(List.of(1004L), List.of(1007L), List.of(1008L), List.of(1009L));
  }

  @Test
  void aWatchedDirectoryWindowsByItsComputedEventTime() throws Exception {
    Path watched = dir.resolve("watched");
    Files.createDirectories(watched);
    // Orders 0 to 199 (00:00:00 to 00:02:19.3): the minutes ending at 00:01 and 00:02 close.
    StringBuilder csv = new StringBuilder("id,price,qty,epoch_ms\n");
    for (int id = 0; id < 200; id++) {
      csv.append(id).append(",1.00,").append(qty(id)).append(',').append(epochMs(id)).append('\n');
    }
    Files.writeString(watched.resolve(".a.csv"), csv);
    Files.move(watched.resolve(".a.csv"), watched.resolve("a.csv"));
    session.execute(
        create("live", watched)
            .replace("'format' = 'csv'", "'format' = 'csv', 'source.monitor-interval' = '200 ms'"));
    long[] quantities = new long[3];
    for (int id = 0; id < 200; id++) {
      quantities[(int) ((epochMs(id) - T0) / 60_000)] += qty(id);
    }
    try (SqlResult result =
        session
            .execute(
                "SELECT window_end, sum(total) FROM TABLE(TUMBLE(TABLE live, DESCRIPTOR(ts),"
                    + " INTERVAL '1' MINUTE)) GROUP BY window_start, window_end")
            .orElseThrow()) {
      assertThat(result.streaming()).isTrue();
      List<List<Object>> rows = new ArrayList<>();
      StreamingResults.readUntil(result, rows, 2, Duration.ofSeconds(90));
      assertThat(rows).hasSize(2);
      for (List<Object> row : rows) {
        LocalDateTime end = (LocalDateTime) row.get(0);
        int minute = end.getMinute() - 1;
        assertThat(minute).isBetween(0, 1);
        assertThat((BigDecimal) row.get(1))
            .isEqualByComparingTo(BigDecimal.valueOf(quantities[minute]));
      }
    }
  }

  private static List<List<Object>> rows(String sql) {
    try (SqlResult result = session.sql(sql)) {
      return new ArrayList<>(result.rows());
    }
  }
}
