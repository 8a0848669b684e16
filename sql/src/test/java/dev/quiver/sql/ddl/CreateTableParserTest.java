package dev.quiver.sql.ddl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.time.EventTime;
import dev.quiver.plan.type.SqlType;
import dev.quiver.sql.TableColumns;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Valid {@code CREATE TABLE} / {@code DROP TABLE} statements, in the shapes Flink users write. */
class CreateTableParserTest {
  private static CreateTable create(String sql) {
    return (CreateTable) DdlParser.parse(sql).orElseThrow();
  }

  @Test
  void flinkKafkaExample() {
    // Flink's Kafka connector page, with the watermark its event-time docs add.
    CreateTable table =
        create(
            """
            CREATE TABLE KafkaTable (
              `user_id` BIGINT,
              `item_id` BIGINT,
              `behavior` STRING,
              `ts` TIMESTAMP(3),
              WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
            ) WITH (
              'connector' = 'kafka',
              'topic' = 'user_behavior',
              'properties.bootstrap.servers' = 'localhost:9092',
              'properties.group.id' = 'testGroup',
              'scan.startup.mode' = 'earliest-offset',
              'format' = 'csv'
            )
            """);
    assertThat(table.name()).isEqualTo("KafkaTable");
    assertThat(table.schema())
        .isEqualTo(
            RowSchema.of(
                Column.of("user_id", SqlType.BIGINT),
                Column.of("item_id", SqlType.BIGINT),
                Column.of("behavior", SqlType.VARCHAR),
                Column.of("ts", SqlType.TIMESTAMP)));
    assertThat(table.eventTime()).contains(new EventTime("ts", Duration.ofSeconds(5)));
    assertThat(table.options())
        .containsExactly(
            Map.entry("connector", "kafka"),
            Map.entry("topic", "user_behavior"),
            Map.entry("properties.bootstrap.servers", "localhost:9092"),
            Map.entry("properties.group.id", "testGroup"),
            Map.entry("scan.startup.mode", "earliest-offset"),
            Map.entry("format", "csv"));
    assertThat(table.ifNotExists()).isFalse();
  }

  @Test
  void flinkFilesystemExampleWithKeyCommentsAndEveryType() {
    CreateTable table =
        create(
            """
            -- a watched directory
            CREATE TEMPORARY TABLE IF NOT EXISTS "Orders" (
              id INT NOT NULL COMMENT 'the order',
              flag BOOLEAN NULL,
              tiny TINYINT, small SMALLINT, whole INTEGER,
              price DECIMAL(15, 2), amount NUMERIC, ratio FLOAT, score REAL,
              total DOUBLE PRECISION, code CHAR(3), note VARCHAR(100),
              day DATE, /* event time */ order_time TIMESTAMP(6) WITHOUT TIME ZONE,
              PRIMARY KEY (id) NOT ENFORCED,
              WATERMARK FOR order_time AS order_time - INTERVAL '1.5' SECONDS
            ) COMMENT 'orders as they come'
            WITH ('connector' = 'filesystem', 'path' = '/data/it''s', 'format' = 'csv',
                  'source.monitor-interval' = '1 s');
            """);
    assertThat(table.name()).isEqualTo("Orders");
    assertThat(table.ifNotExists()).isTrue();
    assertThat(table.schema().columns())
        .extracting(Column::type)
        .containsExactly(
            SqlType.INTEGER,
            SqlType.BOOLEAN,
            SqlType.TINYINT,
            SqlType.SMALLINT,
            SqlType.INTEGER,
            SqlType.decimal(15, 2),
            SqlType.decimal(10, 0),
            SqlType.REAL,
            SqlType.REAL,
            SqlType.DOUBLE,
            SqlType.VARCHAR,
            SqlType.VARCHAR,
            SqlType.DATE,
            SqlType.TIMESTAMP);
    assertThat(table.primaryKey()).as("as the column was declared").containsExactly("id");
    assertThat(table.schema().column(0)).isEqualTo(Column.notNull("id", SqlType.INTEGER));
    assertThat(table.schema().column(1).nullable()).isTrue();
    assertThat(table.eventTime()).contains(new EventTime("order_time", Duration.ofMillis(1500)));
    assertThat(table.options()).containsEntry("path", "/data/it's");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ts - INTERVAL '5' SECOND         | 5000
          ts - INTERVAL '0.001' SECOND     | 1
          ts - INTERVAL '200' MILLISECONDS | 200
          ts - INTERVAL '200' millisecond  | 200
          ts - INTERVAL '2' MINUTE         | 120000
          ts - INTERVAL '1' HOURS          | 3600000
          ts - INTERVAL '1' DAY            | 86400000
          ts                               | 0
          `ts` - INTERVAL '0' SECOND       | 0
          """)
  void watermarkDelays(String expression, long millis) {
    CreateTable table =
        create(
            "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS "
                + expression
                + ") WITH ('connector' = 'kafka')");
    assertThat(table.eventTime()).contains(new EventTime("ts", Duration.ofMillis(millis)));
  }

  @Test
  void watermarkBeforeItsColumnOnBigintMillisAndCaseOfTheDeclaration() {
    CreateTable table =
        create(
            "create table t (watermark for TS as TS - interval '3' second, Ts bigint)"
                + " with ('connector' = 'kafka')");
    assertThat(table.eventTime()).contains(new EventTime("Ts", Duration.ofSeconds(3)));
  }

  @Test
  void computedAndMetadataColumnsAsFlinkKafkaTablesDeclareThem() {
    CreateTable table =
        create(
            """
            CREATE TABLE clicks (
              user_id BIGINT,
              url STRING,
              epoch_ms BIGINT,
              ts AS TO_TIMESTAMP_LTZ(epoch_ms, 3),          -- the event time, computed
              kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
              part INT NOT NULL METADATA FROM 'partition' VIRTUAL,
              `offset` BIGINT METADATA VIRTUAL COMMENT 'the key is the name',
              doubled AS (user_id * 2) + part COMMENT 'a metadata column in an expression',
              day AS CAST(kafka_ts AS DATE),
              WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
            ) WITH ('connector' = 'kafka')
            """);
    // Declared order, computed columns typed by their expressions (TIMESTAMP_LTZ is UTC TIMESTAMP).
    assertThat(table.schema())
        .isEqualTo(
            RowSchema.of(
                Column.of("user_id", SqlType.BIGINT),
                Column.of("url", SqlType.VARCHAR),
                Column.of("epoch_ms", SqlType.BIGINT),
                Column.of("ts", SqlType.TIMESTAMP),
                Column.of("kafka_ts", SqlType.TIMESTAMP),
                Column.of("part", SqlType.INTEGER),
                Column.of("offset", SqlType.BIGINT),
                Column.of("doubled", SqlType.BIGINT),
                Column.of("day", SqlType.DATE)));
    assertThat(table.eventTime()).contains(new EventTime("ts", Duration.ofSeconds(5)));
    TableColumns columns = table.columns();
    assertThat(columns.stored().columns())
        .extracting(Column::name)
        .containsExactly("user_id", "url", "epoch_ms");
    assertThat(columns.read().columns())
        .extracting(Column::name)
        .containsExactly("user_id", "url", "epoch_ms", "kafka_ts", "part", "offset");
    assertThat(columns.columns())
        .extracting(TableColumns.Declared::kind)
        .containsExactly(
            TableColumns.Kind.PHYSICAL,
            TableColumns.Kind.PHYSICAL,
            TableColumns.Kind.PHYSICAL,
            TableColumns.Kind.COMPUTED,
            TableColumns.Kind.METADATA,
            TableColumns.Kind.METADATA,
            TableColumns.Kind.METADATA,
            TableColumns.Kind.COMPUTED,
            TableColumns.Kind.COMPUTED);
    assertThat(columns.column("ts").orElseThrow().expression())
        .isEqualTo("TO_TIMESTAMP_LTZ(epoch_ms, 3)");
    assertThat(columns.column("doubled").orElseThrow().expression())
        .isEqualTo("(user_id * 2) + part");
    assertThat(columns.column("kafka_ts").orElseThrow().metadataKey()).isEqualTo("timestamp");
    assertThat(columns.column("offset").orElseThrow().metadataKey()).isEqualTo("offset");
    assertThat(columns.column("part").orElseThrow().virtual()).isTrue();
    // The declaration travels in the table's options and comes back the same.
    assertThat(TableColumns.of("clicks", table.schema(), columns.options()).columns())
        .isEqualTo(columns.columns());
    // The declared row as expressions over the read row: references and compiled expressions.
    assertThat(columns.expressions())
        .extracting(Object::toString)
        .containsExactly(
            "user_id#0",
            "url#1",
            "epoch_ms#2",
            columns.expressions().get(3).toString(),
            "kafka_ts#3",
            "part#4",
            "offset#5",
            columns.expressions().get(7).toString(),
            columns.expressions().get(8).toString());
    assertThat(columns.expressions().get(3).toString()).contains("to_timestamp_ltz", "#2");
    // What a scan of url and doubled reads: url, and user_id and part for doubled.
    assertThat(columns.narrowedTo(List.of("url", "doubled")).read().columns())
        .extracting(Column::name)
        .containsExactly("user_id", "url", "part");
    assertThat(columns.narrowedTo(List.of("ts")).schema().columns())
        .extracting(Column::name)
        .containsExactly("epoch_ms", "ts");
  }

  @Test
  void aComputedColumnMayReadAColumnDeclaredAfterItAndPhysicalColumnsStayPlain() {
    CreateTable table =
        create(
            "CREATE TABLE t (price2 AS price * 2, price DECIMAL(10, 2), kafka_ts TIMESTAMP(3)"
                + " METADATA FROM 'timestamp') WITH ('connector' = 'kafka')");
    assertThat(table.schema().columns())
        .extracting(Column::name)
        .containsExactly("price2", "price", "kafka_ts");
    assertThat(table.schema().column(0).type()).isEqualTo(SqlType.decimal(21, 2));
    assertThat(table.columns().column("kafka_ts").orElseThrow().virtual()).isFalse();
    assertThat(
            create("CREATE TABLE t (a INT) WITH ('connector' = 'kafka')").columns().allPhysical())
        .isTrue();
  }

  @Test
  void dropTable() {
    assertThat(DdlParser.parse("DROP TABLE t")).contains(new DropTable("t", false));
    assertThat(DdlParser.parse("drop temporary table if exists `my table`;"))
        .contains(new DropTable("my table", true));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          SELECT 1
          WITH x AS (SELECT 1) SELECT * FROM x
          CREATE VIEW v AS SELECT 1
          DROP VIEW v
          INSERT INTO t VALUES (1)
          ''
          """)
  void otherStatementsAreNotDdl(String sql) {
    assertThat(DdlParser.parse(sql == null ? "" : sql)).isEqualTo(Optional.empty());
  }
}
