package dev.quiver.state.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.operators.spill.SpillFile;
import dev.quiver.operators.spill.SpillReader;
import dev.quiver.operators.spill.SpillWriter;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.BatchRows;
import dev.quiver.testing.RandomBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(ArrowLeakCheck.class)
class FileSpillSpaceTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  @TempDir Path tmp;

  static Stream<SpillCompression> compressions() {
    return Stream.of(
        SpillCompression.NONE,
        SpillCompression.LZ4,
        SpillCompression.zstd(1),
        SpillCompression.zstd(3));
  }

  /** Every type, nulls, long strings, an empty and a sliced batch: the same rows come back. */
  @ParameterizedTest
  @MethodSource("compressions")
  void roundTripsEveryType(SpillCompression compression, BufferAllocator allocator)
      throws IOException {
    RandomBatches random = new RandomBatches(1).nullFraction(0.2).maxStringLength(300);
    List<List<Object>> expected = new ArrayList<>();
    try (FileSpillSpace space = new FileSpillSpace(List.of(tmp), "task 1/2", compression)) {
      SpillFile file;
      try (SpillWriter writer = space.create(SCHEMA, "round trip")) {
        for (int rows : new int[] {100, 0, 1, 257}) {
          try (VectorSchemaRoot batch = random.batch(SCHEMA, rows, allocator)) {
            expected.addAll(BatchRows.rows(batch));
            writer.write(batch);
          }
        }
        try (VectorSchemaRoot whole = random.batch(SCHEMA, 50, allocator);
            VectorSchemaRoot slice = whole.slice(7, 30)) {
          expected.addAll(BatchRows.rows(slice));
          writer.write(slice);
        }
        assertThat(writer.rows()).isEqualTo(388);
        file = writer.finish();
      }
      assertThat(file.rows()).isEqualTo(388);
      assertThat(file.batches()).isEqualTo(4);
      Path path = onlyFile(space);
      assertThat(file.bytes()).isEqualTo(Files.size(path));
      assertThat(space.spilledBytes()).isPositive().isLessThanOrEqualTo(file.bytes());
      assertThat(space.spilledRows()).isEqualTo(388);
      assertThat(space.spilledFiles()).isEqualTo(1);

      List<List<Object>> actual = new ArrayList<>();
      List<Integer> sizes = new ArrayList<>();
      try (file;
          SpillReader reader = file.open(allocator)) {
        for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
          try (VectorSchemaRoot batch = next) {
            assertThat(batch.getSchema()).isEqualTo(SCHEMA);
            sizes.add(batch.getRowCount());
            actual.addAll(BatchRows.rows(batch));
          }
        }
        assertThat(reader.next()).isNull();
      }
      assertThat(sizes).containsExactly(100, 1, 257, 30);
      assertThat(actual).isEqualTo(expected);
      assertThat(path).doesNotExist();
      assertThat(space.liveFiles()).isZero();
    }
  }

  /** A failed or cancelled task leaves writers, files and readers open: close deletes them all. */
  @Test
  void closeDeletesFilesLeftOpen(BufferAllocator allocator) throws IOException {
    RandomBatches random = new RandomBatches(2);
    FileSpillSpace space = new FileSpillSpace(List.of(tmp), "task", SpillCompression.DEFAULT);
    SpillWriter unfinished = space.create(SCHEMA, "unfinished");
    SpillWriter finished = space.create(SCHEMA, "finished");
    SpillWriter reading = space.create(SCHEMA, "reading");
    for (SpillWriter writer : List.of(unfinished, finished, reading)) {
      try (VectorSchemaRoot batch = random.batch(SCHEMA, 100, allocator)) {
        writer.write(batch);
        writer.write(batch);
      }
    }
    SpillFile neverOpened = finished.finish();
    SpillReader reader = reading.finish().open(allocator);
    reader.next().close(); // the second batch is left in the reader
    assertThat(space.liveFiles()).isEqualTo(3);
    assertThat(space.directories()).hasSize(1);
    Path directory = space.directories().get(0);
    try (Stream<Path> files = Files.list(directory)) {
      assertThat(files).hasSize(3);
    }

    space.close();
    assertThat(directory).doesNotExist();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left).isEmpty();
    }
    assertThat(space.liveFiles()).isZero();
    assertThat(space.canSpill()).isFalse();
    assertThatThrownBy(() -> space.create(SCHEMA, "late"))
        .isInstanceOf(IllegalStateException.class);
    // Closing the handles afterwards is harmless.
    unfinished.close();
    neverOpened.close();
    reader.close();
    space.close();
  }

  @Test
  void spreadsFilesRoundRobinOverDirectories(BufferAllocator allocator) throws IOException {
    List<Path> roots = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      roots.add(Files.createDirectory(tmp.resolve("disk" + i)));
    }
    List<SpillFile> files = new ArrayList<>();
    try (FileSpillSpace space =
            new FileSpillSpace(roots, "stage 3 / task 1", SpillCompression.NONE);
        VectorSchemaRoot batch = new RandomBatches(3).batch(SCHEMA, 10, allocator)) {
      for (int i = 0; i < 6; i++) {
        try (SpillWriter writer = space.create(SCHEMA, "sort-run")) {
          writer.write(batch);
          files.add(writer.finish());
        }
      }
      assertThat(space.directories()).hasSize(3);
      for (int i = 0; i < 3; i++) {
        Path directory = space.directories().get(i);
        assertThat(directory.getParent()).isEqualTo(roots.get(i));
        assertThat(directory.getFileName().toString()).startsWith("quiver-spill-stage_3_task_1-");
        try (Stream<Path> inside = Files.list(directory)) {
          assertThat(inside.map(p -> p.getFileName().toString()))
              .hasSize(2)
              .allMatch(name -> name.matches("\\d{6}-sort-run\\.arrows"));
        }
      }
      files.get(0).close();
      assertThat(space.liveFiles()).isEqualTo(5);
    }
    for (Path root : roots) {
      try (Stream<Path> left = Files.list(root)) {
        assertThat(left).isEmpty();
      }
    }
  }

  @Test
  void rejectsMisuse(BufferAllocator allocator) throws IOException {
    try (FileSpillSpace space = new FileSpillSpace(List.of(tmp), "task");
        VectorSchemaRoot batch = new RandomBatches(4).batch(SCHEMA, 5, allocator)) {
      SpillWriter writer = space.create(SCHEMA, "misuse");
      Schema other = new Schema(List.of(RandomBatches.field("x", ArrowType.Utf8.INSTANCE)));
      SpillFile file;
      try (VectorSchemaRoot wrong = VectorSchemaRoot.create(other, allocator)) {
        wrong.setRowCount(0);
        assertThatThrownBy(() -> writer.write(wrong)).isInstanceOf(IllegalArgumentException.class);
      }
      writer.write(batch);
      file = writer.finish();
      assertThatThrownBy(() -> writer.write(batch)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class);
      writer.close(); // after finish: the file stays
      assertThat(space.liveFiles()).isEqualTo(1);
      file.open(allocator).close();
      assertThatThrownBy(() -> file.open(allocator)).isInstanceOf(IllegalStateException.class);
      file.close();
      assertThat(space.liveFiles()).isZero();
    }
  }

  /**
   * A reread leaves the file as it is: reread twice (one reader left open), then opened once, the
   * same rows each time; closing the file closes the reread reader left open and deletes it.
   */
  @ParameterizedTest
  @MethodSource("compressions")
  void rereadLeavesTheFileToReadAgain(SpillCompression compression, BufferAllocator allocator)
      throws IOException {
    RandomBatches random = new RandomBatches(5).nullFraction(0.1);
    List<List<Object>> expected = new ArrayList<>();
    try (FileSpillSpace space = new FileSpillSpace(List.of(tmp), "task", compression)) {
      SpillFile file;
      try (SpillWriter writer = space.create(SCHEMA, "reread")) {
        for (int rows : new int[] {40, 3, 120}) {
          try (VectorSchemaRoot batch = random.batch(SCHEMA, rows, allocator)) {
            expected.addAll(BatchRows.rows(batch));
            writer.write(batch);
          }
        }
        file = writer.finish();
      }
      Path path = onlyFile(space);
      long written = space.spilledBytes();
      for (int i = 0; i < 2; i++) {
        try (SpillReader again = file.reread(allocator)) {
          assertThat(readAll(again)).as("reread %d", i).isEqualTo(expected);
        }
      }
      SpillReader leftOpen = file.reread(allocator);
      leftOpen.next().close();
      try (SpillReader once = file.open(allocator)) {
        assertThat(readAll(once)).isEqualTo(expected);
      }
      try (SpillReader more = file.reread(allocator)) {
        assertThat(readAll(more)).as("after open").isEqualTo(expected);
      }
      assertThat(path).exists();
      assertThat(space.spilledBytes()).as("nothing written").isEqualTo(written);
      assertThatThrownBy(() -> file.open(allocator)).isInstanceOf(IllegalStateException.class);
      file.close(); // closes leftOpen: its batches' buffers are released
      assertThat(path).doesNotExist();
      assertThat(space.liveFiles()).isZero();
      assertThatThrownBy(() -> file.reread(allocator)).isInstanceOf(IllegalStateException.class);
      leftOpen.close();
    }
  }

  private static List<List<Object>> readAll(SpillReader reader) {
    List<List<Object>> rows = new ArrayList<>();
    for (VectorSchemaRoot next = reader.next(); next != null; next = reader.next()) {
      try (VectorSchemaRoot batch = next) {
        rows.addAll(BatchRows.rows(batch));
      }
    }
    return rows;
  }

  @Test
  void unusableDirectoryIsAClearError() throws IOException {
    Path notADirectory = Files.writeString(tmp.resolve("file"), "x");
    try (FileSpillSpace space = new FileSpillSpace(List.of(notADirectory), "task")) {
      assertThatThrownBy(() -> space.create(SCHEMA, "sort-run"))
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_WRITE_FAILED))
          .hasMessageContaining(notADirectory.toString())
          .hasMessageContaining("io.tmp.dirs");
    }
    assertThat(SpillCompression.parse("ZSTD:3")).isEqualTo(SpillCompression.zstd(3));
    assertThat(SpillCompression.parse("zstd")).isEqualTo(SpillCompression.DEFAULT);
    assertThat(SpillCompression.parse(" none ")).isEqualTo(SpillCompression.NONE);
    assertThat(SpillCompression.zstd(7)).hasToString("zstd:7");
    assertThatThrownBy(() -> SpillCompression.parse("gzip"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Path onlyFile(FileSpillSpace space) throws IOException {
    try (Stream<Path> files = Files.list(space.directories().get(0))) {
      return files.findFirst().orElseThrow();
    }
  }
}
