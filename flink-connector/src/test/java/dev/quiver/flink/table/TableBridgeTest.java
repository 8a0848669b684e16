package dev.quiver.flink.table;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.runtime.BatchResults;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Flink tables into Arrow batches and back, on a MiniCluster, values compared exactly. */
@ExtendWith(ArrowLeakCheck.class)
class TableBridgeTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final DataType ALL_TYPES =
      DataTypes.ROW(
          FIELD("id", DataTypes.BIGINT().notNull()),
          FIELD("i8", DataTypes.TINYINT()),
          FIELD("i16", DataTypes.SMALLINT()),
          FIELD("i32", DataTypes.INT()),
          FIELD("flag", DataTypes.BOOLEAN()),
          FIELD("f32", DataTypes.FLOAT()),
          FIELD("f64", DataTypes.DOUBLE()),
          FIELD("money", DataTypes.DECIMAL(15, 2)),
          FIELD("wide", DataTypes.DECIMAL(38, 10)),
          FIELD("name", DataTypes.STRING()),
          FIELD("code", DataTypes.VARCHAR(5)),
          FIELD("day", DataTypes.DATE()),
          FIELD("at", DataTypes.TIMESTAMP(6)));

  private static final List<Row> ROWS =
      List.of(
          Row.of(
              1L,
              (byte) -128,
              (short) 32767,
              Integer.MIN_VALUE,
              true,
              1.5f,
              -2.25,
              new BigDecimal("9999999999999.99"),
              new BigDecimal("-1234567890123456789012345678.0123456789"),
              "héllo",
              "ab",
              LocalDate.of(1969, 12, 31),
              LocalDateTime.of(1960, 1, 2, 3, 4, 5, 123_456_000)),
          Row.of(2L, null, null, null, null, null, null, null, null, null, null, null, null),
          Row.of(
              3L,
              (byte) 7,
              (short) -1,
              42,
              false,
              Float.MAX_VALUE,
              Double.MIN_VALUE,
              new BigDecimal("-0.01"),
              new BigDecimal("0.0000000001"),
              "",
              "xyzzy",
              LocalDate.of(2262, 4, 11),
              LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_000)));

  @Test
  void rowsBecomeBatchesOfTheTableSchema(BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    env.setParallelism(1);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    DataStream<BatchRecord> batches =
        TableBridge.toBatches(tables, tables.fromValues(ALL_TYPES, ROWS), 2);

    List<Integer> sizes = new ArrayList<>();
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<BatchRecord> records =
        BatchResults.collect(batches, allocator, "to batches")) {
      while (records.hasNext()) {
        try (BatchRecord record = records.next()) {
          sizes.add(record.rowCount());
          rows.addAll(BatchRows.rows(record.batch()));
        }
      }
    }
    assertThat(sizes).containsExactly(2, 1);
    rows.sort(Comparator.comparing(row -> (Long) row.get(0)));
    List<Object> first = rows.get(0);
    assertThat(first.get(7)).isEqualTo(new BigDecimal("9999999999999.99"));
    assertThat(first.get(8)).isEqualTo(new BigDecimal("-1234567890123456789012345678.0123456789"));
    assertThat(first.get(11)).isEqualTo(-1); // DATE as days since the epoch
    assertThat(first.get(12)).isEqualTo(LocalDateTime.of(1960, 1, 2, 3, 4, 5, 123_456_000));
    assertThat(rows.get(1).subList(1, 13)).containsOnlyNulls();
  }

  @Test
  void aTableSurvivesTheRoundTripThroughArrow() throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    Table back =
        TableBridge.toTable(
            tables, TableBridge.toBatches(tables, tables.fromValues(ALL_TYPES, ROWS)));

    assertThat(back.getResolvedSchema().toPhysicalRowDataType().getLogicalType().asSummaryString())
        .isEqualTo(
            "ROW<`id` BIGINT NOT NULL, `i8` TINYINT, `i16` SMALLINT, `i32` INT,"
                + " `flag` BOOLEAN, `f32` FLOAT, `f64` DOUBLE, `money` DECIMAL(15, 2),"
                + " `wide` DECIMAL(38, 10), `name` STRING, `code` STRING, `day` DATE,"
                + " `at` TIMESTAMP(6)> NOT NULL");
    tables.createTemporaryView("back", back);
    List<Row> rows = collect(tables.sqlQuery("SELECT * FROM back ORDER BY id"));
    assertThat(rows).isEqualTo(ROWS);
  }

  @Test
  void aDataStreamOfInternalRowsBecomesBatches(BufferAllocator allocator) throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    RowType type =
        (RowType)
            DataTypes.ROW(
                    FIELD("id", DataTypes.BIGINT().notNull()),
                    FIELD("name", DataTypes.STRING()),
                    FIELD("money", DataTypes.DECIMAL(15, 2)))
                .getLogicalType();
    DataStream<RowData> rows =
        env.fromSequence(1, 5)
            .setParallelism(2)
            .map(
                id ->
                    (RowData)
                        GenericRowData.of(
                            id,
                            id == 3 ? null : StringData.fromString("n" + id),
                            DecimalData.fromBigDecimal(BigDecimal.valueOf(id * 101, 2), 15, 2)))
            .returns(InternalTypeInfo.of(type))
            .setParallelism(2);

    DataStream<BatchRecord> batches = TableBridge.toBatches(rows, type, 2);

    assertThat(batches.getParallelism()).isEqualTo(2);
    List<List<Object>> back = FlinkTestJobs.collectRows(batches, allocator);
    back.sort(Comparator.comparing(row -> (Long) row.get(0)));
    assertThat(back)
        .containsExactly(
            List.of(1L, "n1", new BigDecimal("1.01")),
            List.of(2L, "n2", new BigDecimal("2.02")),
            java.util.Arrays.asList(3L, null, new BigDecimal("3.03")),
            List.of(4L, "n4", new BigDecimal("4.04")),
            List.of(5L, "n5", new BigDecimal("5.05")));
  }

  @Test
  void aColumnWithoutAnArrowTypeIsRejectedByName() {
    StreamTableEnvironment tables = StreamTableEnvironment.create(batchEnvironment());
    Table table =
        tables.fromValues(
            DataTypes.ROW(FIELD("id", DataTypes.BIGINT()), FIELD("tags", DataTypes.BYTES())),
            Row.of(1L, new byte[] {1}));
    assertThatThrownBy(() -> TableBridge.toBatches(tables, table))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_TYPE))
        .hasMessageContaining("Column 'tags'");
  }

  static List<Row> collect(Table table) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> result = table.execute().collect()) {
      result.forEachRemaining(rows::add);
    }
    return rows;
  }
}
