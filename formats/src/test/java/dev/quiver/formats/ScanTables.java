package dev.quiver.formats;

import dev.quiver.testing.RandomBatches;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Multi-file test tables whose rows say where they come from: {@code id = file * FILE_IDS + row}.
 */
public final class ScanTables {
  public static final long FILE_IDS = 1_000_000;
  public static final Schema SCHEMA = schema();

  private ScanTables() {}

  private static Schema schema() {
    List<Field> fields = new ArrayList<>();
    fields.add(Field.notNullable("id", new ArrowType.Int(64, true)));
    fields.addAll(RandomBatches.ALL_TYPES.getFields());
    return new Schema(fields);
  }

  /** Writes file {@code f} of {@code rowsPerFile.get(f)} rows as {@code dir/part-f.<ext>}. */
  public static void write(
      Path dir, FileFormat format, List<Integer> rowsPerFile, BufferAllocator alloc) {
    for (int f = 0; f < rowsPerFile.size(); f++) {
      Path file = dir.resolve("part-" + f + format.defaultExtension());
      try (BatchFileWriter writer = BatchFileWriter.open(file, format, SCHEMA, alloc)) {
        RandomBatches random = new RandomBatches(f);
        for (int first = 0; first < rowsPerFile.get(f); first += 1000) {
          int rows = Math.min(1000, rowsPerFile.get(f) - first);
          try (VectorSchemaRoot batch = batch(random, f * FILE_IDS + first, rows, alloc)) {
            writer.write(batch);
          }
        }
        writer.commit();
      }
    }
  }

  /** A batch of {@link #SCHEMA} with ids from {@code firstId} and random other columns. */
  public static VectorSchemaRoot batch(
      RandomBatches random, long firstId, int rows, BufferAllocator alloc) {
    VectorSchemaRoot values = random.batch(RandomBatches.ALL_TYPES, rows, alloc);
    BigIntVector id = new BigIntVector(SCHEMA.getFields().get(0), alloc);
    id.allocateNew(rows);
    for (int i = 0; i < rows; i++) {
      id.set(i, firstId + i);
    }
    id.setValueCount(rows);
    List<FieldVector> vectors = new ArrayList<>();
    vectors.add(id);
    vectors.addAll(values.getFieldVectors()); // the vectors move to the new root
    return new VectorSchemaRoot(SCHEMA.getFields(), vectors, rows);
  }

  /** The file name a row with {@code id} was written to. */
  public static String fileOf(long id, FileFormat format) {
    return "part-" + (id / FILE_IDS) + format.defaultExtension();
  }
}
