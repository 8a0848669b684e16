package dev.quiver.operators.keyrange;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import java.math.BigDecimal;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Ranges of build key columns: NULLs skipped, every supported type, over several batches. */
@ExtendWith(ArrowLeakCheck.class)
class KeyRangeBuilderTest {
  @Test
  void integersOverSeveralBatchesSkipNulls() {
    try (BufferAllocator allocator = new RootAllocator();
        IntVector first = new IntVector("k", allocator);
        IntVector second = new IntVector("k", allocator)) {
      first.allocateNew(4);
      first.set(0, 7);
      first.setNull(1); // a NULL slot may hold any bits
      first.set(2, -3);
      first.set(3, 12);
      first.setValueCount(4);
      second.allocateNew(2);
      second.setNull(0);
      second.set(1, 40);
      second.setValueCount(2);
      KeyRangeBuilder builder = new KeyRangeBuilder();
      builder.add(first, 3); // only the first three rows
      assertThat(builder.range()).isEqualTo(new KeyRange(-3, 7));
      builder.add(second, 2);
      assertThat(builder.range()).isEqualTo(new KeyRange(-3, 40));
    }
  }

  @Test
  void onlyNullsOrNoRowsGiveTheEmptyRange() {
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector vector = new BigIntVector("k", allocator)) {
      vector.allocateNew(2);
      vector.setNull(0);
      vector.setNull(1);
      vector.setValueCount(2);
      KeyRangeBuilder builder = new KeyRangeBuilder();
      assertThat(builder.range()).isEqualTo(KeyRange.EMPTY);
      builder.add(vector, 2);
      assertThat(builder.range().isEmpty()).isTrue();
    }
  }

  @Test
  void longsShortsDatesAndDecimals() {
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector longs = new BigIntVector("l", allocator);
        SmallIntVector shorts = new SmallIntVector("s", allocator);
        DateDayVector dates = new DateDayVector("d", allocator);
        DecimalVector decimals = new DecimalVector("x", allocator, 15, 2)) {
      longs.allocateNew(2);
      longs.set(0, Long.MIN_VALUE + 1);
      longs.set(1, 5_000_000_000L);
      longs.setValueCount(2);
      shorts.allocateNew(2);
      shorts.set(0, (short) -2);
      shorts.set(1, (short) 300);
      shorts.setValueCount(2);
      dates.allocateNew(2);
      dates.set(0, 10957);
      dates.set(1, 11322);
      dates.setValueCount(2);
      decimals.allocateNew(3);
      decimals.set(0, new BigDecimal("-1.50"));
      decimals.set(1, new BigDecimal("1234567890123.45"));
      decimals.setNull(2);
      decimals.setValueCount(3);
      assertThat(range(longs, 2)).isEqualTo(new KeyRange(Long.MIN_VALUE + 1, 5_000_000_000L));
      assertThat(range(shorts, 2)).isEqualTo(new KeyRange(-2, 300));
      assertThat(range(dates, 2)).isEqualTo(new KeyRange(10957, 11322));
      assertThat(range(decimals, 3)).isEqualTo(new KeyRange(-150, 123456789012345L));
    }
  }

  @Test
  void aDecimalBeyondALongMakesTheRangeUnknown() {
    try (BufferAllocator allocator = new RootAllocator();
        DecimalVector decimals = new DecimalVector("x", allocator, 38, 0)) {
      decimals.allocateNew(2);
      decimals.set(0, BigDecimal.ONE);
      decimals.set(1, new BigDecimal("100000000000000000000")); // 1e20
      decimals.setValueCount(2);
      assertThat(range(decimals, 2)).isNull();
    }
  }

  @Test
  void supportedTypes() {
    assertThat(KeyRangeBuilder.supports(new ArrowType.Int(32, true))).isTrue();
    assertThat(KeyRangeBuilder.supports(new ArrowType.Int(64, true))).isTrue();
    assertThat(KeyRangeBuilder.supports(new ArrowType.Int(32, false))).isFalse();
    assertThat(KeyRangeBuilder.supports(new ArrowType.Date(DateUnit.DAY))).isTrue();
    assertThat(KeyRangeBuilder.supports(new ArrowType.Date(DateUnit.MILLISECOND))).isFalse();
    assertThat(KeyRangeBuilder.supports(new ArrowType.Decimal(15, 2, 128))).isTrue();
    assertThat(KeyRangeBuilder.supports(ArrowType.Utf8.INSTANCE)).isFalse();
    assertThat(KeyRangeBuilder.supports(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)))
        .isFalse();
  }

  @Test
  void rangesIntersect() {
    assertThat(new KeyRange(1, 10).intersect(new KeyRange(5, 20))).isEqualTo(new KeyRange(5, 10));
    assertThat(new KeyRange(1, 4).intersect(new KeyRange(5, 20))).isEqualTo(KeyRange.EMPTY);
    assertThat(KeyRange.EMPTY.intersect(new KeyRange(1, 2)).isEmpty()).isTrue();
  }

  private static KeyRange range(org.apache.arrow.vector.FieldVector vector, int rows) {
    KeyRangeBuilder builder = new KeyRangeBuilder();
    builder.add(vector, rows);
    return builder.range();
  }
}
