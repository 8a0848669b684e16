package dev.quiver.formats;

import dev.quiver.operators.memory.Allocators;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A small orders table written with Quiver's own file writers, with every SQL type the session
 * returns and NULLs in some columns. Row {@code i} is a pure function of {@code i}, so tests can
 * compute expected answers (or let DuckDB compute them from the same files).
 */
public final class OrdersFiles {
  public static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("customer", ArrowType.Utf8.INSTANCE),
              Field.notNullable("status", ArrowType.Utf8.INSTANCE),
              Field.nullable("amount", new ArrowType.Decimal(12, 2, 128)),
              Field.nullable("quantity", new ArrowType.Int(32, true)),
              Field.nullable("order_date", new ArrowType.Date(DateUnit.DAY)),
              Field.nullable(
                  "discount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("priority", ArrowType.Bool.INSTANCE)));

  private static final List<String> STATUSES = List.of("O", "F", "P");
  private static final LocalDate FIRST_DAY = LocalDate.of(2024, 1, 1);

  private OrdersFiles() {}

  /** Row {@code i}: id, customer, status, amount, quantity, order_date, discount, priority. */
  public static List<Object> row(long i) {
    return Arrays.asList(
        i,
        i % 13 == 0 ? null : "cust-" + (i % 50),
        STATUSES.get((int) (i % 3)),
        BigDecimal.valueOf((i * 37) % 100_000, 2),
        i % 7 == 0 ? null : (int) (i % 50) + 1,
        FIRST_DAY.plusDays(i % 400),
        (i % 11) / 100.0,
        i % 5 == 0);
  }

  /** Rows {@code first} to {@code first + count - 1}. */
  public static List<List<Object>> rows(long first, int count) {
    List<List<Object>> rows = new ArrayList<>(count);
    for (long i = first; i < first + count; i++) {
      rows.add(row(i));
    }
    return rows;
  }

  /**
   * The query the spilling, failover and cancellation tests run over {@link #writeSpillingOrders}:
   * a sort of every row, which spills under a budget of a few hundred KB.
   */
  public static final String SORT_ALL =
      "SELECT id, customer, amount, order_date FROM orders ORDER BY amount DESC NULLS LAST, id";

  /** {@code dir/orders}: 4 Parquet files of 25,000 rows, the input of {@link #SORT_ALL}. */
  public static Path writeSpillingOrders(Path dir) throws Exception {
    try (BufferAllocator allocator = Allocators.newChild("write orders")) {
      return writeParquet(dir.resolve("orders"), 4, 25_000, allocator);
    }
  }

  /** {@code files} Parquet files {@code dir/part-f.parquet} of {@code rowsPerFile} rows each. */
  public static Path writeParquet(Path dir, int files, int rowsPerFile, BufferAllocator allocator)
      throws Exception {
    Files.createDirectories(dir);
    for (int f = 0; f < files; f++) {
      write(
          dir.resolve("part-" + f + ".parquet"),
          FileFormat.PARQUET,
          rows((long) f * rowsPerFile, rowsPerFile),
          allocator);
    }
    return dir;
  }

  /** Writes {@code rows} of {@link #SCHEMA} to one file. */
  public static void write(
      Path file, FileFormat format, List<List<Object>> rows, BufferAllocator allocator) {
    try (BatchFileWriter writer = BatchFileWriter.open(file, format, SCHEMA, allocator);
        VectorSchemaRoot batch = batch(rows, allocator)) {
      writer.write(batch);
      writer.commit();
    }
  }

  /** A batch of {@link #SCHEMA} holding {@code rows}. */
  public static VectorSchemaRoot batch(List<List<Object>> rows, BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    for (int r = 0; r < rows.size(); r++) {
      List<Object> row = rows.get(r);
      for (int c = 0; c < row.size(); c++) {
        set(root.getVector(c), r, row.get(c));
      }
    }
    root.setRowCount(rows.size());
    return root;
  }

  private static void set(FieldVector vector, int index, Object value) {
    if (value == null) {
      vector.setNull(index);
    } else if (vector instanceof BigIntVector v) {
      v.setSafe(index, (Long) value);
    } else if (vector instanceof VarCharVector v) {
      v.setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
    } else if (vector instanceof DecimalVector v) {
      v.setSafe(index, (BigDecimal) value);
    } else if (vector instanceof IntVector v) {
      v.setSafe(index, (Integer) value);
    } else if (vector instanceof DateDayVector v) {
      v.setSafe(index, (int) ((LocalDate) value).toEpochDay());
    } else if (vector instanceof Float8Vector v) {
      v.setSafe(index, (Double) value);
    } else if (vector instanceof BitVector v) {
      v.setSafe(index, (Boolean) value ? 1 : 0);
    } else {
      throw new IllegalArgumentException("no setter for " + vector.getField());
    }
  }
}
