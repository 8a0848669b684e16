package dev.quiver.benchmarks;

import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.join.HashJoinOperator;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.join.JoinKind;
import dev.quiver.plan.join.JoinType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
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
 * An orders ⋈ lineitem hash join (about 1.5M build rows with unique int64 keys, 6M probe rows with
 * about 4 matches per order, every probe row matching) in Quiver and in DuckDB on the same data:
 *
 * <pre>
 *   SELECT count(*), sum(l_extendedprice), max(o_custkey), max(o_orderdate), sum(o_totalprice)
 *   FROM lineitem JOIN orders ON l_orderkey = o_orderkey
 *
 *   orders   (build, input 0) ─┐
 *                               ├─► HashJoin[INNER] ─► HashAggregate[SINGLE, 5 aggregates] ─► 1 row
 *   lineitem (probe, input 1) ─┘   (6 output columns: l_orderkey, l_extendedprice, o_*)
 * </pre>
 *
 * The aggregate is there to make both engines materialize the joined columns: a bare {@code
 * count(*)} would let DuckDB prune the build payload, while Quiver's join gathers every column of
 * both inputs. Setup fails unless all five values agree. {@code :rows} counts build plus probe rows
 * per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class HashJoinBenchmark {
  private static final Logger LOG = LoggerFactory.getLogger(HashJoinBenchmark.class);
  static final List<String> COLUMNS = List.of("l_orderkey", "l_extendedprice");
  static final String SQL =
      "SELECT count(*), sum(l_extendedprice), max(o_custkey), max(o_orderdate),"
          + " sum(o_totalprice) FROM lineitem JOIN orders ON l_orderkey = o_orderkey";
  private static final JoinKind INNER = JoinKind.of(JoinType.INNER);

  /** Probe (lineitem) rows; the build side has the orders of those lines, about a quarter. */
  @Param({"6001215"})
  public int rows;

  private QueryData data;
  private PreparedStatement query;
  private Schema joined;
  private List<AggregateCall> calls;
  private long inputRows;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    data = QueryData.load("join", rows, COLUMNS, true);
    inputRows = data.tables.lineitemRows + data.tables.ordersRows;
    joined = JoinType.INNER.outputSchema(data.tables.lineitemSchema, TpchData.ORDERS_SCHEMA);
    calls =
        List.of(
            AggregateCall.countStar("count"),
            aggregate(AggregateFunction.SUM, "l_extendedprice"),
            aggregate(AggregateFunction.MAX, "o_custkey"),
            aggregate(AggregateFunction.MAX, "o_orderdate"),
            aggregate(AggregateFunction.SUM, "o_totalprice"));
    query = data.duckdb.connection.prepareStatement(SQL);
    verify();
  }

  private AggregateCall aggregate(AggregateFunction function, String column) {
    int index = joined.getFields().indexOf(joined.findField(column));
    return AggregateCall.of(
        function, index, joined.getFields().get(index).getType(), function + "_" + column);
  }

  @SuppressWarnings("try") // the data is named only to be closed after the query
  @TearDown(Level.Trial)
  public void tearDown() throws SQLException {
    try (QueryData d = data) {
      if (query != null) {
        query.close();
      }
    }
  }

  /** Runs the join; returns its number of output rows. */
  @Benchmark
  public long quiver(InputRows counter) {
    counter.start();
    List<VectorSchemaRoot> out = new ArrayList<>(1);
    try {
      run(out);
      counter.count(inputRows);
      return (Long) out.get(0).getVector(0).getObject(0);
    } finally {
      out.forEach(VectorSchemaRoot::close);
    }
  }

  @Benchmark
  public long duckdb(InputRows counter) throws SQLException {
    counter.start();
    try (ResultSet result = query.executeQuery()) {
      result.next();
      counter.count(inputRows);
      return result.getLong(1);
    }
  }

  private void run(List<VectorSchemaRoot> out) {
    OperatorContext context = OperatorContext.of(data.allocator);
    try (HashAggregateOperator aggregate =
            new HashAggregateOperator(
                context, joined, AggregateMode.SINGLE, new int[0], calls, out::add);
        HashJoinOperator join =
            new HashJoinOperator(
                context,
                INNER,
                TpchData.ORDERS_SCHEMA,
                new int[] {0},
                data.tables.lineitemSchema,
                new int[] {0},
                null,
                b -> aggregate.add(0, b))) {
      Driver.push(join, 0, data.tables.orders, data.allocator);
      Driver.push(join, 1, data.tables.lineitem, data.allocator);
      aggregate.finish(0);
    }
  }

  /** Compares the five values of both engines; fails the trial on any difference. */
  private void verify() throws SQLException {
    List<Object> quiver = new ArrayList<>();
    List<VectorSchemaRoot> out = new ArrayList<>(1);
    try {
      run(out);
      for (FieldVector vector : out.get(0).getFieldVectors()) {
        quiver.add(vector.getObject(0));
      }
    } finally {
      out.forEach(VectorSchemaRoot::close);
    }
    List<Object> duckdb = new ArrayList<>();
    try (ResultSet result = query.executeQuery()) {
      result.next();
      duckdb.add(result.getLong(1));
      duckdb.add(result.getBigDecimal(2));
      duckdb.add(result.getLong(3));
      duckdb.add((int) result.getObject(4, LocalDate.class).toEpochDay());
      duckdb.add(result.getBigDecimal(5));
    }
    LOG.info("join: Quiver {}, DuckDB {}, expected count {}", quiver, duckdb, rows);
    if (!quiver.equals(duckdb) || (Long) quiver.get(0) != rows) {
      throw new IllegalStateException("join: Quiver says " + quiver + ", DuckDB says " + duckdb);
    }
  }
}
