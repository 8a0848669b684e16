package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Columns.I8;
import static dev.quiver.operators.expr.Columns.UTF8;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.ScalarFunction.CHAR_LENGTH;
import static dev.quiver.plan.expr.ScalarFunction.CONCAT;
import static dev.quiver.plan.expr.ScalarFunction.LOWER;
import static dev.quiver.plan.expr.ScalarFunction.SUBSTRING;
import static dev.quiver.plan.expr.ScalarFunction.TRIM_BOTH;
import static dev.quiver.plan.expr.ScalarFunction.TRIM_LEADING;
import static dev.quiver.plan.expr.ScalarFunction.TRIM_TRAILING;
import static dev.quiver.plan.expr.ScalarFunction.UPPER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** String functions against java.lang.String, with multi-byte UTF-8 and long strings. */
@ExtendWith(ArrowLeakCheck.class)
class StringFunctionsTest {
  private static final Expr S = col(0, SqlType.VARCHAR);
  private static final Expr A = col(1, SqlType.BIGINT);
  private static final Expr B = col(2, SqlType.BIGINT);

  @Test
  void randomStringsMatchReference(BufferAllocator allocator) {
    List<Expr> exprs =
        List.of(
            call(UPPER, UTF8),
            call(LOWER, call(UPPER, UTF8)),
            call(CHAR_LENGTH, UTF8),
            call(CONCAT, UTF8, UTF8),
            call(CONCAT, UTF8, lit("-é-")),
            call(CONCAT, I8, UTF8),
            call(SUBSTRING, UTF8, lit(2)),
            call(SUBSTRING, UTF8, lit(3), lit(4)),
            call(SUBSTRING, UTF8, lit(-1), lit(3)),
            call(SUBSTRING, UTF8, I8, lit(2)),
            call(TRIM_BOTH, UTF8, lit("aβ")),
            call(TRIM_LEADING, UTF8, lit("abc")),
            call(TRIM_TRAILING, UTF8, lit("zγ")),
            call(TRIM_BOTH, call(CONCAT, lit("  "), UTF8)));
    long seed = 11;
    for (int[] shape : new int[][] {{0, 20}, {1, 20}, {4000, 20}, {300, 5000}, {65536, 8}}) {
      RandomBatches random = new RandomBatches(seed++).maxStringLength(shape[1]).nullFraction(0.15);
      try (VectorSchemaRoot batch = random.batch(RandomBatches.ALL_TYPES, shape[0], allocator)) {
        for (Expr expr : exprs) {
          ExprCheck.check(expr, batch, allocator);
        }
      }
    }
  }

  @Test
  void multiByteCharactersCountAsOne(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.VARCHAR, SqlType.BIGINT, SqlType.BIGINT),
            List.of(
                List.of("naïve ☃ 😀 straße", 7L, 3L),
                List.of("αβγδ", 2L, 2L),
                List.of("", 1L, 5L),
                List.of("  ÅÄÖ  ", 0L, 3L)))) {
      assertThat(PredicateTest.values(call(CHAR_LENGTH, S), batch, allocator))
          .containsExactly(16L, 4L, 0L, 7L);
      assertThat(PredicateTest.values(call(SUBSTRING, S, A, B), batch, allocator))
          .containsExactly("☃ 😀", "βγ", "", "  ");
      assertThat(PredicateTest.values(call(UPPER, S), batch, allocator))
          .containsExactly("NAÏVE ☃ 😀 STRAßE", "ΑΒΓΔ", "", "  ÅÄÖ  ");
      assertThat(PredicateTest.values(call(LOWER, call(TRIM_BOTH, S)), batch, allocator))
          .containsExactly("naïve ☃ 😀 straße", "αβγδ", "", "åäö");
      for (Expr expr :
          List.of(
              call(SUBSTRING, S, A),
              call(SUBSTRING, S, B, A),
              call(TRIM_BOTH, S, lit("ÅÖ ")),
              call(CONCAT, S, S))) {
        ExprCheck.check(expr, batch, allocator);
      }
    }
  }

  @Test
  void negativeSubstringLengthIsAnError(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.VARCHAR, SqlType.BIGINT, SqlType.BIGINT),
            List.of(List.of("abc", 1L, 1L), List.of("abc", 1L, -1L)))) {
      Expr expr = call(SUBSTRING, S, A, B);
      assertThatThrownBy(() -> ExpressionCompiler.compile(expr).evaluate(batch, allocator).close())
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining("SUBSTRING(#0 FROM #1 FOR #2)")
          .hasMessageContaining("at row 1");
    }
  }
}
