package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Columns.DEC15;
import static dev.quiver.operators.expr.Columns.DEC38;
import static dev.quiver.operators.expr.Columns.F32;
import static dev.quiver.operators.expr.Columns.F64;
import static dev.quiver.operators.expr.Columns.I16;
import static dev.quiver.operators.expr.Columns.I32;
import static dev.quiver.operators.expr.Columns.I64;
import static dev.quiver.operators.expr.Columns.I8;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.caseWhen;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.Exprs.when;
import static dev.quiver.plan.expr.ScalarFunction.ABS;
import static dev.quiver.plan.expr.ScalarFunction.ADD;
import static dev.quiver.plan.expr.ScalarFunction.DIVIDE;
import static dev.quiver.plan.expr.ScalarFunction.MODULO;
import static dev.quiver.plan.expr.ScalarFunction.MULTIPLY;
import static dev.quiver.plan.expr.ScalarFunction.NEGATE;
import static dev.quiver.plan.expr.ScalarFunction.ROUND;
import static dev.quiver.plan.expr.ScalarFunction.SUBTRACT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArrowLeakCheck.class)
class ArithmeticTest {
  private static final List<ScalarFunction> OPS = List.of(ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO);
  private static final int[] SIZES = {0, 1, 1000, 65536};
  private static final int BIG = 65536;

  /** Small values (0..999, occasional zeros) and full-range values, 10% nulls everywhere. */
  private static void checkAll(List<Expr> exprs, BufferAllocator allocator) {
    long seed = 1;
    for (int size : SIZES) {
      for (boolean small : new boolean[] {true, false}) {
        RandomBatches random = new RandomBatches(seed++);
        if (small) {
          random.distinctValues(1000);
        }
        if (size == BIG && !small) {
          continue; // one 64K-row batch per expression is enough; the reference is slow
        }
        int rows = size;
        try (VectorSchemaRoot batch = random.batch(RandomBatches.ALL_TYPES, rows, allocator)) {
          for (Expr expr : exprs) {
            ExprCheck.check(expr, batch, allocator);
          }
        }
      }
    }
  }

  @Test
  void integerArithmeticMatchesReference(BufferAllocator allocator) {
    List<Expr[]> pairs =
        List.of(
            new Expr[] {I32, I32},
            new Expr[] {I8, I16},
            new Expr[] {I64, I32},
            new Expr[] {I64, I64},
            new Expr[] {I32, lit(7)},
            new Expr[] {lit(1000L), I8});
    for (ScalarFunction op : OPS) {
      for (Expr[] pair : pairs) {
        checkAll(List.of(call(op, pair[0], pair[1])), allocator);
      }
    }
  }

  @Test
  void floatArithmeticMatchesReference(BufferAllocator allocator) {
    for (ScalarFunction op : OPS) {
      checkAll(
          List.of(
              call(op, F32, F32), call(op, F64, F32), call(op, F64, I32), call(op, F32, lit(2.5))),
          allocator);
    }
  }

  @Test
  void decimalArithmeticMatchesReference(BufferAllocator allocator) {
    for (ScalarFunction op : OPS) {
      checkAll(
          List.of(
              call(op, DEC15, DEC15),
              call(op, DEC15, I32),
              call(op, I64, DEC15),
              call(op, DEC38, DEC15),
              call(op, DEC38, DEC38),
              call(op, DEC15, decimal("0.07"))),
          allocator);
    }
  }

  @Test
  void unaryFunctionsMatchReference(BufferAllocator allocator) {
    checkAll(
        List.of(
            call(NEGATE, I32),
            call(NEGATE, I64),
            call(NEGATE, F64),
            call(NEGATE, DEC38),
            call(ABS, I8),
            call(ABS, I64),
            call(ABS, F32),
            call(ABS, DEC15),
            call(ROUND, DEC15),
            call(ROUND, DEC15, lit(1)),
            call(ROUND, DEC38, lit(3)),
            call(ROUND, DEC38, lit(-2)),
            call(ROUND, I32, lit(-1)),
            call(ROUND, I64, lit(2)),
            call(ROUND, F64, lit(0)),
            call(ROUND, F64, lit(2))),
        allocator);
  }

  @Test
  void divisionByZeroNamesTheExpressionAndRow(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.INTEGER, SqlType.INTEGER),
            List.of(List.of(1L, 1L), java.util.Arrays.asList(5L, null), List.of(7L, 0L)))) {
      Expr expr = call(DIVIDE, col(0, SqlType.INTEGER, "a"), col(1, SqlType.INTEGER, "b"));
      assertThatThrownBy(() -> ExpressionCompiler.compile(expr).evaluate(batch, allocator).close())
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO))
          .hasMessage("[DIVISION_BY_ZERO] division by zero in (a#0 / b#1) at row 2");
    }
  }

  @Test
  void decimalOverflowNamesTheExpression(BufferAllocator allocator) {
    BigDecimal big = new BigDecimal("9999999999999999999999999999.9999999999"); // 38 digits
    SqlType type = SqlType.decimal(38, 10);
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator, List.of(type), ExprCheck.column(BigDecimal.ONE.setScale(10), big))) {
      Expr product = call(MULTIPLY, col(0, type), lit(1_000_000));
      assertThat(product.sqlType()).isEqualTo(SqlType.decimal(38, 6));
      assertThatThrownBy(
              () -> ExpressionCompiler.compile(product).evaluate(batch, allocator).close())
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW))
          .hasMessageContaining("(#0 * 1000000)")
          .hasMessageContaining("at row 1");
      ExprCheck.check(product, batch, allocator);
      ExprCheck.check(call(ADD, col(0, type), decimal("0.00000000001")), batch, allocator);
      ExprCheck.check(call(ADD, col(0, type), col(0, type)), batch, allocator);
    }
  }

  /**
   * Operands of at most 18 digits multiply on their low words alone: at the edge of decimal(18, s)
   * the exact products (up to 36 digits) come out whole, over all rows and under a CASE's
   * selection.
   */
  @Test
  void productsOfEighteenDigitOperandsAtTheirEdge(BufferAllocator allocator) {
    SqlType wide = SqlType.decimal(18, 0);
    SqlType scaled = SqlType.decimal(18, 2);
    BigDecimal max = new BigDecimal("999999999999999999");
    BigDecimal maxScaled = new BigDecimal("9999999999999999.99");
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(wide, scaled, SqlType.BOOLEAN),
            List.of(
                Arrays.asList(max, maxScaled, true),
                Arrays.asList(max.negate(), maxScaled, false),
                Arrays.asList(max.negate(), maxScaled.negate(), true),
                Arrays.asList(BigDecimal.ONE, new BigDecimal("0.01"), true),
                Arrays.asList(null, maxScaled, true),
                Arrays.asList(BigDecimal.ZERO, null, null)))) {
      Expr product = call(MULTIPLY, col(0, wide), col(1, scaled));
      assertThat(product.sqlType().precision()).isGreaterThanOrEqualTo(36);
      ExprCheck.check(product, batch, allocator);
      ExprCheck.check(call(MULTIPLY, col(0, wide), col(0, wide)), batch, allocator);
      ExprCheck.check(call(MULTIPLY, col(1, scaled), decimal("-0.07")), batch, allocator);
      ExprCheck.check(caseWhen(null, when(col(2, SqlType.BOOLEAN), product)), batch, allocator);
    }
  }

  @Test
  void integerOverflowIsAnError(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.BIGINT, SqlType.INTEGER),
            List.of(java.util.Arrays.asList(Long.MAX_VALUE, Integer.MAX_VALUE + 0L)))) {
      for (Expr expr :
          List.of(
              call(ADD, col(0, SqlType.BIGINT), lit(1L)),
              call(MULTIPLY, col(1, SqlType.INTEGER), lit(2)),
              call(SUBTRACT, lit(-2), col(1, SqlType.INTEGER)),
              call(NEGATE, call(SUBTRACT, lit(Long.MIN_VALUE + 1), lit(1L))),
              call(DIVIDE, lit(Long.MIN_VALUE), lit(-1L)))) {
        assertThatThrownBy(
                () -> ExpressionCompiler.compile(expr).evaluate(batch, allocator).close())
            .isInstanceOfSatisfying(
                QuiverException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW))
            .hasMessageContaining("numeric overflow in (");
      }
    }
  }
}
