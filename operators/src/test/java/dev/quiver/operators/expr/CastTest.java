package dev.quiver.operators.expr;

import static dev.quiver.plan.expr.Exprs.cast;
import static dev.quiver.plan.expr.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Casts;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** CAST between every pair of supported types, round trips through VARCHAR, and failures. */
@ExtendWith(ArrowLeakCheck.class)
class CastTest {
  private static final List<SqlType> TARGETS =
      List.of(
          SqlType.BOOLEAN,
          SqlType.TINYINT,
          SqlType.SMALLINT,
          SqlType.INTEGER,
          SqlType.BIGINT,
          SqlType.REAL,
          SqlType.DOUBLE,
          SqlType.decimal(15, 2),
          SqlType.decimal(38, 10),
          SqlType.decimal(5, 0),
          SqlType.decimal(20, 8),
          SqlType.VARCHAR,
          SqlType.DATE,
          SqlType.TIMESTAMP);

  @Test
  void everyCastMatchesReference(BufferAllocator allocator) {
    long seed = 21;
    for (int rows : new int[] {0, 1, 2000}) {
      for (int distinct : new int[] {300, Integer.MAX_VALUE}) {
        RandomBatches random = new RandomBatches(seed++).distinctValues(distinct);
        try (VectorSchemaRoot batch = random.batch(RandomBatches.ALL_TYPES, rows, allocator)) {
          for (int c = 0; c < RandomBatches.ALL_TYPES.getFields().size(); c++) {
            Field field = RandomBatches.ALL_TYPES.getFields().get(c);
            SqlType from = SqlType.of(field.getType());
            for (SqlType to : TARGETS) {
              if (Casts.canCast(from, to)) {
                ExprCheck.check(cast(col(c, from), to), batch, allocator);
              }
            }
          }
        }
      }
    }
  }

  @Test
  void valuesSurviveARoundTripThroughVarchar(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        new RandomBatches(9).batch(RandomBatches.ALL_TYPES, 5000, allocator)) {
      for (int c = 0; c < RandomBatches.ALL_TYPES.getFields().size(); c++) {
        SqlType type = SqlType.of(RandomBatches.ALL_TYPES.getFields().get(c).getType());
        Expr roundTrip = cast(cast(col(c, type), SqlType.VARCHAR), type);
        List<Object> original = PredicateTest.values(col(c, type), batch, allocator);
        if (type.kind() == SqlType.Kind.VARCHAR) {
          continue;
        }
        assertThat(PredicateTest.values(roundTrip, batch, allocator))
            .as("%s", roundTrip)
            .isEqualTo(original);
      }
    }
  }

  @Test
  void stringsParse(BufferAllocator allocator) {
    List<Object> texts =
        new ArrayList<>(
            List.of(
                " 42 ",
                "-9223372036854775808",
                "+7",
                "1.005",
                "-0.005",
                "12.345e2",
                ".5",
                "5.",
                "1994-01-01",
                "2000-2-29",
                "1994-01-01 12:34:56.5",
                "1994-01-01T00:00:00.000001",
                "TRUE",
                "no",
                "NaN",
                "-Infinity",
                "1e400",
                "99999999999999999999",
                "007"));
    List<List<Object>> rows = new ArrayList<>();
    for (Object text : texts) {
      rows.add(java.util.Arrays.asList(text));
    }
    try (VectorSchemaRoot batch = ExprCheck.batch(allocator, List.of(SqlType.VARCHAR), rows)) {
      for (SqlType to : TARGETS) {
        for (int row = 0; row < texts.size(); row++) {
          try (VectorSchemaRoot one =
              ExprCheck.batch(allocator, List.of(SqlType.VARCHAR), List.of(rows.get(row)))) {
            ExprCheck.check(cast(col(0, SqlType.VARCHAR), to), one, allocator);
          }
        }
      }
    }
  }

  @Test
  void invalidTextNamesTheValue(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        ExprCheck.batch(allocator, List.of(SqlType.VARCHAR), ExprCheck.column("12", null, "abc"))) {
      Expr expr = cast(col(0, SqlType.VARCHAR, "s"), SqlType.INTEGER);
      assertThatThrownBy(() -> ExpressionCompiler.compile(expr).evaluate(batch, allocator).close())
          .isInstanceOfSatisfying(
              QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_CAST))
          .hasMessage(
              "[INVALID_CAST] cannot cast 'abc' to INTEGER in CAST(s#0 AS INTEGER) at row 2");
    }
    try (VectorSchemaRoot batch =
        ExprCheck.batch(allocator, List.of(SqlType.VARCHAR), ExprCheck.column(null, "abc"))) {
      for (SqlType to :
          List.of(
              SqlType.DATE,
              SqlType.decimal(10, 2),
              SqlType.DOUBLE,
              SqlType.BOOLEAN,
              SqlType.TIMESTAMP)) {
        assertThatThrownBy(
                () ->
                    ExpressionCompiler.compile(cast(col(0, SqlType.VARCHAR), to))
                        .evaluate(batch, allocator)
                        .close())
            .isInstanceOfSatisfying(
                QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_CAST))
            .hasMessageContaining("'abc'");
      }
    }
  }

  @Test
  void narrowingAndRescalingFailOrRound(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.INTEGER, SqlType.decimal(10, 3), SqlType.DOUBLE),
            List.of(
                List.of(127L, new BigDecimal("2.345"), 2.5),
                List.of(128L, new BigDecimal("-2.345"), -2.5),
                List.of(-129L, new BigDecimal("9999999.999"), 1e300)))) {
      assertThat(
              PredicateTest.values(
                  cast(col(1, SqlType.decimal(10, 3)), SqlType.decimal(10, 2)), batch, allocator))
          .containsExactly(
              new BigDecimal("2.35"), new BigDecimal("-2.35"), new BigDecimal("10000000.00"));
      assertThatThrownBy(
              () ->
                  ExpressionCompiler.compile(cast(col(0, SqlType.INTEGER), SqlType.TINYINT))
                      .evaluate(batch, allocator)
                      .close())
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW))
          .hasMessageContaining("at row 1");
      assertThatThrownBy(
              () ->
                  ExpressionCompiler.compile(
                          cast(col(1, SqlType.decimal(10, 3)), SqlType.decimal(8, 2)))
                      .evaluate(batch, allocator)
                      .close())
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW))
          .hasMessageContaining("10000000.00");
      assertThatThrownBy(
              () ->
                  ExpressionCompiler.compile(cast(col(2, SqlType.DOUBLE), SqlType.BIGINT))
                      .evaluate(batch, allocator)
                      .close())
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW));
      for (int c = 0; c < 3; c++) {
        for (SqlType to : TARGETS) {
          SqlType from =
              c == 0 ? SqlType.INTEGER : c == 1 ? SqlType.decimal(10, 3) : SqlType.DOUBLE;
          if (Casts.canCast(from, to)) {
            ExprCheck.check(cast(col(c, from), to), batch, allocator);
          }
        }
      }
    }
  }
}
