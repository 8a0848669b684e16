package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(ArrowLeakCheck.class)
class StatisticsTest {
  @TempDir Path dir;

  @Test
  void parquetAndIpcRowCountsAreExactFromMetadata(BufferAllocator allocator) throws IOException {
    Schema schema = RandomBatches.ALL_TYPES;
    RandomBatches random = new RandomBatches(9);
    for (FileFormat format : List.of(FileFormat.PARQUET, FileFormat.ARROW_IPC)) {
      Path table = Files.createDirectories(dir.resolve(format.name()));
      TestFiles.write(
          table.resolve("a" + format.defaultExtension()),
          format,
          schema,
          List.of(random.batch(schema, 1234, allocator), random.batch(schema, 10_000, allocator)),
          allocator);
      TestFiles.write(
          table.resolve("b" + format.defaultExtension()),
          format,
          schema,
          List.of(random.batch(schema, 1, allocator)),
          allocator);

      TableStatistics stats =
          TableStatistics.of(
              TableLocations.resolve(table.toString(), Optional.empty()), CsvOptions.DEFAULT);

      assertThat(stats.rows()).as(format.name()).isEqualTo(11_235);
      assertThat(stats.exact()).isTrue();
      assertThat(stats.files())
          .extracting(TableStatistics.FileStatistics::rows)
          .containsExactly(11_234L, 1L);
      assertThat(stats.bytes())
          .isEqualTo(
              Files.size(table.resolve("a" + format.defaultExtension()))
                  + Files.size(table.resolve("b" + format.defaultExtension())));
      assertThat(
              SplitPlanner.plan(
                  TableLocations.resolve(table.toString(), Optional.empty()), Optional.empty()))
          .extracting(FileSplit::rows)
          .containsExactly(11_234L, 1L);
    }
  }

  @Test
  void csvRowsAreEstimatedFromTheSize() throws IOException {
    StringBuilder text = new StringBuilder("id,name\n");
    for (int i = 0; i < 100_000; i++) {
      text.append(i % 1000).append(",name-").append(i % 1000).append('\n');
    }
    Path csv = Files.writeString(dir.resolve("t.csv"), text);

    TableStatistics stats =
        TableStatistics.of(
            TableLocations.resolve(csv.toString(), Optional.empty()), CsvOptions.DEFAULT);

    assertThat(stats.exact()).isFalse();
    assertThat(stats.bytes()).isEqualTo(Files.size(csv));
    assertThat(stats.rows()).isBetween(95_000L, 105_000L);
    Path small = Files.writeString(dir.resolve("s.csv"), "a\n1\n2\n3");
    assertThat(
            TableStatistics.of(
                    TableLocations.resolve(small.toString(), Optional.empty()), CsvOptions.DEFAULT)
                .rows())
        .isEqualTo(3);
  }
}
