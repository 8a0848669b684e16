package dev.quiver.operators.function.math;

import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.QuiverException;
import dev.quiver.operators.expr.ExpressionCompiler;
import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.plan.expr.Case;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.Exprs;
import dev.quiver.plan.expr.Literal;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Edge cases of the math kernels that are easier to pin here than in functions_math.slt. */
@ExtendWith(ArrowLeakCheck.class)
class MathFunctionsTest {
  private static final SqlType DEC38_1 = SqlType.decimal(38, 1);
  private static final SqlType DEC38_10 = SqlType.decimal(38, 10);
  private static final Expr W = col(0, DEC38_1);
  private static final Expr V = col(1, DEC38_10);
  private static final Expr B = col(2, SqlType.BIGINT);
  private static final Expr F = col(3, SqlType.DOUBLE);
  private static final Expr S = col(4, SqlType.VARCHAR);

  private static final String NINES = "9999999999999999999999999999999999999"; // 37 digits

  /** Rows: the 38-digit extremes, values around zero, a NULL row. */
  private static VectorSchemaRoot batch(BufferAllocator allocator) {
    Object[][] rows = {
      {NINES + ".9", "1234567890123456789012345678.0000000001", Long.MAX_VALUE, 2.5, "b"},
      {"-" + NINES + ".9", "-1234567890123456789012345678.0000000001", Long.MIN_VALUE, -2.5, "é"},
      {"-0.1", "-0.0000000001", -1L, -0.0, ""},
      {"0.1", "0.0000000001", 1L, Double.NaN, "😀"},
      {null, null, null, null, null},
    };
    DecimalVector w = new DecimalVector("w", allocator, 38, 1);
    DecimalVector v = new DecimalVector("v", allocator, 38, 10);
    BigIntVector b = new BigIntVector("b", allocator);
    Float8Vector f = new Float8Vector("f", allocator);
    VarCharVector s = new VarCharVector("s", allocator);
    for (int i = 0; i < rows.length; i++) {
      Object[] row = rows[i];
      if (row[0] == null) {
        w.setNull(i);
        v.setNull(i);
        b.setNull(i);
        f.setNull(i);
        s.setNull(i);
        continue;
      }
      w.setSafe(i, new BigDecimal((String) row[0]));
      v.setSafe(i, new BigDecimal((String) row[1]));
      b.setSafe(i, (Long) row[2]);
      f.setSafe(i, (Double) row[3]);
      s.setSafe(i, ((String) row[4]).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    List<FieldVector> vectors = List.of(w, v, b, f, s);
    for (FieldVector vector : vectors) {
      vector.setValueCount(rows.length);
    }
    return new VectorSchemaRoot(vectors);
  }

  private static List<Object> values(Expr expr, BufferAllocator allocator) {
    try (VectorSchemaRoot batch = batch(allocator);
        FieldVector out = ExpressionCompiler.compile(expr).evaluate(batch, allocator)) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < out.getValueCount(); i++) {
        Object value = out.getObject(i);
        values.add(value instanceof BigDecimal ? ((BigDecimal) value).toPlainString() : value);
        if (value instanceof org.apache.arrow.vector.util.Text) {
          values.set(i, value.toString());
        }
      }
      return values;
    }
  }

  private static Expr call(String name, Expr... args) {
    return FunctionRegistry.call(name, args);
  }

  @Test
  void floorAndCeilOfThirtyEightDigitDecimals(BufferAllocator allocator) {
    assertThat(call("floor", W).sqlType()).isEqualTo(SqlType.decimal(38, 0));
    assertThat(values(call("floor", W), allocator))
        .containsExactly(NINES, "-1" + "0".repeat(37), "-1", "0", null);
    assertThat(values(call("ceil", W), allocator))
        .containsExactly("1" + "0".repeat(37), "-" + NINES, "0", "1", null);
    assertThat(values(call("trunc", W), allocator))
        .containsExactly(NINES, "-" + NINES, "0", "0", null);
  }

  @Test
  void wideValuesDivideAcrossBothWords(BufferAllocator allocator) {
    // Ten decimals dropped from values above 2^64: the nine-digit steps of the 128-bit division.
    assertThat(values(call("floor", V), allocator))
        .containsExactly(
            "1234567890123456789012345678", "-1234567890123456789012345679", "-1", "0", null);
    assertThat(values(call("ceiling", V), allocator))
        .containsExactly(
            "1234567890123456789012345679", "-1234567890123456789012345678", "0", "1", null);
    assertThat(values(call("trunc", V, lit(-20)), allocator))
        .containsExactly(
            "1234567800000000000000000000", "-1234567800000000000000000000", "0", "0", null);
    assertThat(values(call("trunc", V, lit(9)), allocator))
        .containsExactly(
            "1234567890123456789012345678.000000000",
            "-1234567890123456789012345678.000000000",
            "0.000000000",
            "0.000000000",
            null);
    assertThat(values(call("trunc", V, lit(99)), allocator).get(0))
        .isEqualTo("1234567890123456789012345678.0000000001");
  }

  @Test
  void truncOfBigintsToNegativeDigits(BufferAllocator allocator) {
    assertThat(values(call("trunc", B, lit(-18)), allocator))
        .containsExactly(9_000_000_000_000_000_000L, -9_000_000_000_000_000_000L, 0L, 0L, null);
    assertThat(values(call("trunc", B, lit(-19)), allocator)).containsExactly(0L, 0L, 0L, 0L, null);
    assertThat(values(call("trunc", B, lit(3)), allocator))
        .containsExactly(Long.MAX_VALUE, Long.MIN_VALUE, -1L, 1L, null);
  }

  @Test
  void signOfEveryKind(BufferAllocator allocator) {
    assertThat(call("sign", W).sqlType()).isEqualTo(SqlType.TINYINT);
    assertThat(values(call("sign", W), allocator))
        .containsExactly((byte) 1, (byte) -1, (byte) -1, (byte) 1, null);
    assertThat(values(call("sign", B), allocator))
        .containsExactly((byte) 1, (byte) -1, (byte) -1, (byte) 1, null);
    assertThat(values(call("sign", F), allocator))
        .containsExactly((byte) 1, (byte) -1, (byte) 0, (byte) 0, null);
  }

  @Test
  void greatestAndLeastSkipNullsAndAlignScales(BufferAllocator allocator) {
    // DECIMAL(38,1) and DECIMAL(38,10) meet in DECIMAL(38,1): 37 integer digits, scale cut.
    Expr greatest = call("greatest", W, V, lit(new BigDecimal("0.05")));
    assertThat(greatest.sqlType()).isEqualTo(DEC38_1);
    assertThat(values(greatest, allocator))
        .containsExactly(NINES + ".9", "0.1", "0.1", "0.1", "0.1");
    Expr small = call("greatest", V, lit(new BigDecimal("0.05")), Exprs.nullOf(DEC38_10));
    assertThat(values(small, allocator))
        .containsExactly(
            "1234567890123456789012345678.0000000001",
            "0.0500000000",
            "0.0500000000",
            "0.0500000000",
            "0.0500000000");
    assertThat(values(call("least", B, lit(0L)), allocator))
        .containsExactly(0L, Long.MIN_VALUE, -1L, 0L, 0L);
    assertThat(values(call("greatest", F, lit(0.0)), allocator))
        .containsExactly(2.5, 0.0, 0.0, Double.NaN, 0.0);
    assertThat(values(call("least", F, F), allocator))
        .containsExactly(2.5, -2.5, -0.0, Double.NaN, null);
  }

  @Test
  void greatestOfStringsIsCodePointOrder(BufferAllocator allocator) {
    assertThat(values(call("greatest", S, lit("c")), allocator))
        .containsExactly("c", "é", "c", "😀", "c");
    assertThat(values(call("least", S, lit("c"), Exprs.nullOf(SqlType.VARCHAR)), allocator))
        .containsExactly("b", "c", "", "c", "c");
    assertThat(values(call("greatest", S, S), allocator)).containsExactly("b", "é", "", "😀", null);
  }

  @Test
  void kernelsRunOnlyOnSelectedRows(BufferAllocator allocator) {
    // CASE hands each branch only its rows: the NULL row and row 0 take the ELSE branch.
    Expr condition = Exprs.call(ScalarFunction.LESS_THAN, B, lit(0L));
    Expr expr = new Case(List.of(new Case.When(condition, call("floor", V))), call("ceil", V));
    assertThat(values(expr, allocator))
        .containsExactly(
            "1234567890123456789012345679", "-1234567890123456789012345679", "-1", "1", null);
  }

  @Test
  void doubleFunctionsFollowIeee(BufferAllocator allocator) {
    assertThat(values(call("sqrt", F), allocator))
        .containsExactly(Math.sqrt(2.5), Double.NaN, -0.0, Double.NaN, null);
    assertThat(values(call("log", lit(2), F), allocator).get(0))
        .isEqualTo(Math.log(2.5) / Math.log(2));
    assertThat(values(call("power", B, lit(2)), allocator).get(2)).isEqualTo(1.0);
    assertThat(values(call("exp", W), allocator).get(0)).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void constantCallsFold() {
    Expr folded = ExpressionCompiler.fold(call("greatest", lit(1), lit(3L), lit(2)));
    assertThat(folded).isInstanceOf(Literal.class);
    assertThat(((Literal) folded).value()).isEqualTo(3L);
    Expr floor = ExpressionCompiler.fold(call("floor", Exprs.decimal("-0.5")));
    assertThat(((Literal) floor).value()).isEqualTo(new BigDecimal("-1"));
    assertThat(Arrays.asList(((Literal) ExpressionCompiler.fold(call("ln", lit(0)))).value()))
        .containsExactly(Double.NEGATIVE_INFINITY);
  }

  @Test
  void wrongArgumentsAreRejected() {
    assertThatThrownBy(() -> call("floor", S)).isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call("trunc", F, B)).isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call("greatest", S, B)).isInstanceOf(QuiverException.class);
    assertThatThrownBy(() -> call("power", F)).isInstanceOf(QuiverException.class);
  }
}
