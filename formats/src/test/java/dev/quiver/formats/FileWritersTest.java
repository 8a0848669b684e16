package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.testing.ArrowLeakCheck;
import dev.quiver.testing.RandomBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Writers leave either the complete file or nothing at all. */
@ExtendWith(ArrowLeakCheck.class)
class FileWritersTest {
  private static final Schema SCHEMA = RandomBatches.ALL_TYPES;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void sourceFailureLeavesNothingBehindAndKeepsTheSourceError(
      FileFormat format, BufferAllocator allocator) {
    RandomBatches random = new RandomBatches(1);
    TestFiles.ListReader failing =
        new TestFiles.ListReader(
            allocator,
            SCHEMA,
            List.of(random.batch(SCHEMA, 5000, allocator), random.batch(SCHEMA, 5000, allocator))) {
          private int loads;

          @Override
          public boolean loadNextBatch() throws IOException {
            if (++loads == 2) {
              throw new QuiverException(ErrorCode.DIVISION_BY_ZERO, "boom in the query");
            }
            return super.loadNextBatch();
          }
        };
    Path target = dir.resolve("out" + format.defaultExtension());

    assertThatThrownBy(() -> FileWriters.write(failing, format, target, allocator))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO));
    assertThat(dir.toFile().list()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void closeWithoutCommitLeavesNothingBehind(FileFormat format, BufferAllocator allocator) {
    Path target = dir.resolve("sub/out" + format.defaultExtension());
    try (BatchFileWriter writer = BatchFileWriter.open(target, format, SCHEMA, allocator)) {
      for (int i = 0; i < 4; i++) {
        try (VectorSchemaRoot batch = new RandomBatches(i).batch(SCHEMA, 4000, allocator)) {
          writer.write(batch);
        }
      }
    }
    assertThat(target).doesNotExist();
    assertThat(target.getParent().toFile().list()).isEmpty();
  }

  /**
   * A commit interrupted before it could queue the end of the stream (a cancelled task at the end
   * of its input) committed nothing; close still ends the writing thread, which waited for a batch
   * on one of Arrow's threads (once a thread that never ended, and then blocked the JVM's exit).
   */
  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void anInterruptedCommitCommitsNothingAndCloseEndsTheWriter(
      FileFormat format, BufferAllocator allocator) {
    Path target = dir.resolve("sub/out" + format.defaultExtension());
    BatchFileWriter writer = BatchFileWriter.open(target, format, SCHEMA, allocator);
    try (VectorSchemaRoot batch = new RandomBatches(5).batch(SCHEMA, 4000, allocator)) {
      writer.write(batch);
    }
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(writer::commit)
          .isInstanceOfSatisfying(
              QuiverException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_WRITE_FAILED))
          .hasMessageContaining("Interrupted");
      writer.close();
      assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept").isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(writer.writing()).as("the writing thread ended within close").isFalse();
    assertThat(target).doesNotExist();
    assertThat(target.getParent().toFile().list()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(FileFormat.class)
  void existingTargetIsNeverOverwritten(FileFormat format, BufferAllocator allocator)
      throws IOException {
    Path target = Files.writeString(dir.resolve("exists" + format.defaultExtension()), "keep me");

    assertThatThrownBy(
            () ->
                TestFiles.write(
                    target,
                    format,
                    SCHEMA,
                    List.of(new RandomBatches(2).batch(SCHEMA, 10, allocator)),
                    allocator))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_WRITE_FAILED))
        .hasMessageContaining(target.toString());
    assertThat(Files.readString(target)).isEqualTo("keep me");
    assertThat(dir.toFile().list()).containsExactly(target.getFileName().toString());

    BatchFileWriter writer = BatchFileWriter.open(target, format, SCHEMA, allocator);
    try (VectorSchemaRoot batch = new RandomBatches(3).batch(SCHEMA, 10, allocator)) {
      writer.write(batch);
    } catch (QuiverException e) {
      // the writing thread may already have failed
    }
    assertThatThrownBy(writer::commit)
        .isInstanceOf(QuiverException.class)
        .hasMessageContaining("already exists");
    writer.close();
    assertThat(Files.readString(target)).isEqualTo("keep me");
  }
}
