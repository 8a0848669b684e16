package dev.quiver.operators.expr;

import static dev.quiver.operators.expr.Columns.DATE;
import static dev.quiver.operators.expr.Columns.TS;
import static dev.quiver.plan.expr.Exprs.call;
import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.date;
import static dev.quiver.plan.expr.Exprs.interval;
import static dev.quiver.plan.expr.Exprs.intervalDays;
import static dev.quiver.plan.expr.Exprs.intervalMonths;
import static dev.quiver.plan.expr.Exprs.intervalYears;
import static dev.quiver.plan.expr.Exprs.lit;
import static dev.quiver.plan.expr.Exprs.nullOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.expr.ScalarFunction;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.time.Duration;
import java.time.LocalDate;
import java.time.Period;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Date ± interval, date ± days, DATE − DATE and EXTRACT against java.time. */
@ExtendWith(ArrowLeakCheck.class)
class DateFunctionsTest {
  private static final List<SqlType> TYPES =
      List.of(
          SqlType.DATE,
          SqlType.TIMESTAMP,
          SqlType.INTERVAL_YEAR_MONTH,
          SqlType.INTERVAL_DAY_TIME,
          SqlType.DATE);

  @Test
  void monthArithmeticClampsToMonthEnds(BufferAllocator allocator) {
    Expr d = col(0, SqlType.DATE);
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.DATE),
            ExprCheck.column(
                LocalDate.parse("2024-01-31"),
                LocalDate.parse("2023-01-31"),
                LocalDate.parse("2024-02-29"),
                LocalDate.parse("1900-03-31"),
                LocalDate.parse("2000-12-31"),
                null))) {
      assertThat(
              PredicateTest.values(
                  call(ScalarFunction.ADD, d, intervalMonths(1)), batch, allocator))
          .containsExactly(
              LocalDate.parse("2024-02-29"),
              LocalDate.parse("2023-02-28"),
              LocalDate.parse("2024-03-29"),
              LocalDate.parse("1900-04-30"),
              LocalDate.parse("2001-01-31"),
              null);
      assertThat(
              PredicateTest.values(
                  call(ScalarFunction.SUBTRACT, d, intervalYears(1)), batch, allocator))
          .containsExactly(
              LocalDate.parse("2023-01-31"),
              LocalDate.parse("2022-01-31"),
              LocalDate.parse("2023-02-28"),
              LocalDate.parse("1899-03-31"),
              LocalDate.parse("1999-12-31"),
              null);
      assertThat(
              PredicateTest.values(
                  call(
                      ScalarFunction.EXTRACT_DAY, call(ScalarFunction.ADD, intervalMonths(-10), d)),
                  batch,
                  allocator))
          .containsExactly(31L, 31L, 29L, 31L, 29L, null); // 2000-02-29: 2000 is a leap year
      assertThat(
              PredicateTest.values(
                  call(ScalarFunction.SUBTRACT, d, intervalMonths(1)), batch, allocator))
          .containsExactly(
              LocalDate.parse("2023-12-31"),
              LocalDate.parse("2022-12-31"),
              LocalDate.parse("2024-01-29"),
              LocalDate.parse("1900-02-28"), // 1900 is not
              LocalDate.parse("2000-11-30"),
              null);
    }
  }

  @Test
  void dateArithmeticAndExtractMatchJavaTime(BufferAllocator allocator) {
    Random random = new Random(42);
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      List<Object> row = new ArrayList<>();
      row.add(
          random.nextInt(10) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000));
      row.add(
          random.nextInt(10) == 0
              ? null
              : Values.timestamp(random.nextLong() % 4_000_000_000_000_000L));
      row.add(random.nextInt(10) == 0 ? null : Period.ofMonths(random.nextInt(2400) - 1200));
      row.add(
          random.nextInt(10) == 0
              ? null
              : Duration.ofMillis(random.nextLong() % 10_000_000_000_000L));
      row.add(random.nextInt(10) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(100_000)));
      rows.add(row);
    }
    Expr d = col(0, SqlType.DATE);
    Expr t = col(1, SqlType.TIMESTAMP);
    Expr ym = col(2, SqlType.INTERVAL_YEAR_MONTH);
    Expr dt = col(3, SqlType.INTERVAL_DAY_TIME);
    Expr d2 = col(4, SqlType.DATE);
    List<Expr> exprs = new ArrayList<>();
    for (ScalarFunction op : List.of(ScalarFunction.ADD, ScalarFunction.SUBTRACT)) {
      exprs.addAll(
          List.of(
              call(op, d, ym),
              call(op, d, dt),
              call(op, t, ym),
              call(op, t, dt),
              call(op, ym, ym),
              call(op, dt, dt),
              call(op, d, intervalDays(30)),
              call(op, t, interval(Duration.ofHours(36)))));
    }
    exprs.addAll(
        List.of(
            call(ScalarFunction.ADD, ym, d),
            call(ScalarFunction.ADD, dt, t),
            call(ScalarFunction.SUBTRACT, d, d2)));
    for (ScalarFunction f :
        List.of(
            ScalarFunction.EXTRACT_YEAR,
            ScalarFunction.EXTRACT_MONTH,
            ScalarFunction.EXTRACT_DAY)) {
      exprs.add(call(f, d));
      exprs.add(call(f, t));
    }
    try (VectorSchemaRoot batch = ExprCheck.batch(allocator, TYPES, rows)) {
      for (Expr expr : exprs) {
        ExprCheck.check(expr, batch, allocator);
      }
    }
    try (VectorSchemaRoot batch =
        new RandomBatches(3).batch(RandomBatches.ALL_TYPES, 3000, allocator)) {
      ExprCheck.check(call(ScalarFunction.EXTRACT_YEAR, DATE), batch, allocator);
      ExprCheck.check(call(ScalarFunction.EXTRACT_MONTH, TS), batch, allocator);
      ExprCheck.check(
          call(
              ScalarFunction.LESS_THAN,
              DATE,
              call(ScalarFunction.ADD, date("2000-02-29"), intervalYears(1))),
          batch,
          allocator);
    }
  }

  @Test
  void datePlusOrMinusAnIntegerMovesByDays(BufferAllocator allocator) {
    Random random = new Random(7);
    List<SqlType> types =
        List.of(SqlType.DATE, SqlType.TINYINT, SqlType.SMALLINT, SqlType.INTEGER, SqlType.BIGINT);
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      List<Object> row = new ArrayList<>();
      row.add(
          random.nextInt(10) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000));
      row.add(random.nextInt(10) == 0 ? null : (long) (random.nextInt(256) - 128));
      row.add(random.nextInt(10) == 0 ? null : (long) (random.nextInt(65536) - 32768));
      row.add(random.nextInt(10) == 0 ? null : (long) (random.nextInt(2_000_000) - 1_000_000));
      row.add(random.nextInt(10) == 0 ? null : random.nextLong() % 5_000_000L);
      rows.add(row);
    }
    Expr d = col(0, SqlType.DATE);
    try (VectorSchemaRoot batch = ExprCheck.batch(allocator, types, rows)) {
      for (int c = 1; c < types.size(); c++) {
        Expr days = col(c, types.get(c));
        ExprCheck.check(call(ScalarFunction.ADD, d, days), batch, allocator);
        ExprCheck.check(call(ScalarFunction.ADD, days, d), batch, allocator);
        ExprCheck.check(call(ScalarFunction.SUBTRACT, d, days), batch, allocator);
      }
      ExprCheck.check(call(ScalarFunction.ADD, d, lit(5)), batch, allocator);
      ExprCheck.check(call(ScalarFunction.SUBTRACT, d, lit(-366L)), batch, allocator);
      ExprCheck.check(call(ScalarFunction.ADD, lit(1), d), batch, allocator);
      ExprCheck.check(call(ScalarFunction.ADD, d, nullOf(SqlType.INTEGER)), batch, allocator);
    }
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.DATE, SqlType.INTEGER),
            List.of(
                Arrays.asList(LocalDate.parse("2024-02-28"), 1L),
                Arrays.asList(LocalDate.parse("2023-12-31"), 1L),
                Arrays.asList(LocalDate.parse("2024-03-01"), -1L),
                Arrays.asList(LocalDate.parse("1970-01-01"), -1L),
                Arrays.asList(null, 1L),
                Arrays.asList(LocalDate.parse("2000-01-01"), null)))) {
      Expr days = col(1, SqlType.INTEGER);
      Expr sum = call(ScalarFunction.ADD, col(0, SqlType.DATE), days);
      assertThat(sum.sqlType()).isEqualTo(SqlType.DATE);
      assertThat(PredicateTest.values(sum, batch, allocator))
          .containsExactly(
              LocalDate.parse("2024-02-29"),
              LocalDate.parse("2024-01-01"),
              LocalDate.parse("2024-02-29"),
              LocalDate.parse("1969-12-31"),
              null,
              null);
      assertThat(
              PredicateTest.values(
                  call(ScalarFunction.SUBTRACT, col(0, SqlType.DATE), days), batch, allocator))
          .containsExactly(
              LocalDate.parse("2024-02-27"),
              LocalDate.parse("2023-12-30"),
              LocalDate.parse("2024-03-02"),
              LocalDate.parse("1970-01-02"),
              null,
              null);
    }
  }

  /** A day count that leaves DATE's range (days since 1970 in an int) is an error, not a wrap. */
  @Test
  void daysBeyondTheRangeOfDateAreAnOverflow(BufferAllocator allocator) {
    try (VectorSchemaRoot batch =
        ExprCheck.batch(
            allocator,
            List.of(SqlType.DATE, SqlType.BIGINT),
            List.of(
                Arrays.asList(LocalDate.parse("2000-01-01"), 1L),
                Arrays.asList(null, Long.MAX_VALUE), // NULL: its day count is never added
                Arrays.asList(LocalDate.parse("2000-01-01"), (long) Integer.MAX_VALUE)))) {
      Expr d = col(0, SqlType.DATE);
      Expr days = col(1, SqlType.BIGINT);
      for (Expr expr :
          List.of(
              call(ScalarFunction.ADD, d, days),
              call(ScalarFunction.ADD, days, d),
              call(ScalarFunction.SUBTRACT, d, lit(Long.MIN_VALUE)),
              call(ScalarFunction.SUBTRACT, d, call(ScalarFunction.NEGATE, days)))) {
        assertThatThrownBy(
                () -> ExpressionCompiler.compile(expr).evaluate(batch, allocator).close())
            .as("%s", expr)
            .isInstanceOfSatisfying(
                QuiverException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NUMERIC_OVERFLOW))
            .hasMessageContaining("outside the range of DATE");
        ExprCheck.check(expr, batch, allocator);
      }
      // The last day a DATE holds is still one.
      assertThat(
              PredicateTest.values(
                  call(ScalarFunction.ADD, date("1970-01-01"), lit((long) Integer.MAX_VALUE)),
                  batch,
                  allocator))
          .containsOnly(LocalDate.ofEpochDay(Integer.MAX_VALUE));
    }
  }
}
