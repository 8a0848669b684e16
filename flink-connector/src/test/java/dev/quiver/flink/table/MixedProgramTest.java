package dev.quiver.flink.table;

import static dev.quiver.flink.testing.FlinkTestJobs.batchEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.flink.batch.BatchRecord;
import dev.quiver.flink.batch.BatchTypeInfo;
import dev.quiver.flink.exchange.ChannelPartitioner;
import dev.quiver.flink.exchange.OutputSplit;
import dev.quiver.flink.stage.OneInputStageOperator;
import dev.quiver.flink.stage.StageTaskFactory;
import dev.quiver.flink.testing.FlinkTestJobs;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.exec.TaskPipeline;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One Flink program that mixes both worlds: a Flink SQL table → Quiver batches → a two-stage Quiver
 * hash aggregate (partial → hash shuffle → final) → a Flink table → a Flink SQL query.
 */
@ExtendWith(ArrowLeakCheck.class)
class MixedProgramTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestJobs.miniCluster();

  private static final int ROWS = 20_000;
  private static final int TASKS = 2;
  private static final List<AggregateCall> CALLS =
      List.of(
          AggregateCall.countStar("n"),
          call(AggregateFunction.SUM, 1, "total"),
          call(AggregateFunction.AVG, 1, "mean"),
          call(AggregateFunction.MIN, 2, "first_day"),
          call(AggregateFunction.MAX, 3, "last_at"),
          call(AggregateFunction.SUM, 4, "qty"));

  @Test
  void flinkSqlThroughAQuiverAggregateBackIntoFlinkSql() throws Exception {
    StreamExecutionEnvironment env = batchEnvironment();
    env.setParallelism(TASKS);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    tables.executeSql(
        "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen',"
            + " 'number-of-rows' = '"
            + ROWS
            + "', 'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
            + " 'fields.id.end' = '"
            + ROWS
            + "')");
    Table input =
        tables.sqlQuery(
            "SELECT CASE WHEN MOD(id, 13) = 0 THEN CAST(NULL AS STRING)"
                + "   ELSE CONCAT('k', CAST(MOD(id, 7) AS STRING)) END AS k,"
                + " CAST(CONCAT(CAST(id AS STRING), '.', LPAD(CAST(MOD(id, 100) AS STRING), 2, '0'))"
                + "   AS DECIMAL(15, 2)) AS amount,"
                + " CAST(TIMESTAMPADD(DAY, CAST(MOD(id, 1000) AS INT),"
                + "   TIMESTAMP '1995-01-01 00:00:00') AS DATE) AS d,"
                + " CAST(TIMESTAMPADD(SECOND, CAST(id AS INT),"
                + "   TIMESTAMP '2020-01-01 00:00:00.123456') AS TIMESTAMP(6)) AS at_time,"
                + " CAST(MOD(id, 50) AS INT) AS qty"
                + " FROM ids");

    DataStream<BatchRecord> batches = TableBridge.toBatches(tables, input);
    DataStream<BatchRecord> totals = aggregate(batches);
    tables.createTemporaryView("totals", TableBridge.toTable(tables, totals));
    List<Row> rows =
        TableBridgeTest.collect(
            tables.sqlQuery(
                "SELECT k, n, total, mean, first_day, first_day + INTERVAL '1' DAY AS next_day,"
                    + " last_at, qty FROM totals WHERE n > 1000 ORDER BY k"));

    assertThat(rows).isEqualTo(expected());
  }

  // SELECT k, count(*), sum(amount), avg(amount), min(d), max(at), sum(qty) GROUP BY k
  private static DataStream<BatchRecord> aggregate(DataStream<BatchRecord> batches) {
    Schema input = ((BatchTypeInfo) batches.getType()).schema();
    int[] key = {0};
    BatchTypeInfo partial =
        BatchTypeInfo.of(
            HashAggregateOperator.outputSchema(input, AggregateMode.PARTIAL, key, CALLS),
            "partial");
    BatchTypeInfo totals =
        BatchTypeInfo.of(
            HashAggregateOperator.outputSchema(
                partial.schema(), AggregateMode.FINAL, new int[] {0}, CALLS),
            "totals");
    return batches
        .transform(
            "quiver partial aggregate",
            partial,
            new OneInputStageOperator(
                stage((BatchTypeInfo) batches.getType(), AggregateMode.PARTIAL, key),
                OutputSplit.hash(new int[] {0}, TASKS)))
        .setParallelism(TASKS)
        .partitionCustom(new ChannelPartitioner(), ChannelPartitioner.CHANNEL)
        .transform(
            "quiver final aggregate",
            totals,
            new OneInputStageOperator(
                stage(partial, AggregateMode.FINAL, new int[] {0}), OutputSplit.none()))
        .setParallelism(TASKS);
  }

  // Captures the (serializable) edge type: an Arrow Schema is not Serializable.
  private static StageTaskFactory stage(BatchTypeInfo input, AggregateMode mode, int[] keys) {
    return (context, output) ->
        TaskPipeline.build(
            TaskPipeline.operator(
                sink -> new HashAggregateOperator(context, input.schema(), mode, keys, CALLS, sink),
                TaskPipeline.input(0)),
            output);
  }

  private static AggregateCall call(AggregateFunction function, int column, String name) {
    List<ArrowType> types =
        List.of(
            new ArrowType.Decimal(15, 2, 128),
            new ArrowType.Date(DateUnit.DAY),
            new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
            new ArrowType.Int(32, true));
    return AggregateCall.of(function, column, types.get(column - 1), name);
  }

  /** The same query in plain Java over the same generated rows. */
  private static List<Row> expected() {
    Map<String, Object[]> groups = new HashMap<>(); // the null key is a group too
    for (long id = 1; id <= ROWS; id++) {
      String k = id % 13 == 0 ? null : "k" + id % 7;
      BigDecimal amount = BigDecimal.valueOf(id * 100 + id % 100, 2);
      LocalDate day = LocalDate.of(1995, 1, 1).plusDays(id % 1000);
      LocalDateTime at = LocalDateTime.of(2020, 1, 1, 0, 0, 0, 123_456_000).plusSeconds(id);
      Object[] acc =
          groups.computeIfAbsent(k, g -> new Object[] {0L, BigDecimal.ZERO, day, at, 0L});
      acc[0] = (Long) acc[0] + 1;
      acc[1] = ((BigDecimal) acc[1]).add(amount);
      acc[2] = ((LocalDate) acc[2]).isBefore(day) ? acc[2] : day;
      acc[3] = ((LocalDateTime) acc[3]).isAfter(at) ? acc[3] : at;
      acc[4] = (Long) acc[4] + id % 50;
    }
    List<Row> rows = new ArrayList<>();
    groups.forEach((k, acc) -> rows.add(row(k, acc)));
    rows.removeIf(row -> (Long) row.getField(1) <= 1000);
    Comparator<String> nullsFirst = Comparator.nullsFirst(Comparator.naturalOrder());
    rows.sort(Comparator.comparing(row -> (String) row.getField(0), nullsFirst));
    assertThat(rows).hasSize(8);
    return rows;
  }

  private static Row row(String k, Object[] acc) {
    long n = (Long) acc[0];
    BigDecimal total = ((BigDecimal) acc[1]).setScale(2);
    BigDecimal mean = total.divide(BigDecimal.valueOf(n), 6, RoundingMode.HALF_UP);
    LocalDate first = (LocalDate) acc[2];
    return Row.of(k, n, total, mean, first, first.plusDays(1), acc[3], acc[4]);
  }
}
