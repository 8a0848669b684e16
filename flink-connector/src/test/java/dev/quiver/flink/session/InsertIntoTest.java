package dev.quiver.flink.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.TaskManagerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bounded {@code INSERT INTO} a filesystem table (Parquet, CSV) through {@link
 * QuiverSession#execute}: the job ends with every row in visible part files and nothing hidden left
 * behind, its result is the rows written, the table read back is the query's answer, a second
 * INSERT appends; the errors: columns that do not fit, a table that cannot be written, a NULL into
 * a NOT NULL column.
 */
@ExtendWith(ArrowLeakCheck.class)
@Timeout(180)
class InsertIntoTest {
  private static final int ORDERS = 2000;

  @TempDir static Path dir;
  private static QuiverSession session;

  @BeforeAll
  static void start() throws Exception {
    StringBuilder csv = new StringBuilder("id,customer,amount,ts\n");
    for (int id = 0; id < ORDERS; id++) {
      csv.append(id)
          .append(',')
          .append(id % 17 == 0 ? "" : "\"c" + id % 10 + (id % 3 == 0 ? ", \"\"x\"\"" : "") + "\"")
          .append(',')
          .append(id % 13 == 0 ? "" : (id * 7 % 1000) + "." + (id % 100 < 10 ? "0" : "") + id % 100)
          .append(',')
          .append(String.format("2026-01-01 00:%02d:%02d", id / 60 % 60, id % 60))
          .append('\n');
    }
    Files.createDirectories(dir.resolve("orders"));
    Files.writeString(dir.resolve("orders/part-0.csv"), csv);
    Configuration slots = new Configuration();
    slots.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
    session = QuiverSession.builder().parallelism(2).configuration(slots).build();
    session.execute(
        """
        CREATE TABLE orders (id INT NOT NULL, customer STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3))
        WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')
        """
            .formatted(dir.resolve("orders")));
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
  }

  private static String createOut(String name, Path path, String format) {
    return """
        CREATE TABLE %s (
          id BIGINT NOT NULL,
          customer STRING,
          amount DECIMAL(12, 2),
          ts TIMESTAMP(3)
        ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s')
        """
        .formatted(name, path, format);
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "csv"})
  void aBoundedInsertWritesCompleteFilesAndAppends(String format) throws Exception {
    Path out = dir.resolve("out-" + format);
    String table = "out_" + format;
    session.execute(createOut(table, out, format)); // the directory does not exist yet
    assertThatThrownBy(() -> rows("SELECT count(*) FROM " + table))
        .hasMessageContaining("[FILE_NOT_FOUND] Table '" + table + "': Table location")
        .hasMessageEndingWith("does not exist"); // read once declared again (below)
    String select = "SELECT id, customer, amount, ts FROM orders WHERE id % 4 <> 1";
    try (SqlResult insert = session.execute("INSERT INTO " + table + " " + select).orElseThrow()) {
      assertThat(insert.insertInto()).contains(table);
      assertThat(insert.streaming()).isFalse();
      assertThat(insert.schema().getFields()).hasSize(1);
      assertThat(insert.rows()).containsExactly(List.of((long) ORDERS * 3 / 4));
    }
    assertThat(hidden(out)).isEmpty();
    assertThat(visible(out)).isNotEmpty().allMatch(name -> name.endsWith("." + format));

    List<List<Object>> expected = rows(select.replace("SELECT id,", "SELECT CAST(id AS BIGINT),"));
    session.execute("DROP TABLE " + table);
    session.execute(createOut(table, out, format)); // a table is the files present when declared
    assertThat(rows("SELECT * FROM " + table)).containsExactlyInAnyOrderElementsOf(expected);

    try (SqlResult again =
        session.execute("INSERT INTO " + table + " " + select + " AND id < 100").orElseThrow()) {
      assertThat(again.rows()).containsExactly(List.of(75L));
    }
    session.execute("DROP TABLE " + table);
    session.execute(createOut(table, out, format));
    assertThat(rows("SELECT count(*) FROM " + table))
        .containsExactly(List.of((long) ORDERS * 3 / 4 + 75));
    assertThat(hidden(out)).isEmpty();
    session.execute("DROP TABLE " + table);
  }

  @Test
  void valuesAndATableRegisteredFromItsFilesAreWrittenToo() throws Exception {
    Path out = dir.resolve("values");
    session.execute(createOut("by_values", out, "parquet"));
    try (SqlResult insert =
        session
            .execute(
                "INSERT INTO by_values VALUES (1, 'a', 1.5, TIMESTAMP '2026-01-01 00:00:00'),"
                    + " (2, CAST(NULL AS VARCHAR), 2, TIMESTAMP '2026-01-01 00:00:01.5')")
            .orElseThrow()) {
      assertThat(insert.rows()).containsExactly(List.of(2L));
    }
    session.registerTable("registered", out.toString()); // format and schema from the files
    try (SqlResult insert =
        session.execute("INSERT INTO registered SELECT * FROM registered").orElseThrow()) {
      assertThat(insert.rows()).containsExactly(List.of(2L));
    }
    session.registerTable("registered", out.toString());
    assertThat(rows("SELECT id, customer, amount FROM registered ORDER BY id"))
        .containsExactly(
            List.of(1L, "a", new java.math.BigDecimal("1.50")),
            List.of(1L, "a", new java.math.BigDecimal("1.50")),
            java.util.Arrays.asList(2L, null, new java.math.BigDecimal("2.00")),
            java.util.Arrays.asList(2L, null, new java.math.BigDecimal("2.00")));
    session.execute("DROP TABLE by_values");
  }

  @Test
  void aNullIntoANotNullColumnFailsTheJobAndCommitsNothing() throws Exception {
    Path out = dir.resolve("not-null");
    session.execute(createOut("not_null", out, "parquet"));
    try (SqlResult insert =
        session
            .execute(
                "INSERT INTO not_null SELECT CASE WHEN id = 1500 THEN NULL ELSE id END,"
                    + " customer, amount, ts FROM orders")
            .orElseThrow()) {
      assertThatThrownBy(insert::rows)
          .isInstanceOf(QuiverException.class)
          .hasMessage(
              "[INVALID_ARGUMENT] INSERT INTO not_null: the column id is NOT NULL, and the query"
                  + " gave it a NULL (filter it out, or COALESCE it) (stage 0, task 0 of 2)");
    }
    assertThat(visible(out)).isEmpty();
    session.execute("DROP TABLE not_null");
  }

  @Test
  void insertsThatCannotRunAreOneLine() {
    session.execute(createOut("checked", dir.resolve("checked"), "parquet"));
    assertThatThrownBy(() -> session.execute("INSERT INTO checked SELECT id, customer FROM orders"))
        .isInstanceOf(QuiverException.class)
        .hasMessage(
            "[INVALID_QUERY] INSERT INTO checked: the query has 2 columns and checked has 4 (id,"
                + " customer, amount, ts): nothing is written to amount");
    assertThatThrownBy(
            () ->
                session.execute("INSERT INTO checked SELECT id, customer, ts, amount FROM orders"))
        .hasMessage(
            "[INVALID_QUERY] INSERT INTO checked: the query's column 3 'ts' is TIMESTAMP and"
                + " cannot be written to checked.amount DECIMAL(12,2) (CAST it)");
    assertThatThrownBy(() -> session.execute("INSERT INTO orderz SELECT * FROM orders"))
        .hasMessageStartingWith(
            "[INVALID_QUERY] INSERT INTO orderz: there is no table orderz (did you mean orders?)");
    assertThatThrownBy(() -> session.sql("INSERT INTO checked SELECT * FROM orders"))
        .hasMessage(
            "[UNSUPPORTED_FEATURE] not supported: INSERT (use QuiverSession.execute or the CLI)");
    session.execute(
        """
        CREATE TABLE bids (auction BIGINT NOT NULL, bidder BIGINT NOT NULL,
          price BIGINT NOT NULL, channel STRING NOT NULL, url STRING NOT NULL,
          dateTime TIMESTAMP(3) NOT NULL, extra STRING NOT NULL)
        WITH ('connector' = 'nexmark', 'kind' = 'bid', 'events' = '10')
        """);
    assertThatThrownBy(() -> session.execute("INSERT INTO bids SELECT * FROM bids"))
        .isInstanceOf(QuiverException.class)
        .extracting(e -> ((QuiverException) e).code(), Throwable::getMessage)
        .containsExactly(
            ErrorCode.INVALID_QUERY,
            "[INVALID_QUERY] Table 'bids': INSERT INTO writes 'kafka', 'upsert-kafka' and"
                + " 'filesystem' tables, not 'nexmark' ones");
    session.execute("DROP TABLE bids");
    session.execute("DROP TABLE checked");
    assertThat(session.openQueries()).isZero();
  }

  private static List<List<Object>> rows(String sql) {
    try (SqlResult result = session.sql(sql)) {
      return new ArrayList<>(result.rows());
    }
  }

  static List<String> visible(Path directory) throws IOException {
    return names(directory).stream().filter(name -> !name.startsWith(".")).toList();
  }

  static List<String> hidden(Path directory) throws IOException {
    return names(directory).stream().filter(name -> name.startsWith(".")).toList();
  }

  private static List<String> names(Path directory) throws IOException {
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(file -> file.getFileName().toString()).sorted().toList();
    }
  }
}
