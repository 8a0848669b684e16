package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QuiverSession#execute}: {@code CREATE TABLE} and {@code DROP TABLE} in Flink SQL's syntax
 * change the session's tables, other statements are queries; a table over a watched directory
 * ({@code 'source.monitor-interval'}) is a stream whose query returns the rows of files dropped in.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(180)
class SessionDdlTest {
  @TempDir static Path dir;
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(dir.resolve("orders"));
    Files.writeString(
        dir.resolve("orders/part-0.csv"),
        "id,customer,amount,ts\n1,ann,10.50,2026-01-01 00:00:01\n2,bob,3.25,2026-01-01 00:00:02\n");
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  private static String createOrders(String name, String extraOptions) {
    return """
        CREATE TABLE %s (
          `id` INT NOT NULL,
          customer STRING,
          amount DECIMAL(10, 2),
          ts TIMESTAMP(3),
          WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
        ) WITH (
          'connector' = 'filesystem',
          'path' = '%s',
          'format' = 'csv',
          'csv.header' = 'true'%s
        )
        """
        .formatted(name, dir.resolve("orders"), extraOptions);
  }

  @Test
  void createQueryDropABoundedDirectoryTable() {
    assertThat(session.execute(createOrders("orders_now", ""))).isEmpty();
    try (SqlResult result =
        session.execute("SELECT id, customer FROM orders_now ORDER BY id").orElseThrow()) {
      assertThat(result.streaming()).isFalse();
      assertThat(result.rows()).containsExactly(List.of(1, "ann"), List.of(2, "bob"));
    }
    assertThatThrownBy(() -> session.execute(createOrders("ORDERS_NOW", "")))
        .isInstanceOf(QuiverException.class)
        .hasMessage(
            "[INVALID_QUERY] the table ORDERS_NOW already exists: CREATE TABLE IF NOT EXISTS"
                + " keeps it, DROP TABLE ORDERS_NOW first replaces it");
    assertThat(
            session.execute(
                "CREATE TABLE IF NOT EXISTS orders_now (x INT) WITH ('connector' = 'nope')"))
        .isEmpty();
    assertThat(session.catalog().table("orders_now").orElseThrow().schema().size()).isEqualTo(4);

    assertThat(session.execute("DROP TABLE orders_now;")).isEmpty();
    assertThat(session.catalog().table("orders_now")).isEmpty();
    assertThatThrownBy(() -> session.execute("DROP TABLE orders_now"))
        .hasMessage(
            "[INVALID_QUERY] the table orders_now does not exist (DROP TABLE IF EXISTS ignores"
                + " that)");
    assertThat(session.execute("DROP TABLE IF EXISTS orders_now")).isEmpty();
  }

  @Test
  void ddlErrorsAndSqlRefusingDdl() {
    assertThatThrownBy(() -> session.execute("CREATE TABLE t (id INT) WITH ('connector' = 'jdbc')"))
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("jdbc");
    assertThat(session.catalog().table("t")).isEmpty();
    assertThatThrownBy(() -> session.execute("CREATE TABLE t (id INT,) WITH ()"))
        .isInstanceOf(QuiverException.class)
        .extracting(e -> ((QuiverException) e).code())
        .isEqualTo(ErrorCode.SYNTAX_ERROR);
    assertThatThrownBy(() -> session.sql(createOrders("t", "")))
        .hasMessage(
            "[UNSUPPORTED_FEATURE] not supported: CREATE TABLE (use QuiverSession.execute or the"
                + " CLI)");
  }

  @Test
  void aWatchedDirectoryTableStreamsTheRowsOfNewFiles() throws Exception {
    Path watched = dir.resolve("watched");
    Files.createDirectories(watched);
    Files.writeString(
        watched.resolve("a.csv"), "id,customer,amount,ts\n1,ann,1.00,2026-01-01 00:00:01\n");
    session.execute(
        createOrders("orders_live", ", 'source.monitor-interval' = '200 ms'")
            .replace(dir.resolve("orders").toString(), watched.toString()));
    try (SqlResult result =
        session
            .execute("SELECT id, customer, ts FROM orders_live WHERE amount > 0")
            .orElseThrow()) {
      assertThat(result.streaming()).isTrue();
      List<List<Object>> rows = new ArrayList<>();
      StreamingResults.readUntil(result, rows, 1, Duration.ofSeconds(60));
      // A file appears whole: written under a hidden name, then renamed.
      Path staged = watched.resolve(".b.csv");
      Files.writeString(
          staged,
          "id,customer,amount,ts\n2,bob,2.00,2026-01-01 00:00:05\n3,cy,0.00,2026-01-01 00:00:06\n");
      Files.move(staged, watched.resolve("b.csv"), StandardCopyOption.ATOMIC_MOVE);
      StreamingResults.readUntil(result, rows, 2, Duration.ofSeconds(60));
      assertThat(rows)
          .containsExactly(
              List.of(1, "ann", LocalDateTime.parse("2026-01-01T00:00:01")),
              List.of(2, "bob", LocalDateTime.parse("2026-01-01T00:00:05")));
    }
    session.execute("DROP TABLE orders_live");
  }
}
