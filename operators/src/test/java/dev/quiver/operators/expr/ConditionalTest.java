package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Columns.BOOL;
import static dev.quiver.operators.expr.Columns.DEC15;
import static dev.quiver.operators.expr.Columns.DEC38;
import static dev.quiver.operators.expr.Columns.F64;
import static dev.quiver.operators.expr.Columns.I32;
import static dev.quiver.operators.expr.Columns.I64;
import static dev.quiver.operators.expr.Columns.I8;
import static dev.quiver.operators.expr.Columns.TS;
import static dev.quiver.operators.expr.Columns.UTF8;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.caseWhen;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.Exprs.nullOf;
import static dev.quiver.plan.expr.Exprs.when;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** CASE, COALESCE and NULLIF against the reference. */
@ExtendWith(ArrowLeakCheck.class)
class ConditionalTest {
  @Test
  void conditionalsMatchReference(BufferAllocator allocator) {
    Expr small = call(ScalarFunction.LESS_THAN, I32, lit(2));
    List<Expr> exprs =
        List.of(
            caseWhen(lit(0), when(BOOL, I32)),
            caseWhen(null, when(small, UTF8), when(BOOL, lit("yes"))),
            caseWhen(DEC38, when(small, DEC15), when(BOOL, I64)),
            caseWhen(F64, when(BOOL, I8)),
            caseWhen(null, when(BOOL, TS)),
            caseWhen(lit(false), when(small, BOOL)),
            caseWhen(decimal("1.5"), when(BOOL, call(ScalarFunction.DIVIDE, DEC15, I32))),
            call(ScalarFunction.COALESCE, I32, I64),
            call(ScalarFunction.COALESCE, UTF8, lit("none")),
            call(ScalarFunction.COALESCE, nullOf(SqlType.INTEGER), I8, I32, lit(-1)),
            call(ScalarFunction.COALESCE, DEC15, DEC38),
            call(ScalarFunction.NULLIF, I32, lit(3)),
            call(ScalarFunction.NULLIF, UTF8, lit("k2")),
            call(ScalarFunction.NULLIF, DEC15, I64));
    long seed = 7;
    for (int rows : new int[] {0, 1, 2000, 65536}) {
      RandomBatches random = new RandomBatches(seed++).distinctValues(4).nullFraction(0.25);
      try (VectorSchemaRoot batch = random.batch(RandomBatches.ALL_TYPES, rows, allocator)) {
        for (Expr expr : exprs) {
          ExprCheck.check(expr, batch, allocator);
        }
      }
    }
  }

  @Test
  void caseEvaluatesABranchOnlyOnItsRows(BufferAllocator allocator) {
    Expr x = col(0, SqlType.INTEGER);
    Expr y = col(1, SqlType.INTEGER);
    Expr safe =
        caseWhen(
            lit(-1),
            when(call(ScalarFunction.EQUAL, y, lit(0)), lit(0)),
            when(lit(true), call(ScalarFunction.DIVIDE, x, y)));
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.INTEGER, SqlType.INTEGER),
            List.of(List.of(8L, 2L), List.of(5L, 0L), Arrays.asList(null, 3L)))) {
      assertThat(PredicateTest.values(safe, batch, allocator)).containsExactly(4L, 0L, null);
    }
  }
}
