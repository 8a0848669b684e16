package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Columns.BOOL;
import static dev.quiver.operators.expr.Columns.I32;
import static dev.quiver.plan.expr.Exprs.and;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.caseWhen;
import static dev.quiver.plan.expr.Exprs.cast;
import static dev.quiver.plan.expr.Exprs.date;
import static dev.quiver.plan.expr.Exprs.decimal;
import static dev.quiver.plan.expr.Exprs.intervalYears;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.Exprs.nullOf;
import static dev.quiver.plan.expr.Exprs.or;
import static dev.quiver.plan.expr.Exprs.when;
import static dev.quiver.plan.expr.ScalarFunction.ADD;
import static dev.quiver.plan.expr.ScalarFunction.COALESCE;
import static dev.quiver.plan.expr.ScalarFunction.DIVIDE;
import static dev.quiver.plan.expr.ScalarFunction.LESS_THAN;
import static dev.quiver.plan.expr.ScalarFunction.MULTIPLY;
import static dev.quiver.plan.expr.ScalarFunction.SUBTRACT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Constant folding: what folds, what it prints as, and that types never change. */
@ExtendWith(ArrowLeakCheck.class)
class FoldingTest {
  private static Expr fold(Expr expr) {
    Expr folded = ExpressionCompiler.fold(expr);
    assertThat(folded.sqlType()).as("type of %s", folded).isEqualTo(expr.sqlType());
    return folded;
  }

  @Test
  void constantSubtreesBecomeLiterals() {
    assertThat(fold(call(ADD, lit(1), lit(2)))).isEqualTo(new Literal(3L, SqlType.INTEGER));
    assertThat(fold(call(ADD, date("1994-01-01"), intervalYears(1))).toString())
        .isEqualTo("DATE '1995-01-01'");
    assertThat(fold(call(SUBTRACT, decimal("0.06"), decimal("0.01"))).toString()).isEqualTo("0.05");
    assertThat(fold(call(MULTIPLY, I32, call(ADD, lit(1), lit(1)))).toString())
        .isEqualTo("(i32#3 * 2)");
    assertThat(fold(cast(lit("42"), SqlType.BIGINT))).isEqualTo(new Literal(42L, SqlType.BIGINT));
    assertThat(fold(call(LESS_THAN, lit(1), lit(2)))).isEqualTo(lit(true));
  }

  @Test
  void logicDropsNeutralAndKeepsAbsorbingConstants() {
    Expr p = call(LESS_THAN, I32, lit(5));
    assertThat(fold(and(lit(true), p))).isEqualTo(p);
    assertThat(fold(and(p, lit(false), BOOL))).isEqualTo(lit(false));
    assertThat(fold(or(p, lit(true)))).isEqualTo(lit(true));
    assertThat(fold(or(lit(false), p, BOOL)).toString()).isEqualTo("((i32#3 < 5) OR bool#0)");
    assertThat(fold(and(p, nullOf(SqlType.BOOLEAN))).toString())
        .isEqualTo("((i32#3 < 5) AND CAST(NULL AS BOOLEAN))");
  }

  @Test
  void nullsAndConditionalsFold() {
    assertThat(fold(call(ADD, I32, nullOf(SqlType.INTEGER))).toString())
        .isEqualTo("CAST(NULL AS INTEGER)");
    assertThat(fold(call(COALESCE, nullOf(SqlType.INTEGER), I32, lit(7), I32)).toString())
        .isEqualTo("COALESCE(i32#3, 7)");
    assertThat(fold(caseWhen(lit(0), when(lit(false), I32), when(BOOL, lit(2)))).toString())
        .isEqualTo("CASE WHEN bool#0 THEN 2 ELSE 0 END");
    assertThat(fold(caseWhen(lit(0), when(lit(true), I32), when(BOOL, lit(2))))).isEqualTo(I32);
    assertThat(fold(caseWhen(decimal("1.5"), when(lit(false), I32))))
        .isEqualTo(new Literal(new BigDecimal("1.5"), SqlType.decimal(11, 1)));
  }

  @Test
  void failingConstantsStayForRunTime() {
    Expr division = call(DIVIDE, lit(1), lit(0));
    assertThat(fold(division)).isEqualTo(division);
    Expr guarded = caseWhen(lit(0), when(BOOL, division));
    assertThat(fold(guarded).toString()).isEqualTo("CASE WHEN bool#0 THEN (1 / 0) ELSE 0 END");
  }

  @Test
  void compiledExpressionsPrintFolded() {
    CompiledExpression compiled =
        ExpressionCompiler.compile(
            call(LESS_THAN, Columns.DATE, call(ADD, date("1994-01-01"), intervalYears(1))));
    assertThat(compiled.toString()).isEqualTo("(date#10 < DATE '1995-01-01')");
  }
}
