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
import org.apache.arrow.vector.ipc.ArrowReader;
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
