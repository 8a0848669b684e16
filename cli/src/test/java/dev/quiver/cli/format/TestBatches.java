package dev.quiver.cli.format;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Batches with one column of each type the formats treat differently, and NULLs. */
public final class TestBatches {
  public static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(64, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              Field.nullable("price", new ArrowType.Decimal(15, 2, 128)),
              Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
              Field.nullable("at", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
              Field.nullable("ratio", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("ok", ArrowType.Bool.INSTANCE)));

  private TestBatches() {}

  /** One row per element; a null element of any array is NULL. */
  public static VectorSchemaRoot batch(
      BufferAllocator allocator,
      Long[] ids,
      String[] names,
      String[] prices,
      String[] days,
      Long[] micros,
      Double[] ratios,
      Boolean[] oks) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    int rows = ids.length;
    root.allocateNew();
    for (int i = 0; i < rows; i++) {
      if (ids[i] != null) {
        ((BigIntVector) root.getVector(0)).setSafe(i, ids[i]);
      }
      if (names[i] != null) {
        ((VarCharVector) root.getVector(1)).setSafe(i, names[i].getBytes(StandardCharsets.UTF_8));
      }
      if (prices[i] != null) {
        ((DecimalVector) root.getVector(2)).setSafe(i, new BigDecimal(prices[i]));
      }
      if (days[i] != null) {
        ((DateDayVector) root.getVector(3)).setSafe(i, (int) LocalDate.parse(days[i]).toEpochDay());
      }
      if (micros[i] != null) {
        ((TimeStampMicroVector) root.getVector(4)).setSafe(i, micros[i]);
      }
      if (ratios[i] != null) {
        ((Float8Vector) root.getVector(5)).setSafe(i, ratios[i]);
      }
      if (oks[i] != null) {
        ((BitVector) root.getVector(6)).setSafe(i, oks[i] ? 1 : 0);
      }
    }
    root.setRowCount(rows);
    return root;
  }

  /** Writes {@code batches} (closing them) with {@code format} and returns the text. */
  /** A batch of {@link #SCHEMA} without rows. */
  static VectorSchemaRoot empty(BufferAllocator allocator) {
    return batch(
        allocator,
        new Long[0],
        new String[0],
        new String[0],
        new String[0],
        new Long[0],
        new Double[0],
        new Boolean[0]);
  }

  static String write(ResultFormat format, VectorSchemaRoot... batches) throws IOException {
    StringWriter out = new StringWriter();
    ResultWriter writer = format.writer(out);
    writer.begin(SCHEMA);
    for (VectorSchemaRoot batch : batches) {
      try (batch) {
        writer.write(batch);
      }
    }
    writer.end();
    return out.toString();
  }
}
