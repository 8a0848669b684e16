package dev.quiver.operators.function.string;

import static dev.quiver.operators.function.string.FunctionTesting.batch;
import static dev.quiver.operators.function.string.FunctionTesting.constant;
import static dev.quiver.operators.function.string.FunctionTesting.row;
import static dev.quiver.operators.function.string.FunctionTesting.rows;
import static dev.quiver.operators.function.string.FunctionTesting.selected;
import static dev.quiver.operators.function.string.FunctionTesting.values;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * The regular-expression kernels: match positions mapped back to UTF-8 bytes (surrogate pairs
 * included), patterns that change from row to row, RE2's replacement syntax and its errors.
 */
@ExtendWith(ArrowLeakCheck.class)
class RegexKernelsTest {
  private static final Expr S = col(0, SqlType.VARCHAR);
  private static final Expr P = col(1, SqlType.VARCHAR);

  @Test
  void patternsFromAColumnChangeFromRowToRow(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        batch(
            allocator,
            rows(
                row("😀ab😀ab", "b"),
                row("x😀y", "b"),
                row("😀😀z", "😀+"),
                row("é", null),
                row("ÉÉé", "(é)+"),
                row("", "^$")))) {
      assertThat(values(allocator, batch, "regexp_matches", S, P))
          .containsExactly(true, false, true, null, true, true);
      assertThat(values(allocator, batch, "regexp_extract", S, P))
          .containsExactly("b", "", "😀😀", null, "é", "");
      assertThat(values(allocator, batch, "regexp_replace", S, P, lit("[\\0]"), lit("g")))
          .containsExactly("😀a[b]😀a[b]", "x😀y", "[😀😀]z", null, "ÉÉ[é]", "[]");
      assertThat(values(allocator, batch, "regexp_replace", S, P, lit("-"), lit("gi")))
          .containsExactly("😀a-😀a-", "x😀y", "-z", null, "-", "-");
      assertThat(selected(allocator, batch, "regexp_matches", S, lit("^.a"))).containsExactly(0);
    }
  }

  @Test
  void replacementGroupsAndBackslashes(BufferAllocator allocator) {
    assertThat(
            constant(
                allocator,
                "regexp_replace",
                lit("2024-01-31 and 1999-12-01"),
                lit("(\\d+)-(\\d+)-(\\d+)"),
                lit("\\3.\\2.\\1 \\\\ $1"),
                lit("g")))
        .isEqualTo("31.01.2024 \\ $1 and 01.12.1999 \\ $1");
    assertThat(constant(allocator, "regexp_replace", lit("abc"), lit(""), lit("-"), lit("g")))
        .isEqualTo("-a-b-c-");
    assertThat(constant(allocator, "regexp_replace", lit("ab"), lit("(x)?b"), lit("<\\1>")))
        .isEqualTo("a<>");
    assertThat(constant(allocator, "regexp_extract", lit("k=v;"), lit("(\\w)=(\\w)"), lit(2L)))
        .isEqualTo("v");
    assertThat(constant(allocator, "regexp_extract", lit("k=v;"), lit("(\\w)=(\\w)"), lit(3L)))
        .isEqualTo("");
    assertThat(constant(allocator, "regexp_matches", lit("x9"), lit("[[:alpha:]][[:digit:]]")))
        .isEqualTo(true);
    assertThat(constant(allocator, "regexp_matches", lit("a+b"), lit("+"), lit("l")))
        .isEqualTo(true);
    assertThat(constant(allocator, "regexp_matches", lit("a\rb"), lit("a.b"))).isEqualTo(true);
    assertThat(constant(allocator, "regexp_matches", lit("a\nb"), lit("a.b"))).isEqualTo(false);
  }

  @Test
  void userErrorsAreInvalidArguments(BufferAllocator allocator) {
    invalid(() -> constant(allocator, "regexp_matches", lit("a"), lit("(")));
    invalid(() -> constant(allocator, "regexp_replace", lit("a"), lit("a"), lit("\\1")));
    invalid(() -> constant(allocator, "regexp_replace", lit("a"), lit("a"), lit("x\\")));
    invalid(() -> constant(allocator, "regexp_replace", lit("a"), lit("a"), lit("\\q")));
    invalid(() -> constant(allocator, "regexp_extract", lit("a"), lit("a"), lit(10L)));
    invalid(() -> constant(allocator, "regexp_matches", lit("a"), lit("a"), lit("g")));
    invalid(() -> constant(allocator, "regexp_matches", lit("a"), lit("a"), lit("x")));
    try (VectorSchemaRoot batch = batch(allocator, rows(row("a", "a"), row("b", "[")))) {
      invalid(() -> values(allocator, batch, "regexp_matches", S, P));
    }
  }

  private static void invalid(Executable call) {
    assertThatThrownBy(call::execute)
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }
}
