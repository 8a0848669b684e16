package dev.quiver.operators.expr;

import static dev.quiver.plan.expr.Exprs.and;
import static dev.quiver.plan.expr.Exprs.between;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.date;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.intervalYears;
import static dev.quiver.plan.expr.Exprs.lit;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/** TPC-H lineitem-shaped test data and the Q1 / Q6 expressions over it. */
public final class Lineitems {
  public static final SqlType MONEY = SqlType.decimal(15, 2);
  public static final List<SqlType> TYPES = List.of(MONEY, MONEY, MONEY, MONEY, SqlType.DATE);
  public static final Expr QUANTITY = col(0, MONEY, "l_quantity");
  public static final Expr PRICE = col(1, MONEY, "l_extendedprice");
  public static final Expr DISCOUNT = col(2, MONEY, "l_discount");
  public static final Expr TAX = col(3, MONEY, "l_tax");
  public static final Expr SHIPDATE = col(4, SqlType.DATE, "l_shipdate");

  /** Q6's WHERE clause, written as the SQL text has it (constants unfolded). */
  public static final Expr Q6_PREDICATE =
      and(
          call(ScalarFunction.GREATER_THAN_OR_EQUAL, SHIPDATE, date("1994-01-01")),
          call(
              ScalarFunction.LESS_THAN,
              SHIPDATE,
              call(ScalarFunction.ADD, date("1994-01-01"), intervalYears(1))),
          between(
              DISCOUNT,
              call(ScalarFunction.SUBTRACT, decimal("0.06"), decimal("0.01")),
              call(ScalarFunction.ADD, decimal("0.06"), decimal("0.01"))),
          call(ScalarFunction.LESS_THAN, QUANTITY, lit(24)));

  /** Q1's {@code l_extendedprice * (1 - l_discount) * (1 + l_tax)}. */
  public static final Expr Q1_CHARGE =
      call(
          ScalarFunction.MULTIPLY,
          call(ScalarFunction.MULTIPLY, PRICE, call(ScalarFunction.SUBTRACT, lit(1), DISCOUNT)),
          call(ScalarFunction.ADD, lit(1), TAX));

  private Lineitems() {}

  /** {@code rows} random lineitems with TPC-H's value ranges; a few NULLs if {@code nulls}. */
  public static VectorSchemaRoot batch(
      BufferAllocator allocator, int rows, long seed, boolean nulls) {
    Random random = new Random(seed);
    List<List<Object>> values = new ArrayList<>(rows);
    for (int i = 0; i < rows; i++) {
      List<Object> row =
          Arrays.asList(
              BigDecimal.valueOf(1 + random.nextInt(50), 0).setScale(2),
              BigDecimal.valueOf(90_000 + random.nextInt(10_400_000), 2),
              BigDecimal.valueOf(random.nextInt(11), 2),
              BigDecimal.valueOf(random.nextInt(9), 2),
              LocalDate.of(1992, 1, 2).plusDays(random.nextInt(2526)));
      if (nulls && random.nextInt(20) == 0) {
        row.set(random.nextInt(5), null);
      }
      values.add(row);
    }
    return ExprCheck.batch(allocator, TYPES, values);
  }
}
