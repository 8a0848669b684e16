package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.formats.ColumnPredicate.Op;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.dataset.file.FileSystemDatasetFactory;
import org.apache.arrow.dataset.scanner.ScanOptions;
import org.apache.arrow.dataset.scanner.Scanner;
import org.apache.arrow.dataset.source.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Arrow accepts the Substrait filters Quiver builds for every type it pushes down. */
@ExtendWith(ArrowLeakCheck.class)
class SubstraitFilterTest {
  @TempDir Path dir;

  @Test
  void arrowAcceptsAndAppliesFiltersOfEveryPushableType(BufferAllocator allocator)
      throws Exception {
    Schema schema = RandomBatches.ALL_TYPES;
    Path file = dir.resolve("t.parquet");
    TestFiles.write(
        file,
        FileFormat.PARQUET,
        schema,
        List.of(new RandomBatches(4).distinctValues(50).batch(schema, 4000, allocator)),
        allocator);
    List<ColumnPredicate> predicates =
        List.of(
            new ColumnPredicate("bool", Op.EQ, true),
            new ColumnPredicate("i8", Op.LT, 10),
            new ColumnPredicate("i16", Op.GE, 10),
            new ColumnPredicate("i32", Op.NE, 7),
            new ColumnPredicate("i64", Op.GT, 25L),
            new ColumnPredicate("dec15_2", Op.LE, new BigDecimal("0.20")),
            new ColumnPredicate("dec38_10", Op.EQ, new BigDecimal("3E-10")),
            new ColumnPredicate("utf8", Op.LT, "k3"),
            new ColumnPredicate("date", Op.GE, LocalDate.ofEpochDay(30)));
    for (ColumnPredicate predicate : predicates) {
      Optional<ByteBuffer> filter = SubstraitFilter.encode(ScanPredicate.of(predicate), schema);
      assertThat(filter).as(predicate.toString()).isPresent();
      assertThat(rows(file, allocator, filter.get())).as(predicate.toString()).isBetween(1L, 3999L);
    }
    ScanPredicate all = new ScanPredicate(predicates);
    assertThat(rows(file, allocator, SubstraitFilter.encode(all, schema).orElseThrow()))
        .isLessThan(4000);
  }

  @Test
  void negativeLiteralsSelectExactlyTheMatchingRows(BufferAllocator allocator) throws Exception {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("i64", new ArrowType.Int(64, true)),
                Field.nullable("d", new ArrowType.Decimal(15, 2, 128))));
    Path file = dir.resolve("negative.parquet");
    VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
    BigIntVector ids = (BigIntVector) batch.getVector(0);
    DecimalVector amounts = (DecimalVector) batch.getVector(1);
    for (int i = 0; i < 11; i++) { // ids -5..5, amounts -2.50, -2.00, ..., 2.50
      ids.setSafe(i, i - 5);
      amounts.setSafe(i, BigDecimal.valueOf((i - 5) * 50L, 2));
    }
    batch.setRowCount(11);
    TestFiles.write(file, FileFormat.PARQUET, schema, List.of(batch), allocator);

    assertThat(count(file, allocator, schema, new ColumnPredicate("i64", Op.GT, -3L))).isEqualTo(8);
    assertThat(
            count(
                file, allocator, schema, new ColumnPredicate("d", Op.LE, new BigDecimal("-1.00"))))
        .isEqualTo(4); // -2.50, -2.00, -1.50, -1.00
    assertThat(
            count(
                file,
                allocator,
                schema,
                new ScanPredicate(
                    List.of(
                        new ColumnPredicate("d", Op.GT, new BigDecimal("-2.25")),
                        new ColumnPredicate("i64", Op.LT, 0L)))))
        .isEqualTo(4); // ids -4..-1
  }

  private static long count(
      Path file, BufferAllocator allocator, Schema schema, ColumnPredicate predicate)
      throws Exception {
    return count(file, allocator, schema, ScanPredicate.of(predicate));
  }

  private static long count(
      Path file, BufferAllocator allocator, Schema schema, ScanPredicate predicate)
      throws Exception {
    return rows(file, allocator, SubstraitFilter.encode(predicate, schema).orElseThrow());
  }

  @Test
  void conjunctsArrowCouldMisjudgeAreLeftOut() {
    Schema schema = RandomBatches.ALL_TYPES;
    assertThat(
            SubstraitFilter.encode(
                ScanPredicate.of(new ColumnPredicate("f64", Op.LT, 1.5)), schema))
        .isEmpty();
    assertThat(
            SubstraitFilter.encode(
                ScanPredicate.of(new ColumnPredicate("dec15_2", Op.LT, new BigDecimal("1.005"))),
                schema))
        .isEmpty();
    assertThat(
            SubstraitFilter.encode(
                ScanPredicate.of(new ColumnPredicate("i8", Op.LT, 1000)), schema))
        .isEmpty();
    assertThat(
            SubstraitFilter.encode(ScanPredicate.of(new ColumnPredicate("utf8", Op.LT, 3)), schema))
        .isEmpty();
    assertThat(
            SubstraitFilter.encode(ScanPredicate.of(new ColumnPredicate("nope", Op.LT, 3)), schema))
        .isEmpty();
  }

  private static long rows(Path file, BufferAllocator allocator, ByteBuffer filter)
      throws Exception {
    long rows = 0;
    try (FileSystemDatasetFactory factory =
            Datasets.open(
                allocator, FileFormat.PARQUET, file.toString(), CsvOptions.DEFAULT, null);
        Dataset dataset = factory.finish();
        Scanner scanner =
            dataset.newScan(
                new ScanOptions.Builder(8192)
                    .columns(Optional.of(new String[] {"i64"}))
                    .substraitFilter(filter)
                    .build());
        ArrowReader reader = scanner.scanBatches()) {
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
    }
    return rows;
  }
}
