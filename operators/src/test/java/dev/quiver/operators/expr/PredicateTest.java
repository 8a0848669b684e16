package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Columns.BOOL;
import static dev.quiver.operators.expr.Columns.DATE;
import static dev.quiver.operators.expr.Columns.DEC15;
import static dev.quiver.operators.expr.Columns.DEC38;
import static dev.quiver.operators.expr.Columns.F32;
import static dev.quiver.operators.expr.Columns.F64;
import static dev.quiver.operators.expr.Columns.I16;
import static dev.quiver.operators.expr.Columns.I32;
import static dev.quiver.operators.expr.Columns.I64;
import static dev.quiver.operators.expr.Columns.I8;
import static dev.quiver.operators.expr.Columns.TS;
import static dev.quiver.operators.expr.Columns.UTF8;
import static dev.quiver.plan.expr.Exprs.and;
import static dev.quiver.plan.expr.Exprs.between;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.date;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.in;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.Exprs.not;
import static dev.quiver.plan.expr.Exprs.notIn;
import static dev.quiver.plan.expr.Exprs.nullOf;
import static dev.quiver.plan.expr.Exprs.or;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Comparisons, AND / OR / NOT, IS [NOT] NULL, BETWEEN and IN against the reference. */
@ExtendWith(ArrowLeakCheck.class)
class PredicateTest {
  private static final List<ScalarFunction> COMPARISONS =
      List.of(
          ScalarFunction.EQUAL,
          ScalarFunction.NOT_EQUAL,
          ScalarFunction.LESS_THAN,
          ScalarFunction.LESS_THAN_OR_EQUAL,
          ScalarFunction.GREATER_THAN,
          ScalarFunction.GREATER_THAN_OR_EQUAL);

  private static void checkRandom(List<Expr> exprs, BufferAllocator allocator) {
    long seed = 100;
    for (int rows : new int[] {0, 1, 3000}) {
      // Without NULLs, comparisons take the fused filter loops (FusedCompare).
      for (int distinct : new int[] {5, -5, Integer.MAX_VALUE}) {
        RandomBatches random =
            new RandomBatches(seed++)
                .distinctValues(Math.abs(distinct))
                .nullFraction(distinct < 0 ? 0 : 0.2);
        try (VectorSchemaRoot batch = random.batch(RandomBatches.ALL_TYPES, rows, allocator)) {
          for (Expr expr : exprs) {
            ExprCheck.check(expr, batch, allocator);
          }
        }
      }
    }
  }

  @Test
  void comparisonsOfEveryTypeMatchReference(BufferAllocator allocator) {
    List<Expr[]> pairs =
        List.of(
            new Expr[] {I32, I32},
            new Expr[] {I8, I64},
            new Expr[] {I16, lit(3)},
            new Expr[] {F32, F64},
            new Expr[] {F64, I32},
            new Expr[] {DEC15, DEC15},
            new Expr[] {DEC15, DEC38},
            new Expr[] {DEC38, I64},
            new Expr[] {DEC15, decimal("3.5")},
            new Expr[] {UTF8, UTF8},
            new Expr[] {UTF8, lit("k3")},
            new Expr[] {DATE, DATE},
            new Expr[] {DATE, date("2000-01-01")},
            new Expr[] {TS, TS},
            new Expr[] {DATE, TS},
            new Expr[] {BOOL, BOOL},
            new Expr[] {BOOL, lit(true)});
    List<Expr> exprs = new ArrayList<>();
    for (ScalarFunction op : COMPARISONS) {
      for (Expr[] pair : pairs) {
        exprs.add(call(op, pair[0], pair[1]));
      }
    }
    checkRandom(exprs, allocator);
  }

  @Test
  void logicAndNullTestsMatchReference(BufferAllocator allocator) {
    Expr p = call(ScalarFunction.LESS_THAN, I32, lit(2));
    Expr q = call(ScalarFunction.GREATER_THAN, I64, lit(2L));
    checkRandom(
        List.of(
            and(BOOL, p),
            or(BOOL, p),
            and(p, q, BOOL),
            or(p, q, BOOL),
            not(BOOL),
            not(p),
            call(ScalarFunction.IS_NULL, I32),
            call(ScalarFunction.IS_NOT_NULL, UTF8),
            call(ScalarFunction.IS_NULL, p),
            and(BOOL, nullOf(SqlType.BOOLEAN)),
            or(nullOf(SqlType.BOOLEAN), BOOL),
            not(or(and(p, BOOL), not(q)))),
        allocator);
  }

  @Test
  void betweenAndInMatchReference(BufferAllocator allocator) {
    checkRandom(
        List.of(
            between(I32, lit(1), lit(3)),
            between(DEC15, decimal("0.05"), decimal("0.07")),
            between(F64, I32, I64),
            between(UTF8, lit("k1"), lit("k3")),
            in(I32, lit(1), lit(3), lit(7)),
            notIn(I64, lit(0L), lit(4L)),
            in(I8, lit(1), nullOf(SqlType.INTEGER)),
            notIn(I16, lit(2), nullOf(SqlType.INTEGER)),
            in(UTF8, lit("k1"), lit("k4"), lit("")),
            notIn(UTF8, lit("k0")),
            in(DEC15, decimal("0.01"), decimal("0.03"), lit(2)),
            in(F32, lit(1.0), lit(2.0)),
            in(DATE, date("1970-01-02"), date("1970-01-04")),
            in(BOOL, lit(true)),
            in(I32, I64, lit(2)),
            notIn(I32, I8, I16),
            and(between(I32, lit(1), lit(3)), call(ScalarFunction.LESS_THAN, lit(1), I64), BOOL)),
        allocator);
  }

  @Test
  void threeValuedLogicTruthTables(BufferAllocator allocator) {
    Boolean[] values = {true, false, null};
    List<List<Object>> rows = new ArrayList<>();
    for (Boolean a : values) {
      for (Boolean b : values) {
        rows.add(Arrays.asList(a, b));
      }
    }
    Expr a = col(0, SqlType.BOOLEAN);
    Expr b = col(1, SqlType.BOOLEAN);
    try (VectorSchemaRoot batch =
        ExprCheck.batch(allocator, List.of(SqlType.BOOLEAN, SqlType.BOOLEAN), rows)) {
      assertThat(values(and(a, b), batch, allocator))
          .containsExactly(true, false, null, false, false, false, null, false, null);
      assertThat(values(or(a, b), batch, allocator))
          .containsExactly(true, true, true, true, false, null, true, null, null);
      assertThat(values(not(a), batch, allocator))
          .containsExactly(false, false, false, true, true, true, null, null, null);
      for (Expr expr : List.of(and(a, b), or(a, b), not(b), and(a, not(b), or(a, b)))) {
        ExprCheck.check(expr, batch, allocator);
      }
    }
  }

  @Test
  void andDoesNotEvaluateRowsAlreadyFalse(BufferAllocator allocator) {
    Expr x = col(0, SqlType.INTEGER);
    Expr y = col(1, SqlType.INTEGER);
    Expr guarded =
        and(
            call(ScalarFunction.NOT_EQUAL, y, lit(0)),
            call(ScalarFunction.GREATER_THAN, call(ScalarFunction.DIVIDE, x, y), lit(1)));
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.INTEGER, SqlType.INTEGER),
            List.of(List.of(4L, 2L), List.of(4L, 0L), Arrays.asList(9L, null)))) {
      assertThat(values(guarded, batch, allocator)).containsExactly(true, false, null);
      ExprCheck.check(guarded, batch, allocator);
    }
  }

  static List<Object> values(Expr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
    try (FieldVector vector = ExpressionCompiler.compile(expr).evaluate(batch, allocator)) {
      List<Object> values = new ArrayList<>();
      for (int row = 0; row < batch.getRowCount(); row++) {
        values.add(Reference.canonical(vector, row, expr.sqlType()));
      }
      return values;
    }
  }
}
