package dev.quiver.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.error.ErrorCode;
import dev.quiver.error.QuiverException;
import dev.quiver.testing.ArrowLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Footers are read once per file version: a rewritten or deleted file is never answered stale. */
@ExtendWith(ArrowLeakCheck.class)
class ParquetFooterCacheTest {
  @TempDir Path dir;

  @Test
  void aRewrittenFileIsReadAgain(BufferAllocator allocator) throws Exception {
    Path file = dir.resolve("t.parquet");
    OrdersFiles.write(file, FileFormat.PARQUET, OrdersFiles.rows(0, 10), allocator);
    ParquetFooter.Metadata first = ParquetFooter.read(file);
    assertThat(first.rows()).isEqualTo(10);
    assertThat(ParquetFooter.read(file)).isSameAs(first);

    Files.delete(file);
    OrdersFiles.write(file, FileFormat.PARQUET, OrdersFiles.rows(0, 2_000), allocator);
    assertThat(ParquetFooter.read(file).rows()).isEqualTo(2_000);

    Files.delete(file);
    assertThatThrownBy(() -> ParquetFooter.read(file))
        .isInstanceOfSatisfying(
            QuiverException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_NOT_FOUND));
  }
}
