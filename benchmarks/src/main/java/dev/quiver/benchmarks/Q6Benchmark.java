package dev.quiver.benchmarks;

import static dev.quiver.plan.expr.Exprs.DECIMAL_15_2;
import static dev.quiver.plan.expr.Exprs.and;
import static dev.quiver.plan.expr.Exprs.between;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.date;
import static dev.quiver.plan.expr.Exprs.decimal;
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
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.DecimalVector;
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
 * TPC-H Q6 over in-memory lineitem batches, in Quiver and in DuckDB on the same data:
 *
 * <pre>
 *   SELECT sum(l_extendedprice * l_discount) FROM lineitem
 *   WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
 *     AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24
 *
 *   Quiver: batches ─► Filter ─► Project[price * disc] ─► HashAggregate[SINGLE, sum] ─► 1 row
 * </pre>
 *
 * The batches hold only the four columns the query reads, as a scan with projection would deliver
 * them. Setup fails unless both engines return exactly the same sum. Score: queries per second;
 * {@code :rows} is lineitem rows per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/java.nio=ALL-UNNAMED")
@State(Scope.Benchmark)
public class Q6Benchmark {
  private static final Logger LOG = LoggerFactory.getLogger(Q6Benchmark.class);
  static final List<String> COLUMNS =
      List.of("l_quantity", "l_extendedprice", "l_discount", "l_shipdate");
  static final String SQL =
      "SELECT sum(l_extendedprice * l_discount) FROM lineitem"
          + " WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'"
          + " AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24";

  @Param({"6001215"})
  public int rows;

  private QueryData data;
  private PreparedStatement query;
  private Expr predicate;
  private List<Expr> projections;
  private Schema projected;
  private List<AggregateCall> calls;

  @Setup(Level.Trial)
  public void setUp() throws SQLException {
    data = QueryData.load("q6", rows, COLUMNS, false);
    Expr quantity = col(0, DECIMAL_15_2, "l_quantity");
    Expr price = col(1, DECIMAL_15_2, "l_extendedprice");
    Expr discount = col(2, DECIMAL_15_2, "l_discount");
    Expr shipdate = col(3, SqlType.DATE, "l_shipdate");
    predicate =
        and(
            call(ScalarFunction.GREATER_THAN_OR_EQUAL, shipdate, date("1994-01-01")),
            call(ScalarFunction.LESS_THAN, shipdate, date("1995-01-01")),
            between(discount, decimal("0.05"), decimal("0.07")),
            call(ScalarFunction.LESS_THAN, quantity, lit(24)));
    projections = List.of(call(ScalarFunction.MULTIPLY, price, discount));
    try (ProjectionOperator probe =
        projection(OperatorContext.of(data.allocator), VectorSchemaRoot::close)) {
      projected = probe.schema();
    }
    calls =
        List.of(
            AggregateCall.of(
                AggregateFunction.SUM, 0, projected.getFields().get(0).getType(), "revenue"));
    query = data.duckdb.connection.prepareStatement(SQL);
    BigDecimal quiver = quiver(new InputRows());
    BigDecimal duckdb = duckdb(new InputRows());
    LOG.info("Q6 revenue: Quiver {}, DuckDB {}", quiver, duckdb);
    if (quiver == null || quiver.compareTo(duckdb) != 0) {
      throw new IllegalStateException("Q6: Quiver says " + quiver + ", DuckDB says " + duckdb);
    }
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

  @Benchmark
  public BigDecimal quiver(InputRows counter) {
    counter.start();
    List<VectorSchemaRoot> out = new ArrayList<>(1);
    OperatorContext context = OperatorContext.of(data.allocator);
    try (HashAggregateOperator aggregate =
            new HashAggregateOperator(
                context, projected, AggregateMode.SINGLE, new int[0], calls, out::add);
        ProjectionOperator project = projection(context, b -> aggregate.add(0, b));
        FilterOperator filter = new FilterOperator(context, predicate, b -> project.add(0, b))) {
      Driver.run(data.tables.lineitem, data.allocator, filter, project, aggregate);
      counter.count(rows);
      return ((DecimalVector) out.get(0).getVector(0)).getObject(0);
    } finally {
      out.forEach(VectorSchemaRoot::close);
    }
  }

  @Benchmark
  public BigDecimal duckdb(InputRows counter) throws SQLException {
    counter.start();
    try (ResultSet result = query.executeQuery()) {
      result.next();
      counter.count(rows);
      return result.getBigDecimal(1);
    }
  }

  private ProjectionOperator projection(OperatorContext context, BatchSink sink) {
    return new ProjectionOperator(context, projections, List.of("revenue_term"), sink);
  }
}
