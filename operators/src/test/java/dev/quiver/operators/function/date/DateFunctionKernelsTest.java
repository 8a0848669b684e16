package dev.quiver.operators.function.date;

import static dev.quiver.plan.expr.Exprs.col;
import static dev.quiver.plan.expr.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.expr.ExpressionCompiler;
import dev.quiver.operators.function.FunctionRegistry;
import dev.quiver.plan.expr.Expr;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.charset.StandardCharsets;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The date kernels where an edge is easier to pin than in an {@code .slt} file: every day of two
 * centuries against java.time (ISO weeks across year ends, truncation), date_diff (not reachable
 * from SQL in DuckDB's argument order: Calcite's Babel parser reads DATE_DIFF as BigQuery's), and
 * strftime / strptime round trips of random timestamps before and after 1970.
 */
@ExtendWith(ArrowLeakCheck.class)
class DateFunctionKernelsTest {
  private static final long DAY = 86_400_000_000L;

  @Test
  void partsAndTruncationAgreeWithJavaTimeOnEveryDay() {
    for (LocalDate date = LocalDate.of(1890, 1, 1);
        date.isBefore(LocalDate.of(2110, 1, 1));
        date = date.plusDays(1)) {
      long micros = date.toEpochDay() * DAY + 45_296_789_012L; // 12:34:56.789012
      assertThat(DatePart.part(DateUnit.WEEK, micros))
          .as("week of %s", date)
          .isEqualTo(date.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
      assertThat(DatePart.part(DateUnit.ISOYEAR, micros))
          .isEqualTo(date.get(IsoFields.WEEK_BASED_YEAR));
      assertThat(DatePart.part(DateUnit.DOY, micros)).isEqualTo(date.getDayOfYear());
      assertThat(DatePart.part(DateUnit.DOW, micros)).isEqualTo(date.getDayOfWeek().getValue() % 7);
      assertThat(DatePart.part(DateUnit.QUARTER, micros))
          .isEqualTo(date.get(IsoFields.QUARTER_OF_YEAR));
      assertThat(DatePart.part(DateUnit.MILLISECOND, micros)).isEqualTo(56_789);
      LocalDate monday = date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
      assertThat(DateTrunc.truncate(DateUnit.WEEK, micros)).isEqualTo(monday.toEpochDay() * DAY);
      LocalDate quarter = LocalDate.of(date.getYear(), (date.getMonthValue() - 1) / 3 * 3 + 1, 1);
      assertThat(DateTrunc.truncate(DateUnit.QUARTER, micros))
          .isEqualTo(quarter.toEpochDay() * DAY);
      assertThat(DateTrunc.truncate(DateUnit.MINUTE, micros))
          .isEqualTo(date.toEpochDay() * DAY + 45_240_000_000L);
    }
  }

  /** DuckDB's answers: boundaries crossed, except week (whole weeks of days, toward zero). */
  @Test
  void dateDiffCountsBoundariesAsDuckDb() {
    assertThat(diff("month", "2024-01-31 00:00", "2024-02-01 00:00")).isEqualTo(1);
    assertThat(diff("quarter", "2024-03-31 00:00", "2024-04-01 00:00")).isEqualTo(1);
    assertThat(diff("year", "2024-12-31 00:00", "2023-01-01 00:00")).isEqualTo(-1);
    assertThat(diff("day", "2024-12-31 00:00", "2023-01-01 00:00")).isEqualTo(-730);
    assertThat(diff("day", "1969-12-31 23:30", "1970-01-01 00:30")).isEqualTo(1);
    assertThat(diff("week", "2024-05-15 00:00", "2024-05-21 00:00")).isEqualTo(0);
    assertThat(diff("week", "2024-05-15 10:00", "2024-05-22 09:00")).isEqualTo(1);
    assertThat(diff("week", "2024-05-22 00:00", "2024-05-16 00:00")).isEqualTo(0);
    assertThat(diff("week", "2024-05-22 00:00", "2024-05-15 00:00")).isEqualTo(-1);
    assertThat(diff("hour", "1969-12-31 23:30", "1970-01-01 00:30")).isEqualTo(1);
    assertThat(diff("hour", "1969-12-31 22:30", "1969-12-31 23:10")).isEqualTo(1);
    assertThat(diff("minute", "1969-12-31 23:58:30", "1969-12-31 23:59:10")).isEqualTo(1);
    assertThat(diff("second", "1969-12-31 23:59:59.5", "1970-01-01 00:00:00.4")).isEqualTo(1);
    assertThat(diff("millisecond", "2024-01-01 10:59:59.9991", "2024-01-01 11:00")).isEqualTo(1);
    assertThat(diff("microsecond", "2024-01-01 00:00", "2024-01-01 00:00:01")).isEqualTo(1_000_000);
  }

  @Test
  void dateDiffOverABatchWithNullsAndMixedTypes(BufferAllocator allocator) {
    try (DateDayVector start = dates(allocator, "2024-01-31", null, "1969-12-31", "2000-02-29");
        TimeStampMicroVector end =
            timestamps(
                allocator, "2024-03-01 00:00", "2024-01-01 00:00", null, "2001-02-28 23:59");
        VectorSchemaRoot batch = VectorSchemaRoot.of(start, end)) {
      batch.setRowCount(4);
      Expr days =
          FunctionRegistry.call(
              "date_diff", lit("day"), col(0, SqlType.DATE), col(1, SqlType.TIMESTAMP));
      Expr months =
          FunctionRegistry.call(
              "datediff", lit("MONTHS"), col(0, SqlType.DATE), col(1, SqlType.TIMESTAMP));
      assertThat(longs(days, batch, allocator)).containsExactly(30L, null, null, 365L);
      assertThat(longs(months, batch, allocator)).containsExactly(2L, null, null, 12L);
    }
  }

  /** Flink's to_timestamp_ltz: epoch seconds or milliseconds as the instant's UTC TIMESTAMP. */
  @Test
  void toTimestampLtzReadsEpochSecondsOrMilliseconds(BufferAllocator allocator) {
    try (BigIntVector epoch = new BigIntVector("epoch", allocator);
        VectorSchemaRoot batch = VectorSchemaRoot.of(epoch)) {
      epoch.allocateNew(3);
      epoch.set(0, 1_767_225_603_123L);
      epoch.setNull(1);
      epoch.set(2, -1_500L);
      epoch.setValueCount(3);
      batch.setRowCount(3);
      Expr millis = FunctionRegistry.call("to_timestamp_ltz", col(0, SqlType.BIGINT), lit(3));
      Expr byDefault = FunctionRegistry.call("TO_TIMESTAMP_LTZ", col(0, SqlType.BIGINT));
      Expr seconds = FunctionRegistry.call("to_timestamp_ltz", col(0, SqlType.BIGINT), lit(0));
      long expected = LocalDateTime.parse("2026-01-01T00:00:03.123").toEpochSecond(ZoneOffset.UTC);
      assertThat(longs(millis, batch, allocator))
          .containsExactly(expected * 1_000_000 + 123_000, null, -1_500_000L);
      assertThat(longs(byDefault, batch, allocator))
          .containsExactly(expected * 1_000_000 + 123_000, null, -1_500_000L);
      assertThat(longs(seconds, batch, allocator))
          .containsExactly(1_767_225_603_123_000_000L, null, -1_500_000_000L);
      assertThatThrownBy(
              () -> FunctionRegistry.call("to_timestamp_ltz", col(0, SqlType.BIGINT), lit(6)))
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("to_timestamp_ltz(epoch, precision)");
      epoch.set(0, Long.MAX_VALUE / 10);
      assertThatThrownBy(() -> longs(millis, batch, allocator))
          .isInstanceOf(QuiverException.class)
          .extracting(e -> ((QuiverException) e).code())
          .isEqualTo(ErrorCode.NUMERIC_OVERFLOW);
    }
  }

  @Test
  void strftimeThenStrptimeGivesTheTimestampBack(BufferAllocator allocator) {
    Random random = new Random(7);
    String[] values = new String[3000];
    for (int i = 0; i < values.length; i++) {
      long micros = random.nextLong() % (4000L * 365 * DAY);
      values[i] = i % 97 == 0 ? null : text(micros);
    }
    try (TimeStampMicroVector ts = timestamps(allocator, values);
        VectorSchemaRoot batch = VectorSchemaRoot.of(ts)) {
      batch.setRowCount(values.length);
      Expr formatted =
          FunctionRegistry.call(
              "strftime", col(0, SqlType.TIMESTAMP), lit("%Y-%m-%d %H:%M:%S.%f (%a %b %j)"));
      Expr back =
          FunctionRegistry.call("strptime", formatted, lit("%Y-%m-%d %H:%M:%S.%f (%a %b %j)"));
      try (FieldVector out = ExpressionCompiler.compile(back).evaluate(batch, allocator)) {
        TimeStampMicroVector result = (TimeStampMicroVector) out;
        for (int i = 0; i < values.length; i++) {
          if (values[i] == null) {
            assertThat(result.isNull(i)).isTrue();
          } else {
            assertThat(result.get(i)).as(values[i]).isEqualTo(ts.get(i));
          }
        }
      }
      try (FieldVector out = ExpressionCompiler.compile(formatted).evaluate(batch, allocator)) {
        VarCharVector text = (VarCharVector) out;
        LocalDateTime first = LocalDateTime.parse(values[1].replace(' ', 'T'));
        assertThat(new String(text.get(1), StandardCharsets.UTF_8))
            .startsWith(String.format("%04d-", first.getYear()).replace("-0", "-"))
            .contains(String.format("%03d)", first.getDayOfYear()));
      }
    }
  }

  /**
   * Flink's DATE_FORMAT formats the timestamp's local date-time with java.time's DateTimeFormatter:
   * the same text for every supported letter, over random timestamps of years 1000 to 9999.
   */
  @Test
  void dateFormatAgreesWithJavaTimeFormatter(BufferAllocator allocator) {
    String[] patterns = {
      "yyyy-MM-dd",
      "yyyy-MM-dd HH:mm:ss.SSS",
      "yy/M/d H:m:s SSSSSS",
      "EEE, d MMM uuuu hh:mm a",
      "EEEE dd MMMM y 'at' HH 'o''clock', DDD D",
      "''yyyyMMdd''"
    };
    Random random = new Random(11);
    long from = LocalDate.of(1000, 1, 1).toEpochDay() * DAY;
    long span = LocalDate.of(9999, 12, 31).toEpochDay() * DAY - from;
    String[] values = new String[2000];
    LocalDateTime[] times = new LocalDateTime[values.length];
    for (int i = 0; i < values.length; i++) {
      long micros = from + Math.floorMod(random.nextLong(), span);
      values[i] = i % 89 == 0 ? null : text(micros);
      times[i] =
          LocalDateTime.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L),
              (int) Math.floorMod(micros, 1_000_000L) * 1000,
              ZoneOffset.UTC);
    }
    try (TimeStampMicroVector ts = timestamps(allocator, values);
        VectorSchemaRoot batch = VectorSchemaRoot.of(ts)) {
      batch.setRowCount(values.length);
      for (String pattern : patterns) {
        DateTimeFormatter java = DateTimeFormatter.ofPattern(pattern, Locale.ENGLISH);
        Expr formatted =
            FunctionRegistry.call("date_format", col(0, SqlType.TIMESTAMP), lit(pattern));
        try (FieldVector out = ExpressionCompiler.compile(formatted).evaluate(batch, allocator)) {
          VarCharVector text = (VarCharVector) out;
          for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
              assertThat(text.isNull(i)).isTrue();
            } else {
              assertThat(new String(text.get(i), StandardCharsets.UTF_8))
                  .as("%s as %s", values[i], pattern)
                  .isEqualTo(times[i].format(java));
            }
          }
        }
      }
    }
  }

  @Test
  void dateFormatNamesAnUnsupportedLetter() {
    for (String pattern : new String[] {"yyyy-ww", "GGG yyyy", "yyyy-MM-dd'T", "yyy", ""}) {
      assertThatThrownBy(
              () ->
                  ExpressionCompiler.compile(
                      FunctionRegistry.call(
                          "date_format", col(0, SqlType.TIMESTAMP), lit(pattern))))
          .as(pattern)
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("date_format: cannot use the format '" + pattern + "'")
          .extracting(e -> ((QuiverException) e).code())
          .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }
  }

  @Test
  void strptimeNamesTheRowAndTheFormat(BufferAllocator allocator) {
    try (VarCharVector s = new VarCharVector("s", allocator)) {
      s.allocateNew();
      s.setSafe(0, "2024-05-17".getBytes(StandardCharsets.UTF_8));
      s.setSafe(1, "2024-5-17 ünï".getBytes(StandardCharsets.UTF_8));
      s.setValueCount(2);
      try (VectorSchemaRoot batch = VectorSchemaRoot.of(s)) {
        batch.setRowCount(2);
        Expr parse = FunctionRegistry.call("strptime", col(0, SqlType.VARCHAR), lit("%Y-%m-%d"));
        assertThatThrownBy(
                () -> ExpressionCompiler.compile(parse).evaluate(batch, allocator).close())
            .isInstanceOf(QuiverException.class)
            .hasMessageContaining("'2024-5-17 ünï' does not match the format '%Y-%m-%d'")
            .hasMessageContaining("at row 1")
            .satisfies(
                e ->
                    assertThat(((QuiverException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
      }
    }
  }

  /** A constant call that fails is left unfolded: it fails when it runs, naming the row. */
  @Test
  void makeDateRejectsDaysNotInTheMonth(BufferAllocator allocator) {
    Expr leap = FunctionRegistry.call("make_date", lit(1900L), lit(2L), lit(29L));
    assertThat(ExpressionCompiler.fold(leap)).isEqualTo(leap);
    try (DateDayVector one = dates(allocator, "2024-01-01");
        VectorSchemaRoot batch = VectorSchemaRoot.of(one)) {
      batch.setRowCount(1);
      assertThatThrownBy(() -> ExpressionCompiler.compile(leap).evaluate(batch, allocator).close())
          .isInstanceOf(QuiverException.class)
          .hasMessageContaining("make_date: 1900-2-29 is not a date");
    }
    assertThat(
            ExpressionCompiler.fold(
                FunctionRegistry.call("make_date", lit(-4L), lit(2L), lit(29L))))
        .hasToString("DATE '-0004-02-29'");
  }

  private static long diff(String unit, String start, String end) {
    return DateDiff.difference(DateUnit.of(lit(unit)), micros(start), micros(end));
  }

  private static long micros(String text) {
    LocalDateTime time = LocalDateTime.parse(text.replace(' ', 'T'));
    return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
  }

  private static String text(long micros) {
    LocalDateTime time =
        LocalDateTime.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L),
            (int) Math.floorMod(micros, 1_000_000L) * 1000,
            ZoneOffset.UTC);
    return time.toString().replace('T', ' ');
  }

  private static List<Long> longs(Expr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
    try (FieldVector out = ExpressionCompiler.compile(expr).evaluate(batch, allocator)) {
      // A BIGINT, or a TIMESTAMP's microseconds.
      List<Long> values = new ArrayList<>();
      for (int i = 0; i < batch.getRowCount(); i++) {
        values.add(
            out.isNull(i)
                ? null
                : out instanceof TimeStampMicroVector ts ? ts.get(i) : ((BigIntVector) out).get(i));
      }
      return values;
    }
  }

  private static DateDayVector dates(BufferAllocator allocator, String... values) {
    DateDayVector vector = new DateDayVector("d", allocator);
    vector.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        vector.setNull(i);
      } else {
        vector.set(i, (int) LocalDate.parse(values[i]).toEpochDay());
      }
    }
    vector.setValueCount(values.length);
    return vector;
  }

  private static TimeStampMicroVector timestamps(BufferAllocator allocator, String... values) {
    TimeStampMicroVector vector = new TimeStampMicroVector("ts", allocator);
    vector.allocateNew(values.length);
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        vector.setNull(i);
      } else {
        vector.set(i, micros(values[i]));
      }
    }
    vector.setValueCount(values.length);
    return vector;
  }
}
