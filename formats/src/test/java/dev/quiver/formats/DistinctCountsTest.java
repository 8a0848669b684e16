package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.plan.node.Column;
import dev.quiver.plan.node.RowSchema;
import dev.quiver.plan.type.SqlType;
import dev.quiver.testing.ArrowLeakCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Distinct-value bounds of Parquet columns from their ranges and their row groups' dictionaries.
 */
@ExtendWith(ArrowLeakCheck.class)
class DistinctCountsTest {
  private static final int BATCHES = 8;
  private static final int ROWS_PER_BATCH = 4096;
  private static final long ROWS = (long) BATCHES * ROWS_PER_BATCH;

  @TempDir Path dir;

  /**
   * Three columns of 32,768 rows: {@code sparse} holds, in order, every key four times where keys
   * are multiples of 4 (as TPC-H's sparse order keys with four lines each: the range spans as many
   * values as rows, 8,192 keys are there); {@code unique} is distinct everywhere; {@code small}
   * spans 0..9.
   */
  private Map<Integer, Long> bounds(BufferAllocator allocator) throws IOException {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("sparse", new ArrowType.Int(64, true)),
                Field.nullable("unique", new ArrowType.Int(64, true)),
                Field.nullable("small", new ArrowType.Int(64, true))));
    List<LongUnaryOperator> values =
        List.of(row -> row / 4 * 4, row -> row * 7919 % 1_000_003, row -> row % 10);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = 0; b < BATCHES; b++) {
      VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
      for (int c = 0; c < values.size(); c++) {
        BigIntVector vector = (BigIntVector) root.getVector(c);
        vector.allocateNew(ROWS_PER_BATCH);
        for (int i = 0; i < ROWS_PER_BATCH; i++) {
          vector.set(i, values.get(c).applyAsLong((long) b * ROWS_PER_BATCH + i));
        }
        vector.setValueCount(ROWS_PER_BATCH);
      }
      root.setRowCount(ROWS_PER_BATCH);
      batches.add(root);
    }
    Path file = dir.resolve("t.parquet");
    TestFiles.write(file, FileFormat.PARQUET, schema, batches, allocator);
    RowSchema rowSchema =
        new RowSchema(
            List.of(
                Column.of("sparse", SqlType.BIGINT),
                Column.of("unique", SqlType.BIGINT),
                Column.of("small", SqlType.BIGINT)));
    return DistinctCounts.estimate(
        FileFormat.PARQUET,
        List.of(new DataFile(file.toString(), Files.size(file))),
        rowSchema,
        ROWS);
  }

  @Test
  void aClusteredKeyIsBoundedByItsDictionariesAndOthersByTheirRanges(BufferAllocator allocator)
      throws IOException {
    Map<Integer, Long> bounds = bounds(allocator);

    // 8,192 keys; a key split between two row groups is counted in both
    assertThat(bounds.get(0)).isBetween(8_192L, 8_192L + BATCHES);
    assertThat(bounds.get(1)).isEqualTo(ROWS);
    assertThat(bounds.get(2)).isEqualTo(10L);
  }

  @Test
  void everyRowGroupOfTheFileHasItsDictionaryOffset(BufferAllocator allocator) throws IOException {
    bounds(allocator);
    List<ParquetFooter.RowGroup> groups = ParquetFooter.read(dir.resolve("t.parquet")).rowGroups();
    assertThat(groups).isNotEmpty();
    assertThat(groups).allSatisfy(g -> assertThat(g.dictionaries()).containsKey("sparse"));
  }
}
