package dev.quiver.benchmarks;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.sort.SortOperator;
import dev.quiver.plan.sort.SortKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A full sort of lineitem (all 16 columns, 6M rows) on two keys, {@code l_shipdate ASC, l_orderkey
 * DESC}, in Quiver and in DuckDB on the same data. The keys are a low-cardinality date (about 2,500
 * values, ~2,400 rows each) refined by a high-cardinality int64 in the other direction, so the sort
 * must order by both; rows arrive in order-key order, not in key order.
 *
 * <pre>
 *   Quiver: batches ─► Sort[#10 ASC, #0 DESC] ─► 8,192-row batches of all 16 columns ─► closed
 *   DuckDB: CREATE OR REPLACE TEMP TABLE sorted AS
 *           SELECT * FROM lineitem ORDER BY l_shipdate, l_orderkey DESC
 * </pre>
 *
 * Both materialize every column of every row in key order: Quiver gathers its output batches (and
 * the sink closes them), DuckDB writes them into an in-memory temporary table (and frees the
 * previous run's). Reading the result over JDBC instead would measure JDBC's row-at-a-time
 * conversion, not the sort. Setup fails unless Quiver's output is in key order, has every row, and
 * agrees with DuckDB's on the keys of every 1,000th row (keys only: rows with equal keys may come
 * in any order).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class SortBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(SortBenchmark.class);
  private static final int SHIPDATE = TpchData.lineitemColumn("l_shipdate");
  private static final int ORDERKEY = TpchData.lineitemColumn("l_orderkey");
  static final List<SortKey> KEYS = List.of(SortKey.asc(SHIPDATE), SortKey.desc(ORDERKEY));
  static final String SQL =
      "CREATE OR REPLACE TEMP TABLE sorted AS"
          + " SELECT * FROM lineitem ORDER BY l_shipdate, l_orderkey DESC";
  private static final int SAMPLE = 1_000;

  @Param({"6001215"})
  public int rows;

  private QueryData data;
  private Statement statement;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    List<String> columns =
        LineitemBatch.SCHEMA.getFields().stream().map(Field::getName).collect(Collectors.toList());
    data = QueryData.load("sort", rows, columns, false);
    statement = data.duckdb.connection.createStatement();
    verify();
  }

  @SuppressWarnings("try") // the data is named only to be closed after the query
  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    try (QueryData d = data) {
      if (statement != null) {
        statement.close();
      }
    }
  }

  /** Sorts; returns the number of rows emitted. */
  @Benchmark
  public long quiver(InputRows counter) {
    counter.start();
    long[] emitted = new long[1];
    run(
        batch -> {
          emitted[0] += batch.getRowCount();
          batch.close();
        });
    counter.count(rows);
    return emitted[0];
  }

  @Benchmark
  public int duckdb(InputRows counter) throws SQLException {
    counter.start();
    statement.execute(SQL);
    counter.count(rows);
    return statement.getUpdateCount();
  }

  private void run(BatchSink sink) {
    try (SortOperator sort =
        new SortOperator(
            OperatorContext.of(data.allocator), data.tables.lineitemSchema, KEYS, sink)) {
      Driver.run(data.tables.lineitem, data.allocator, sort);
    }
  }

  /** Checks Quiver's order and row count, and the sampled keys of both engines. */
  private void verify() throws SQLException {
    List<Long> quiver = new ArrayList<>();
    long[] state = {0, Long.MIN_VALUE, Long.MIN_VALUE}; // rows seen, previous date, previous key
    run(
        batch -> {
          try (batch) {
            DateDayVector dates = (DateDayVector) batch.getVector(SHIPDATE);
            BigIntVector keys = (BigIntVector) batch.getVector(ORDERKEY);
            for (int row = 0; row < batch.getRowCount(); row++, state[0]++) {
              int date = dates.get(row);
              long key = keys.get(row);
              if (date < state[1] || date == state[1] && key > state[2]) {
                throw new IllegalStateException(
                    "sort: Quiver's row " + state[0] + " is out of order: " + date + ", " + key);
              }
              state[1] = date;
              state[2] = key;
              if (state[0] % SAMPLE == 0) {
                quiver.add(sampleKey(date, key));
              }
            }
          }
        });
    statement.execute(SQL);
    List<Long> duckdb = new ArrayList<>();
    long duckdbRows;
    try (ResultSet result =
        statement.executeQuery(
            "SELECT l_shipdate, l_orderkey FROM sorted WHERE rowid % "
                + SAMPLE
                + " = 0"
                + " ORDER BY rowid")) {
      while (result.next()) {
        int date = (int) result.getObject(1, LocalDate.class).toEpochDay();
        duckdb.add(sampleKey(date, result.getLong(2)));
      }
    }
    try (ResultSet result = statement.executeQuery("SELECT count(*) FROM sorted")) {
      result.next();
      duckdbRows = result.getLong(1);
    }
    LOG.info(
        "sort: Quiver {} rows, DuckDB {} rows; {} sampled keys, equal: {}",
        state[0],
        duckdbRows,
        quiver.size(),
        quiver.equals(duckdb));
    if (state[0] != rows || duckdbRows != rows || !quiver.equals(duckdb)) {
      throw new IllegalStateException(
          "sort: Quiver and DuckDB differ (rows " + state[0] + " vs " + duckdbRows + ")");
    }
  }

  private static long sampleKey(int date, long orderKey) {
    return (long) date << 40 | orderKey; // order keys of SF1 stay below 2^40
  }
}
