package dev.quiver.benchmarks;

import static dev.quiver.plan.expr.Exprs.DECIMAL_15_2;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.date;
import static dev.quiver.plan.expr.Exprs.lit;

import dev.quiver.operators.BatchSink;
import dev.quiver.operators.OperatorContext;
import dev.quiver.operators.aggregate.HashAggregateOperator;
import dev.quiver.operators.scalar.FilterOperator;
import dev.quiver.operators.scalar.ProjectionOperator;
import dev.quiver.plan.aggregate.AggregateCall;
import dev.quiver.plan.aggregate.AggregateFunction;
import dev.quiver.plan.aggregate.AggregateMode;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * A TPC-H Q1-shaped group-by (4 groups, 8 aggregates) in Quiver and in DuckDB on the same data:
 *
 * <pre>
 *   SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),
 *          sum(l_extendedprice * (1 - l_discount)),
 *          sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),
 *          avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
 *   FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus
 *
 *   Quiver: batches ─► Filter ─► Project[flag, status, qty, price, disc_price, charge, disc]
 *                  ─► HashAggregate[SINGLE, keys=[#0, #1], 8 aggregates] ─► 4 rows
 * </pre>
 *
 * The projection computes {@code price * (1 - disc)} twice, as a planner without common
 * subexpression elimination emits it. No ORDER BY: both engines return the 4 groups unordered.
 * Setup fails unless every value agrees: sums and counts exactly, averages within 10^-6 (Quiver's
 * AVG of a decimal is an exact decimal rounded to 6 places, DuckDB's a double).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class Q1Benchmark {
  private static final Logger LOG = LoggerFactory.getLogger(Q1Benchmark.class);
  static final List<String> COLUMNS =
      List.of(
          "l_quantity",
          "l_extendedprice",
          "l_discount",
          "l_tax",
          "l_returnflag",
          "l_linestatus",
          "l_shipdate");
  static final String SQL =
      "SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),"
          + " sum(l_extendedprice * (1 - l_discount)),"
          + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)),"
          + " avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)"
          + " FROM lineitem WHERE l_shipdate <= DATE '1998-09-02'"
          + " GROUP BY l_returnflag, l_linestatus";
  private static final int AGGREGATES = 8;
  private static final int FIRST_AVG = 4;
  private static final int COUNT = 7;

  @Param({"6001215"})
  public int rows;

  private QueryData data;
  private PreparedStatement query;
  private Expr predicate;
  private List<Expr> projections;
  private List<String> names;
  private Schema projected;
  private List<AggregateCall> calls;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    data = QueryData.load("q1", rows, COLUMNS, false);
    Expr quantity = col(0, DECIMAL_15_2, "l_quantity");
    Expr price = col(1, DECIMAL_15_2, "l_extendedprice");
    Expr discount = col(2, DECIMAL_15_2, "l_discount");
    Expr tax = col(3, DECIMAL_15_2, "l_tax");
    Expr shipdate = col(6, SqlType.DATE, "l_shipdate");
    predicate = call(ScalarFunction.LESS_THAN_OR_EQUAL, shipdate, date("1998-09-02"));
    Expr discPrice =
        call(ScalarFunction.MULTIPLY, price, call(ScalarFunction.SUBTRACT, lit(1), discount));
    projections =
        List.of(
            col(4, SqlType.VARCHAR, "l_returnflag"),
            col(5, SqlType.VARCHAR, "l_linestatus"),
            quantity,
            price,
            discPrice,
            call(ScalarFunction.MULTIPLY, discPrice, call(ScalarFunction.ADD, lit(1), tax)),
            discount);
    names =
        List.of(
            "l_returnflag",
            "l_linestatus",
            "l_quantity",
            "l_extendedprice",
            "disc_price",
            "charge",
            "l_discount");
    try (ProjectionOperator probe =
        projection(OperatorContext.of(data.allocator), VectorSchemaRoot::close)) {
      projected = probe.schema();
    }
    calls =
        List.of(
            aggregate(AggregateFunction.SUM, 2, "sum_qty"),
            aggregate(AggregateFunction.SUM, 3, "sum_base_price"),
            aggregate(AggregateFunction.SUM, 4, "sum_disc_price"),
            aggregate(AggregateFunction.SUM, 5, "sum_charge"),
            aggregate(AggregateFunction.AVG, 2, "avg_qty"),
            aggregate(AggregateFunction.AVG, 3, "avg_price"),
            aggregate(AggregateFunction.AVG, 6, "avg_disc"),
            AggregateCall.countStar("count_order"));
    query = data.duckdb.connection.prepareStatement(SQL);
    verify();
  }

  private AggregateCall aggregate(AggregateFunction function, int column, String name) {
    return AggregateCall.of(function, column, projected.getFields().get(column).getType(), name);
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

  /** Runs the query; returns the number of groups. */
  @Benchmark
  public int quiver(InputRows counter) {
    counter.start();
    List<VectorSchemaRoot> out = new ArrayList<>(1);
    try {
      run(out);
      counter.count(rows);
      return out.stream().mapToInt(VectorSchemaRoot::getRowCount).sum();
    } finally {
      out.forEach(VectorSchemaRoot::close);
    }
  }

  /** Runs the query and reads every value (as the JDBC client of a 4-row result would). */
  @Benchmark
  public int duckdb(InputRows counter) throws SQLException {
    counter.start();
    int groups = 0;
    long checksum = 0;
    try (ResultSet result = query.executeQuery()) {
      while (result.next()) {
        groups++;
        checksum += result.getLong(2 + AGGREGATES);
      }
    }
    counter.count(rows);
    return groups + (int) (checksum & 1);
  }

  private void run(List<VectorSchemaRoot> out) {
    OperatorContext context = OperatorContext.of(data.allocator);
    try (HashAggregateOperator aggregate =
            new HashAggregateOperator(
                context, projected, AggregateMode.SINGLE, new int[] {0, 1}, calls, out::add);
        ProjectionOperator project = projection(context, b -> aggregate.add(0, b));
        FilterOperator filter = new FilterOperator(context, predicate, b -> project.add(0, b))) {
      Driver.run(data.tables.lineitem, data.allocator, filter, project, aggregate);
    }
  }

  private ProjectionOperator projection(OperatorContext context, BatchSink sink) {
    return new ProjectionOperator(context, projections, names, sink);
  }

  /** Compares every value of both engines' answers; fails the trial on any difference. */
  private void verify() throws SQLException {
    Map<String, List<Object>> quiver = new TreeMap<>();
    List<VectorSchemaRoot> out = new ArrayList<>(1);
    try {
      run(out);
      for (VectorSchemaRoot batch : out) {
        List<FieldVector> vectors = batch.getFieldVectors();
        for (int row = 0; row < batch.getRowCount(); row++) {
          List<Object> values = new ArrayList<>(AGGREGATES);
          for (int c = 2; c < 2 + AGGREGATES; c++) {
            values.add(vectors.get(c).getObject(row));
          }
          quiver.put(vectors.get(0).getObject(row) + "|" + vectors.get(1).getObject(row), values);
        }
      }
    } finally {
      out.forEach(VectorSchemaRoot::close);
    }
    Map<String, List<Object>> duckdb = new TreeMap<>();
    try (ResultSet result = query.executeQuery()) {
      while (result.next()) {
        List<Object> values = new ArrayList<>(AGGREGATES);
        for (int c = 3; c < 3 + AGGREGATES; c++) {
          values.add(result.getObject(c));
        }
        duckdb.put(result.getString(1) + "|" + result.getString(2), values);
      }
    }
    LOG.info("Q1 Quiver: {}", quiver);
    LOG.info("Q1 DuckDB: {}", duckdb);
    if (!quiver.keySet().equals(duckdb.keySet())) {
      throw new IllegalStateException("Q1 groups differ: " + quiver + " vs " + duckdb);
    }
    for (Map.Entry<String, List<Object>> group : quiver.entrySet()) {
      List<Object> theirs = duckdb.get(group.getKey());
      for (int c = 0; c < AGGREGATES; c++) {
        Object ours = group.getValue().get(c);
        Object expected = theirs.get(c);
        if (!agree(c, ours, expected)) {
          throw new IllegalStateException(
              "Q1 group "
                  + group.getKey()
                  + ", aggregate "
                  + calls.get(c)
                  + ": Quiver "
                  + ours
                  + ", DuckDB "
                  + expected);
        }
      }
    }
  }

  private static boolean agree(int aggregate, Object ours, Object expected) {
    if (aggregate == COUNT) {
      return ((Number) ours).longValue() == ((Number) expected).longValue();
    }
    BigDecimal value = (BigDecimal) ours;
    if (aggregate >= FIRST_AVG) {
      return value.subtract(new BigDecimal(((Number) expected).doubleValue())).abs().doubleValue()
          <= 1e-6;
    }
    return value.compareTo((BigDecimal) expected) == 0;
  }
}
