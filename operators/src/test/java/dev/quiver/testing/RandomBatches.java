package dev.quiver.testing;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Seeded random Arrow batches of every type the SQL layer uses, for tests that compare an
 * implementation with a reference. Nulls appear with the configured probability in every column;
 * decimals reach the edge of their precision; strings may be long.
 */
public final class RandomBatches {
  /** One nullable column of every supported type. */
  public static final Schema ALL_TYPES =
      new Schema(
          List.of(
              field("bool", ArrowType.Bool.INSTANCE),
              field("i8", new ArrowType.Int(8, true)),
              field("i16", new ArrowType.Int(16, true)),
              field("i32", new ArrowType.Int(32, true)),
              field("i64", new ArrowType.Int(64, true)),
              field("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
              field("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              field("dec15_2", new ArrowType.Decimal(15, 2, 128)),
              field("dec38_10", new ArrowType.Decimal(38, 10, 128)),
              field("utf8", ArrowType.Utf8.INSTANCE),
              field("date", new ArrowType.Date(DateUnit.DAY)),
              field("ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

  private final Random random;
  private double nullFraction = 0.1;
  private int maxStringLength = 20;
  private int distinctValues = Integer.MAX_VALUE;

  public RandomBatches(long seed) {
    this.random = new Random(seed);
  }

  public static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  /** Probability of a null in any cell (0 for none, 1 for all). */
  public RandomBatches nullFraction(double fraction) {
    this.nullFraction = fraction;
    return this;
  }

  /** Upper bound of generated string lengths in characters. */
  public RandomBatches maxStringLength(int length) {
    this.maxStringLength = length;
    return this;
  }

  /** Limits every column to about this many distinct values (to produce repeated keys). */
  public RandomBatches distinctValues(int count) {
    this.distinctValues = count;
    return this;
  }

  /** A new batch of {@code rows} random rows, owned by the caller. */
  public VectorSchemaRoot batch(Schema schema, int rows, BufferAllocator allocator) {
    requireNonNull(schema, "schema is null");
    VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
    try {
      for (FieldVector vector : root.getFieldVectors()) {
        fill(vector, rows);
      }
      root.setRowCount(rows);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  private void fill(FieldVector vector, int rows) {
    vector.allocateNew();
    for (int i = 0; i < rows; i++) {
      if (random.nextDouble() < nullFraction) {
        vector.setNull(i);
        continue;
      }
      long draw =
          distinctValues == Integer.MAX_VALUE ? random.nextLong() : random.nextInt(distinctValues);
      setValue(vector, i, draw);
    }
    vector.setValueCount(rows);
  }

  private void setValue(FieldVector vector, int i, long draw) {
    if (vector instanceof BitVector) {
      ((BitVector) vector).setSafe(i, (int) (draw & 1));
    } else if (vector instanceof TinyIntVector) {
      ((TinyIntVector) vector).setSafe(i, (byte) draw);
    } else if (vector instanceof SmallIntVector) {
      ((SmallIntVector) vector).setSafe(i, (short) draw);
    } else if (vector instanceof IntVector) {
      ((IntVector) vector).setSafe(i, (int) draw);
    } else if (vector instanceof BigIntVector) {
      ((BigIntVector) vector).setSafe(i, draw);
    } else if (vector instanceof Float4Vector) {
      ((Float4Vector) vector).setSafe(i, (float) (draw % 100_000) / 7f);
    } else if (vector instanceof Float8Vector) {
      ((Float8Vector) vector).setSafe(i, (double) draw / 3.0);
    } else if (vector instanceof DecimalVector) {
      DecimalVector decimal = (DecimalVector) vector;
      decimal.setSafe(i, decimal(decimal.getPrecision(), decimal.getScale(), draw));
    } else if (vector instanceof VarCharVector) {
      ((VarCharVector) vector).setSafe(i, string(draw));
    } else if (vector instanceof DateDayVector) {
      ((DateDayVector) vector).setSafe(i, (int) Math.floorMod(draw, 40_000L)); // 1970..2079
    } else if (vector instanceof TimeStampMicroVector) {
      ((TimeStampMicroVector) vector).setSafe(i, Math.floorMod(draw, 4_000_000_000_000_000L));
    } else {
      throw new IllegalArgumentException("unsupported vector " + vector.getField());
    }
  }

  private BigDecimal decimal(int precision, int scale, long draw) {
    if (distinctValues != Integer.MAX_VALUE) {
      return BigDecimal.valueOf(draw, scale);
    }
    // Uniform over all digits of the precision, so values reach its edge.
    BigInteger unscaled = new BigInteger(precision * 4, random).mod(BigInteger.TEN.pow(precision));
    return new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), scale);
  }

  private byte[] string(long draw) {
    if (distinctValues != Integer.MAX_VALUE) {
      return ("k" + draw).getBytes(StandardCharsets.UTF_8);
    }
    int length = random.nextInt(maxStringLength + 1);
    StringBuilder text = new StringBuilder(length);
    for (int j = 0; j < length; j++) {
      // Mostly ASCII with some multi-byte characters.
      text.append(
          random.nextInt(10) == 0
              ? (char) ('α' + random.nextInt(20))
              : (char) ('a' + random.nextInt(26)));
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }
}
