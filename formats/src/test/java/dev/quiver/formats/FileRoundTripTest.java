package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@ExtendWith(ArrowLeakCheck.class)
class FileRoundTripTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void everyTypeRoundTrips(FileFormat format, BufferAllocator allocator) {
    Schema schema = RandomBatches.ALL_TYPES;
    RandomBatches random = new RandomBatches(7).nullFraction(0.2);
    List<List<Object>> expected = new ArrayList<>();
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int rows : new int[] {1000, 0, 20_000}) {
      VectorSchemaRoot batch = random.batch(schema, rows, allocator);
      expected.addAll(BatchRows.rows(batch));
      batches.add(batch);
    }
    int utf8 = TestFiles.names(schema).indexOf("utf8");
    assertThat(expected).anyMatch(row -> "".equals(row.get(utf8))); // "" and NULL both occur
    assertThat(expected).anyMatch(row -> row.get(utf8) == null);
    Path file = dir.resolve("t" + format.defaultExtension());

    assertThat(TestFiles.write(file, format, schema, batches, allocator)).isEqualTo(21_000);

    FileTable table =
        FileTable.open(
            file.toString(), Optional.empty(), CsvOptions.DEFAULT, declared(format, schema));
    assertThat(table.schema().getFields()).isEqualTo(schema.getFields());
    List<List<Object>> actual = new ArrayList<>();
    try (FileBatchReader reader =
        table.reader(table.scan(TestFiles.names(schema), Optional.empty()), allocator)) {
      assertThat(reader.schema()).isEqualTo(schema);
      TestFiles.forEach(
          reader,
          batch -> {
            assertThat(batch.getRowCount()).isBetween(1, ScanSpec.DEFAULT_BATCH_ROWS);
            actual.addAll(BatchRows.rows(batch));
          });
    }
    TestFiles.assertSameRows(actual, expected);
    assertThat(dir.toFile().list()).containsExactly(file.getFileName().toString());
  }

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void emptyResultStillWritesAFileWithTheSchema(FileFormat format, BufferAllocator allocator) {
    Schema schema = RandomBatches.ALL_TYPES;
    Path file = dir.resolve("empty" + format.defaultExtension());

    assertThat(TestFiles.write(file, format, schema, List.of(), allocator)).isZero();

    FileTable table =
        FileTable.open(
            file.toString(), Optional.empty(), CsvOptions.DEFAULT, declared(format, schema));
    assertThat(TestFiles.names(table.schema())).isEqualTo(TestFiles.names(schema));
    if (format != FileFormat.CSV) {
      assertThat(table.schema().getFields()).isEqualTo(schema.getFields());
    }
    assertThat(
            TestFiles.read(table, table.scan(TestFiles.names(schema), Optional.empty()), allocator))
        .isEmpty();
    assertThat(table.statistics().rows()).isZero();
  }

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void projectionReadsOnlyTheRequestedColumnsInTheirOrder(
      FileFormat format, BufferAllocator allocator) {
    Schema schema = RandomBatches.ALL_TYPES;
    VectorSchemaRoot batch = new RandomBatches(3).batch(schema, 500, allocator);
    List<List<Object>> all = BatchRows.rows(batch);
    Path file = dir.resolve("p" + format.defaultExtension());
    TestFiles.write(file, format, schema, List.of(batch), allocator);
    FileTable table =
        FileTable.open(
            file.toString(), Optional.empty(), CsvOptions.DEFAULT, declared(format, schema));

    ScanSpec scan = table.scan(List.of("utf8", "i64"), Optional.empty());
    List<List<Object>> rows = TestFiles.read(table, scan, allocator);

    assertThat(TestFiles.names(scan.outputSchema())).containsExactly("utf8", "i64");
    int utf8 = TestFiles.names(schema).indexOf("utf8");
    int i64 = TestFiles.names(schema).indexOf("i64");
    List<List<Object>> expected = new ArrayList<>();
    all.forEach(row -> expected.add(java.util.Arrays.asList(row.get(utf8), row.get(i64))));
    assertThat(rows).isEqualTo(expected);

    ScanSpec byIndex =
        ScanSpec.of(format, table.schema(), CsvOptions.DEFAULT).withColumnIndexes(List.of(i64));
    assertThat(TestFiles.names(byIndex.outputSchema())).containsExactly("i64");
    ScanSpec none = table.scan(List.of(), Optional.empty());
    long[] count = {0};
    try (FileBatchReader reader = table.reader(none, allocator)) {
      TestFiles.forEach(
          reader,
          b -> {
            assertThat(b.getFieldVectors()).isEmpty();
            count[0] += b.getRowCount();
          });
    }
    assertThat(count[0]).isEqualTo(500);
  }

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void pushedBatchesAreCommittedAtomically(FileFormat format, BufferAllocator allocator) {
    Schema schema = RandomBatches.ALL_TYPES;
    Path file = dir.resolve("pushed" + format.defaultExtension());
    RandomBatches random = new RandomBatches(11);
    List<List<Object>> expected = new ArrayList<>();
    try (BatchFileWriter writer = BatchFileWriter.open(file, format, schema, allocator)) {
      for (int i = 0; i < 5; i++) {
        try (VectorSchemaRoot batch = random.batch(schema, 3000, allocator)) {
          expected.addAll(BatchRows.rows(batch));
          writer.write(batch);
        }
        assertThat(file).doesNotExist();
      }
      assertThat(writer.commit()).isEqualTo(15_000);
    }
    FileTable table =
        FileTable.open(
            file.toString(), Optional.empty(), CsvOptions.DEFAULT, declared(format, schema));
    assertThat(
            TestFiles.read(table, table.scan(TestFiles.names(schema), Optional.empty()), allocator))
        .isEqualTo(expected);
  }

  // CSV carries no types: the test declares them, as a user would.
  static Optional<Schema> declared(FileFormat format, Schema schema) {
    return format == FileFormat.CSV ? Optional.of(schema) : Optional.empty();
  }

  static List<String> names(List<Field> fields) {
    return TestFiles.names(new Schema(fields));
  }
}
