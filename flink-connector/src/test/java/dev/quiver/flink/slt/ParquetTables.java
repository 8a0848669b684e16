package dev.quiver.flink.slt;

import static java.util.Objects.requireNonNull;

import dev.quiver.formats.BatchFileWriter;
import dev.quiver.formats.FileFormat;
import dev.quiver.operators.memory.Allocators;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes the rows of a {@code table} directive as Parquet files with Quiver's own writer. A table
 * of two or more rows is split into two files (first half, second half), so that a scan at
 * parallelism 2 really reads in two tasks and the exchanges after it carry rows both ways; an empty
 * table is one file holding only the schema.
 */
final class ParquetTables {
  private ParquetTables() {}

  /** Writes {@code table} into the new directory {@code dir} and returns it. */
  static Path write(SltRecord.Table table, Path dir) throws Exception {
    requireNonNull(table, "table is null");
    Files.createDirectories(requireNonNull(dir, "dir is null"));
    Schema schema = new Schema(table.columns().stream().map(TableColumn::field).toList());
    List<List<Object>> rows = table.rows();
    int half = (rows.size() + 1) / 2;
    try (BufferAllocator allocator = Allocators.newChild("slt table " + table.name())) {
      write(dir.resolve("part-0.parquet"), schema, rows.subList(0, half), allocator);
      if (half < rows.size()) {
        write(dir.resolve("part-1.parquet"), schema, rows.subList(half, rows.size()), allocator);
      }
    }
    return dir;
  }

  private static void write(
      Path file, Schema schema, List<List<Object>> rows, BufferAllocator allocator) {
    try (BatchFileWriter writer =
            BatchFileWriter.open(file, FileFormat.PARQUET, schema, allocator);
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator)) {
      batch.getFieldVectors().forEach(v -> v.setInitialCapacity(Math.max(rows.size(), 1)));
      batch.allocateNew();
      for (int r = 0; r < rows.size(); r++) {
        for (int c = 0; c < schema.getFields().size(); c++) {
          set(batch.getVector(c), r, rows.get(r).get(c));
        }
      }
      batch.setRowCount(rows.size());
      writer.write(batch);
      writer.commit();
    }
  }

  private static void set(FieldVector vector, int index, Object value) {
    if (value == null) {
      vector.setNull(index);
    } else if (vector instanceof BitVector v) {
      v.setSafe(index, (Boolean) value ? 1 : 0);
    } else if (vector instanceof IntVector v) {
      v.setSafe(index, (Integer) value);
    } else if (vector instanceof BigIntVector v) {
      v.setSafe(index, (Long) value);
    } else if (vector instanceof Float8Vector v) {
      v.setSafe(index, (Double) value);
    } else if (vector instanceof DecimalVector v) {
      v.setSafe(index, (BigDecimal) value);
    } else if (vector instanceof VarCharVector v) {
      v.setSafe(index, ((String) value).getBytes(StandardCharsets.UTF_8));
    } else if (vector instanceof DateDayVector v) {
      v.setSafe(index, (int) ((LocalDate) value).toEpochDay());
    } else if (vector instanceof TimeStampMicroVector v) {
      LocalDateTime time = (LocalDateTime) value;
      v.setSafe(index, time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000);
    } else {
      throw new IllegalArgumentException("no setter for " + vector.getField());
    }
  }
}
